// Gossip with HTTP on several event loops (docs/performance.md, docs/gossip.md): node A
// (coordinator, four HTTP loops) and its follower B, real processes peered on loopback.
// Blocks submitted to A over many connections — the kernel deals them to every loop — are
// all broadcast to B as they are stored (none of them has to be asked for), and every
// loop answers the peer routes and /info from the one gossip service of the process.

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exited, freePort, issueToken, spawnNode, tempDataDir, type ChildNode } from './node-harness';
import { getJson, poll, testKey } from './transactions';

const native = (require(join(__dirname, '../../dist/native.js')) as typeof import('../../src/native')).default;

const K = testKey('gossip http workers coordinator');
const BLOCKS = 120;
const SECRET = 'gossip http workers';
let a: ChildNode;
let b: ChildNode;
let peerB: string;
let token: string;

/** Each request on a connection of its own, so the kernel spreads them over the loops. */
const fresh = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Connection: 'close' } });

interface PeerView {
  id: string;
  connected: boolean;
  gossip?: { heartbeat: unknown; metrics: { sentBlocks: number; receivedBlockRequests: number } };
}

async function peerOnA(): Promise<PeerView | undefined> {
  const res = await fresh(`${a.url}/api/core/v2/peers/${peerB}`, { headers: { Authorization: `Bearer ${token}` } });
  return res.status === 200 ? ((await res.json()) as PeerView) : undefined;
}

beforeAll(async () => {
  const [dirA, dirB] = [tempDataDir(), tempDataDir()];
  const [p2pA, p2pB] = [await freePort(), await freePort()];
  const peerA = native.identityPeerId(join(dirA, 'p2p-identity.key'), undefined) as string;
  peerB = native.identityPeerId(join(dirB, 'p2p-identity.key'), undefined) as string;
  const common = ['--gossip', '--jwt-secret', SECRET, '--no-dashboard', '--log-level', 'warn'];
  a = await spawnNode(
    [
      ...common,
      '--rest-workers',
      '4',
      '--milestone-interval',
      '1',
      '--coordinator-key',
      K.seed,
      '--p2p-bind',
      `/ip4/127.0.0.1/tcp/${p2pA}`,
      '--peer',
      `/ip4/127.0.0.1/tcp/${p2pB}/p2p/${peerB}`,
    ],
    dirA,
  );
  b = await spawnNode(
    [
      ...common,
      '--rest-workers',
      '1',
      '--no-coordinator',
      '--coordinator-public-key',
      K.publicKey,
      '--p2p-bind',
      `/ip4/127.0.0.1/tcp/${p2pB}`,
      '--peer',
      `/ip4/127.0.0.1/tcp/${p2pA}/p2p/${peerA}`,
    ],
    dirB,
  );
  token = await issueToken(SECRET);
}, 90_000);

afterAll(async () => {
  for (const node of [a, b]) {
    if (!node) continue;
    node.child.kill('SIGTERM');
    await exited(node.child);
  }
});

it('every HTTP loop answers from the one gossip service of the process', async () => {
  // B has a stream with A and has followed A's milestones.
  await poll(
    'a gossip stream between A and B',
    async () => ((await peerOnA())?.gossip?.heartbeat ? true : undefined),
    30_000,
    200,
  );
  const latest = async (url: string) =>
    (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index as number;
  const target = (await latest(a.url)) + 1;
  await poll('B to follow A', async () => ((await latest(b.url)) >= target ? true : undefined), 30_000, 200);
  // Forty requests on fresh connections reach all four loops: each one knows the peer.
  const views = await Promise.all(Array.from({ length: 40 }, () => peerOnA()));
  expect(views.every((v) => v?.id === peerB && v.connected)).toBe(true);
  const infos = await Promise.all(
    Array.from({ length: 40 }, async () => (await (await fresh(`${a.url}/api/core/v2/info`)).json()).status.isHealthy),
  );
  expect(infos).toEqual(Array(40).fill(true));
}, 60_000);

it('broadcasts the blocks stored on every loop to the peer, unasked', async () => {
  const before = (await peerOnA())!.gossip!.metrics;
  const tag = '0x' + Buffer.from('workers').toString('hex');
  const ids: string[] = [];
  // Ten at a time; the node selects parents and mines (minPowScore 5).
  for (let i = 0; i < BLOCKS; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, async (_, k) => {
        const body = JSON.stringify({
          protocolVersion: 2,
          payload: { type: 5, tag, data: '0x' + (i + k).toString(16).padStart(4, '0') },
        });
        const res = await fresh(`${a.url}/api/core/v2/blocks`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { blockId: string }).blockId;
      }),
    );
    ids.push(...batch);
  }
  const missing = new Set(ids);
  await poll(
    `${BLOCKS} blocks on B`,
    async () => {
      for (const id of [...missing])
        if ((await fetch(`${b.url}/api/core/v2/blocks/${id}/metadata`)).status === 200) missing.delete(id);
      return missing.size === 0 ? true : undefined;
    },
    30_000,
    200,
  );
  // Broadcast, not fetched: A sent every block unasked. B may still ask for a few: with two
  // loops storing at once, a child's broadcast can overtake its parent's, and B asks for the
  // parent before the parent's own broadcast arrives (how often depends on the machine's
  // load). Each request is answered with one block, so what A sent beyond the requests
  // it answered went out unasked.
  const after = (await peerOnA())!.gossip!.metrics;
  const requests = after.receivedBlockRequests - before.receivedBlockRequests;
  expect(after.sentBlocks - before.sentBlocks - requests).toBeGreaterThanOrEqual(BLOCKS);
}, 90_000);
