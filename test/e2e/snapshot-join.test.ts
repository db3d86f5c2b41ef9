// Snapshots after genesis end to end (snapshot.md §8, §9; issue 23 items 2 and 3): a running
// coordinator node A with a transfer writes a full snapshot through the REST control route
// (JWT-protected, Hornet's and TIP-25's spelling) and through `ledger-node snapshot create`,
// and a delta on top; followers started from the full file, and from the full + delta pair
// downloaded over HTTP (snapshots.downloadURLs, a local server), are given A's milestone
// blocks after the snapshot's target and reach the same ledger and milestones as a follower
// that synced from genesis. Bad files are refused with one line and leave the data directory
// as it was. The followers are fed through REST, block by block: no gossip timing.

import { spawnSync } from 'node:child_process';
import { copyFileSync, createReadStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { core, issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  postBlock,
  type RestJson,
  SERIALIZER,
  submitPayload,
  testKey,
  waitForInclusion,
} from './transactions';

const root = resolve(__dirname, '../..');
const K = testKey('snapshot-join coordinator');
const FOLLOW = ['--no-coordinator', '--coordinator-public-key', K.publicKey];
const ZERO_TREASURY = { milestoneId: `0x${'00'.repeat(32)}`, amount: '0' };

let a: TestNode;
let token: string;
let txBlock: Buffer;
let txIndex: number;
/** A's milestone payloads 1..last, read while A runs (it goes on issuing). */
const payloads: RestJson[] = [];
let last: number;
let work: string;
let restFull22: string;
let restFull23: string;
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

function milestoneBlock(index: number): Buffer {
  const payload = payloads[index - 1];
  return core.encodeBlock({ protocolVersion: 2, parents: payload.parents, payload, nonce: '0' }) as Buffer;
}

/** Give a follower that is at `from` A's blocks up to `last`: milestone `from`'s own block
 * first when it started from a snapshot at `from` (the next milestone approves it). */
async function feed(url: string, from: number): Promise<void> {
  if (from > 0) expect((await postBlock(url, milestoneBlock(from))).status).toBe(201);
  for (let index = from + 1; index <= last; index++) {
    if (index === txIndex) expect((await postBlock(url, txBlock)).status).toBe(201);
    const res = await postBlock(url, milestoneBlock(index));
    expect(res.status, await res.text()).toBe(201);
  }
  expect(await confirmed(url)).toBe(last);
}

/** What the followers are compared on: the unspent outputs, the milestones after 30, the
 * transfer's outputs with their metadata, the treasury and receipts. */
async function ledgerOf(url: string) {
  const outputs = (await getJson(url, '/api/indexer/v1/outputs')).body.items;
  const milestones = [];
  for (let index = 31; index <= last; index++)
    milestones.push((await getJson(url, `/api/core/v2/milestones/by-index/${index}`)).body);
  const metadata = [];
  for (const id of outputs) {
    const { metadata: m, output } = (await getJson(url, `/api/core/v2/outputs/${id}`)).body;
    metadata.push({ ...m, ledgerIndex: 0, output });
  }
  return {
    outputs,
    milestones,
    metadata,
    treasury: (await getJson(url, '/api/core/v2/treasury')).body,
    receipts: (await getJson(url, '/api/core/v2/receipts')).body,
  };
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
  const included = await waitForInclusion(a.url, transfer.transactionId, 60_000);
  txIndex = included.referencedByMilestoneIndex;
  txBlock = Buffer.from(
    await (
      await fetch(`${a.url}/api/core/v2/blocks/${included.blockId}`, { headers: { Accept: SERIALIZER } })
    ).arrayBuffer(),
  );
  // Snapshots need 20 confirmed milestones after their target (belowMaxDepth + 5).
  await poll('milestone 52 on A', async () => ((await confirmed(a.url)) >= 52 ? true : undefined), 180_000, 500);
  last = await confirmed(a.url);
  for (let index = 1; index <= last; index++)
    payloads.push((await getJson(a.url, `/api/core/v2/milestones/by-index/${index}`)).body);
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
  restFull23 = (await tip25.json()).filePath;
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

it('followers from the file and from downloaded full + delta files reach the ledger of one synced from genesis', async () => {
  const files: Record<string, string> = { '/full.bin': restFull22, '/delta.bin': delta30 };
  const server: Server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fromGenesis = await startTestNode(FOLLOW);
  const fromFile = await startTestNode(['--snapshot', cliFull22, ...FOLLOW]);
  const downloadDir = tempDataDir();
  const fromDownload = await startTestNode(
    ['--snapshot-download', `${base}/full.bin,${base}/delta.bin`, ...FOLLOW],
    downloadDir,
  );
  try {
    // Where they start: the snapshot's target, with the zero treasury Hornet stores.
    const started = (await getJson(fromFile.url, '/api/core/v2/info')).body.status;
    expect([started.confirmedMilestone.index, started.pruningIndex]).toEqual([22, 22]);
    const downloaded = (await getJson(fromDownload.url, '/api/core/v2/info')).body.status;
    expect([downloaded.confirmedMilestone.index, downloaded.pruningIndex]).toEqual([30, 30]);
    expect(readFileSync(join(downloadDir, 'snapshots', 'full_snapshot.bin')).equals(readFileSync(restFull22))).toBe(
      true,
    );
    expect(readFileSync(join(downloadDir, 'snapshots', 'delta_snapshot.bin')).equals(readFileSync(delta30))).toBe(true);
    expect((await getJson(fromDownload.url, '/api/core/v2/treasury')).body).toEqual(ZERO_TREASURY);

    await feed(fromGenesis.url, 0);
    await feed(fromFile.url, 22);
    await feed(fromDownload.url, 30);
    const expected = await ledgerOf(fromGenesis.url);
    expect(expected.outputs).toHaveLength(2);
    expect(expected.milestones.map((m: RestJson) => m.index)).toEqual(payloads.slice(30).map((m) => m.index));
    expect(await ledgerOf(fromFile.url)).toEqual(expected);
    expect(await ledgerOf(fromDownload.url)).toEqual(expected);
    // And A's own unspent outputs (it confirmed no other transaction).
    expect((await getJson(a.url, '/api/indexer/v1/outputs')).body.items).toEqual(expected.outputs);
  } finally {
    await Promise.all([fromGenesis.stop(), fromFile.stop(), fromDownload.stop()]);
    server.close();
  }
}, 180_000);

it('refuses bad snapshot files with one line and leaves the data directory as it was', async () => {
  const refuse = async (flags: string[], pattern: RegExp) => {
    const dir = tempDataDir();
    const err: Error = await startTestNode([...flags, ...FOLLOW], dir).then(
      () => {
        throw new Error('started');
      },
      (e: Error) => e,
    );
    expect(err.message).toMatch(pattern);
    expect(err.message).not.toContain('\n');
    expect(readdirSync(dir)).toEqual([]);
  };
  const good = readFileSync(restFull22);
  const cut = join(work, 'cut.bin');
  writeFileSync(cut, good.subarray(0, Math.floor(good.length / 2)));
  await refuse(['--snapshot', cut], /truncated-bytes|length-prefix-too-large/);
  await refuse(['--snapshot', restFull22, '--network-name', 'elsewhere'], /snapshot-network-mismatch/);
  // A delta that continues another full snapshot (22's, given 23's).
  const other = join(work, 'other_full.bin');
  copyFileSync(restFull23, other);
  await refuse(['--snapshot', other, '--snapshot-delta', delta30], /snapshot-delta-mismatch/);
  // The same refusals for downloaded files, which are removed again.
  const server: Server = createServer((req, res) => {
    const file = req.url === '/cut.bin' ? cut : undefined;
    if (file === undefined) return void res.writeHead(404).end();
    res.writeHead(200);
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await refuse(['--snapshot-download', `${base}/missing.bin`], /no valid source found/);
    await refuse(['--snapshot-download', `${base}/cut.bin`], /truncated-bytes|length-prefix-too-large/);
  } finally {
    server.close();
  }
});
