// Blocks that arrive over gossip before their parents become solid when the parents
// arrive (D46, gossip.md §6 step 5 and §6.1), between real nodes on loopback: the
// coordinator gets a chain P1 ← P2 ← P3 from a first follower (so the chain is not its own:
// a node offers its own unreferenced blocks to every peer that comes, D50), then a second
// follower joins and the coordinator gossips a child C of P3. The second follower holds C,
// asks for P3, holds it, asks for P2, then P1; once P1 is stored the whole chain becomes
// solid, with the bytes and parents the coordinator has.

import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';
import { type RestJson, SERIALIZER, getJson, minedBlock, poll, submit, testKey } from './transactions';

const native = (require(join(__dirname, '../../dist/native.js')) as typeof import('../../src/native')).default;
const K = testKey('gossip solidify coordinator');
const SEP = ['0x' + '00'.repeat(32), '0x' + '00'.repeat(31) + '01'];
const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('solidify').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});

let a: TestNode;
let b: TestNode;
let aId: string;
let aP2p: string;

beforeAll(async () => {
  const aDir = tempDataDir();
  aId = native.identityPeerId(join(aDir, 'p2p-identity.key'), undefined);
  aP2p = `/ip4/127.0.0.1/tcp/${await freePort()}`;
  // Milestone 1 at start, then none during the test: nothing references the chain.
  a = await startTestNode(
    ['--no-dashboard', '--gossip', '--p2p-bind', aP2p, '--milestone-interval', '3600', '--coordinator-key', K.seed],
    aDir,
  );
}, 60_000);

/** A follower of the coordinator over gossip, on a port of its own. */
async function followerFlags(): Promise<string[]> {
  return [
    '--no-dashboard',
    '--gossip',
    '--p2p-bind',
    `/ip4/127.0.0.1/tcp/${await freePort()}`,
    '--peer',
    `${aP2p}/p2p/${aId}`,
    '--no-coordinator',
    '--coordinator-public-key',
    K.publicKey,
  ];
}

afterAll(async () => {
  await Promise.all([b?.stop(), a?.stop()]);
});

it('a child gossiped before its parents is held, its parents are requested, and all become solid', async () => {
  // The chain, submitted at a first follower and gossiped to the coordinator; that follower
  // then leaves.
  const p1 = await minedBlock(SEP, tagged('p1'));
  const p2 = await minedBlock([p1.blockId, SEP[0]], tagged('p2'));
  const p3 = await minedBlock([p2.blockId, SEP[1]], tagged('p3'));
  const chain = [p1, p2, p3];
  const source = await startTestNode(await followerFlags(), tempDataDir());
  try {
    await poll(
      'the first follower to confirm milestone 1',
      async () =>
        (await getJson(source.url, '/api/core/v2/info')).body.status.confirmedMilestone.index >= 1 ? true : undefined,
      30_000,
      100,
    );
    for (const block of chain) expect(await submit(source.url, block.bytes)).toBe(block.blockId);
    await poll(
      'the chain at the coordinator',
      async () => ((await fetch(`${a.url}/api/core/v2/blocks/${p3.blockId}`)).status === 200 ? true : undefined),
      30_000,
      100,
    );
  } finally {
    await source.stop();
  }

  const bDir = tempDataDir();
  b = await startTestNode(await followerFlags(), bDir);
  const token = await issueToken(readFileSync(join(bDir, 'jwt-secret'), 'utf8').trim());
  const aPeerOnB = async () => {
    const res = await fetch(`${b.url}/api/core/v2/peers/${aId}`, { headers: { Authorization: `Bearer ${token}` } });
    return res.status === 200 ? ((await res.json()) as RestJson) : undefined;
  };
  // The follower has milestone 1 (the answer to its first "latest milestone" request) and
  // a stream with the coordinator; it does not have the chain.
  await poll(
    'the follower to confirm milestone 1',
    async () =>
      (await getJson(b.url, '/api/core/v2/info')).body.status.confirmedMilestone.index >= 1 ? true : undefined,
    30_000,
    100,
  );
  await poll(
    'a stream with a heartbeat',
    async () => ((await aPeerOnB())?.gossip?.heartbeat ? true : undefined),
    30_000,
    100,
  );
  for (const block of chain) expect((await fetch(`${b.url}/api/core/v2/blocks/${block.blockId}`)).status).toBe(404);
  const requestsBefore = (await aPeerOnB()).gossip.metrics.sentBlockRequests as number;

  const child = await minedBlock([p3.blockId, p1.blockId], tagged('child'));
  expect(await submit(a.url, child.bytes)).toBe(child.blockId);

  for (const block of [child, ...chain]) {
    const metadata = await poll(
      `${block.blockId} solid on the follower`,
      async () => {
        const { status, body } = await getJson(b.url, `/api/core/v2/blocks/${block.blockId}/metadata`);
        return status === 200 && body.isSolid ? body : undefined;
      },
      30_000,
      100,
    );
    expect(metadata.parents).toEqual(
      (await getJson(a.url, `/api/core/v2/blocks/${block.blockId}/metadata`)).body.parents,
    );
    const bytes = Buffer.from(
      await (
        await fetch(`${b.url}/api/core/v2/blocks/${block.blockId}`, { headers: { Accept: SERIALIZER } })
      ).arrayBuffer(),
    );
    expect(bytes.equals(block.bytes)).toBe(true);
  }
  // The parents came because the follower asked for them, one level at a time.
  const peer = await aPeerOnB();
  expect(peer.gossip.metrics.sentBlockRequests - requestsBefore).toBeGreaterThanOrEqual(3);
  expect(peer.gossip.metrics.newBlocks).toBeGreaterThanOrEqual(4);
}, 90_000);
