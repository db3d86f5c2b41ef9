// Snapshots end to end (snapshot.md, D41, D44): a `hornet`-style dev network writes its
// genesis with the real CLI while it runs — byte for byte the 311-byte file of §2, which
// `hornet tool snap-gen` writes for the same inputs — and a second node started from that
// file is the same network: fed the first node's blocks and milestones, it reaches the same
// milestones, ledger and indexer. Refusals: another network's file, a changed genesis style, an
// existing output file, a data directory without a ledger.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { core, startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  postBlock,
  submitPayload,
  testKey,
  waitForInclusion,
} from './transactions';

const root = resolve(__dirname, '../..');
const SPEC_FILE = join(root, 'test/data/genesis-hornet-dev.snapshot.bin');
const K = testKey('snapshot coordinator');
const DEFAULTS = ['--min-pow-score', '1500', '--genesis-style', 'hornet'];
let a: TestNode;
let file: string;

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'bin/ledger-node.js'), ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  a = await startTestNode([...DEFAULTS, '--milestone-interval', '1', '--coordinator-key', K.seed]);
  file = join(tempDataDir(), 'genesis.bin');
});
afterAll(async () => {
  await a?.stop();
});

it('writes the genesis of a running hornet-style node: the file of snapshot.md §2', () => {
  const run = cli('snapshot', 'write', '--out', file, '--data-dir', a.dataDir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/311 bytes, 1 output\(s\), 1 solid entry point\(s\), genesis style hornet/);
  expect(readFileSync(file).equals(readFileSync(SPEC_FILE))).toBe(true);
  // Never over an existing file; not from a data directory without a ledger.
  const again = cli('snapshot', 'write', '--out', file, '--data-dir', a.dataDir);
  expect(again.status).toBe(2);
  expect(again.stderr).toMatch(/exists.*\(file-exists\)/);
  const empty = cli('snapshot', 'write', `--out=${file}.2`, '--data-dir', tempDataDir());
  expect(empty.status).toBe(2);
  expect(empty.stderr).toMatch(/no ledger in .*start the node once/);
  expect(cli('snapshot', 'read').stderr).toMatch(/unknown action 'read'/);
});

it('a node started from the written file follows the same network', async () => {
  // A transfer on A, confirmed there.
  const spendable = await genesisSpendable(a.url);
  const transfer = buildTransfer(
    await networkIdOf(a.url),
    [spendable],
    [
      { to: testKey('snapshot recipient'), amount: 1_000_000 },
      { to: spendable.key, amount: BigInt(spendable.output.amount) - 1_000_000n },
    ],
  );
  await submitPayload(a.url, transfer.payload);
  const included = await waitForInclusion(a.url, transfer.transactionId, 60_000);
  const txBlockId: string = included.blockId;
  const latest: number = (await getJson(a.url, '/api/core/v2/info')).body.status.confirmedMilestone.index;

  const b = await startTestNode([
    '--min-pow-score',
    '0',
    '--snapshot',
    file,
    '--no-coordinator',
    '--coordinator-public-key',
    K.publicKey,
  ]);
  try {
    const info = (await getJson(b.url, '/api/core/v2/info')).body;
    expect(info.protocol).toEqual((await getJson(a.url, '/api/core/v2/info')).body.protocol);
    expect(info.protocol.minPowScore).toBe(1500); // the file's, not the configured 0
    expect(info.status.pruningIndex).toBe(0);
    // A's milestone blocks (and the transfer's block before the milestone that references it).
    const txBytes = Buffer.from(
      await (
        await fetch(`${a.url}/api/core/v2/blocks/${txBlockId}`, {
          headers: { Accept: 'application/vnd.ledger.serializer-v1' },
        })
      ).arrayBuffer(),
    );
    for (let index = 1; index <= latest; index++) {
      if (index === included.referencedByMilestoneIndex) expect((await postBlock(b.url, txBytes)).status).toBe(201);
      const payload = (await getJson(a.url, `/api/core/v2/milestones/by-index/${index}`)).body;
      const block = core.encodeBlock({ protocolVersion: 2, parents: payload.parents, payload, nonce: '0' }) as Buffer;
      const res = await postBlock(b.url, block);
      expect(res.status, await res.text()).toBe(201);
      expect((await getJson(b.url, `/api/core/v2/milestones/by-index/${index}`)).body).toEqual(payload);
    }
    const first = (await getJson(b.url, '/api/core/v2/milestones/by-index/1')).body;
    expect(first.parents).toEqual(['0x' + '00'.repeat(32)]);
    expect(first.inclusionMerkleRoot).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    for (const outputId of ['0x' + '00'.repeat(34), transfer.outputs[0].outputId]) {
      const [x, y] = await Promise.all(
        [a, b].map(async (n) => (await getJson(n.url, `/api/core/v2/outputs/${outputId}`)).body),
      );
      expect({ ...y.metadata, ledgerIndex: 0 }).toEqual({ ...x.metadata, ledgerIndex: 0 });
      expect(y.output).toEqual(x.output);
    }
    expect((await getJson(b.url, `/api/core/v2/blocks/${txBlockId}/metadata`)).body.ledgerInclusionState).toBe(
      'included',
    );
    // B's indexer began with the file's ledger and followed the same milestones: it lists
    // the same unspent outputs as A's (only the transfer's two; no more transactions on A).
    const [ia, ib] = await Promise.all([a, b].map(async (n) => (await getJson(n.url, '/api/indexer/v1/outputs')).body));
    expect(ib.ledgerIndex).toBe(latest);
    expect(ib.items).toEqual(ia.items);
    expect(ib.items).toHaveLength(2);
  } finally {
    await b.stop();
  }
});

it('refuses the file of another network and leaves no ledger behind', async () => {
  const dir = tempDataDir();
  await expect(startTestNode(['--snapshot', file, '--network-name', 'private_tangle1'], dir)).rejects.toThrow(
    /snapshot-network-mismatch.*'ledger-devnet-v2'.*'private_tangle1'/,
  );
  expect(existsSync(join(dir, 'ledger'))).toBe(false);
});

it('keeps the genesis style of the data directory', async () => {
  await a.stop();
  await expect(
    startTestNode(['--min-pow-score', '1500', '--genesis-style', 'ledger', '--coordinator-key', K.seed], a.dataDir),
  ).rejects.toThrow(/genesis-style-mismatch: genesis.style: genesis.style is hornet in the data directory but ledger/);
});
