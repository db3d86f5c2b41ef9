// Snapshots after genesis end to end (snapshot.md §8; issue 23 item 2): a running coordinator
// node A with a transfer writes full snapshots through the REST control route (JWT-protected,
// Hornet's and TIP-25's spelling) and through `ledger-node snapshot create`, and a delta on top.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  submitPayload,
  testKey,
  waitForInclusion,
} from './transactions';

const root = resolve(__dirname, '../..');
const K = testKey('snapshot-join coordinator');
const ZERO_TREASURY = { milestoneId: `0x${'00'.repeat(32)}`, amount: '0' };

let a: TestNode;
let token: string;
let work: string;
let restFull22: string;
let cliFull22: string;
let delta30: string;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'bin/ledger-node.js'), ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const confirmed = async (url: string): Promise<number> =>
  (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index;

function control(path: string, body: string, auth = true): Promise<Response> {
  return fetch(`${a.url}/api/core/v2/control/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${token}` } : {}) },
    body,
  });
}

beforeAll(async () => {
  a = await startTestNode(['--milestone-interval', '1', '--coordinator-key', K.seed]);
  token = await issueToken(readFileSync(join(a.dataDir, 'jwt-secret'), 'utf8').trim());
  work = tempDataDir();
  const spendable = await genesisSpendable(a.url);
  const transfer = buildTransfer(
    await networkIdOf(a.url),
    [spendable],
    [
      { to: testKey('snapshot-join recipient'), amount: 1_000_000 },
      { to: spendable.key, amount: BigInt(spendable.output.amount) - 1_000_000n },
    ],
  );
  await submitPayload(a.url, transfer.payload);
  await waitForInclusion(a.url, transfer.transactionId, 60_000);
  // Snapshots need 20 confirmed milestones after their target (belowMaxDepth + 5).
  await poll('milestone 52 on A', async () => ((await confirmed(a.url)) >= 52 ? true : undefined), 180_000, 500);
}, 240_000);

afterAll(async () => {
  await a?.stop();
});

it('creates full snapshots through REST, behind a JWT, at both spellings, with Hornet’s answers', async () => {
  const refused = await control('snapshots/create', '{"index":22}', false);
  expect(refused.status).not.toBe(200);
  expect(existsSync(join(a.dataDir, 'snapshots', 'full_snapshot_22.bin'))).toBe(false);

  const created = await control('snapshots/create', '{"index":22}');
  expect(created.status).toBe(200);
  restFull22 = join(a.dataDir, 'snapshots', 'full_snapshot_22.bin');
  expect(await created.json()).toEqual({ index: 22, filePath: restFull22 });
  const tip25 = await control('snapshot/create', '{"index":23}');
  expect(tip25.status).toBe(200);
  const restFull23 = (await tip25.json()).filePath;
  expect(restFull23).toBe(join(a.dataDir, 'snapshots', 'full_snapshot_23.bin'));
  expect(existsSync(restFull22) && existsSync(restFull23)).toBe(true);

  const noIndex = await control('snapshots/create', '{}');
  expect(noIndex.status).toBe(400);
  expect((await noIndex.json()).error.message).toMatch(/index needs to be specified/);
  const tooNew = await control('snapshots/create', '{"index":100000}');
  expect(tooNew.status).toBe(500);
  expect((await tooNew.json()).error.message).toMatch(
    /creating snapshot failed: maximum: \d+, actual: 100000: snapshot target is too new/,
  );

  // The treasury and receipts of a network without migration, public as in Hornet.
  expect((await getJson(a.url, '/api/core/v2/treasury')).body).toEqual(ZERO_TREASURY);
  expect((await getJson(a.url, '/api/core/v2/receipts')).body).toEqual({ receipts: [] });
  expect((await getJson(a.url, '/api/core/v2/receipts/7')).body).toEqual({ receipts: [] });
});

it('ledger-node snapshot create writes a full snapshot and a delta of the data directory', () => {
  cliFull22 = join(work, 'cli_full_22.bin');
  const full = cli('snapshot', 'create', '--index', '22', '--out', cliFull22, '--data-dir', a.dataDir);
  expect(full.stderr).toBe('');
  expect(full.status).toBe(0);
  expect(full.stdout).toMatch(/full snapshot, target 22 \(ledger \d+\)/);
  delta30 = join(work, 'delta_30.bin');
  const delta = cli(
    'snapshot',
    'create',
    '--delta',
    '--index',
    '30',
    '--full',
    restFull22,
    '--out',
    delta30,
    '--data-dir',
    a.dataDir,
  );
  expect(delta.stderr).toBe('');
  expect(delta.status).toBe(0);
  expect(delta.stdout).toMatch(/delta snapshot, target 30 .*8 milestone diff\(s\)/);
  const info = cli('snapshot', 'info', delta30);
  expect(info.status).toBe(0);
  expect(JSON.parse(info.stdout)).toMatchObject({ kind: 'delta', targetMilestoneIndex: 30, milestoneDiffCount: 8 });
});
