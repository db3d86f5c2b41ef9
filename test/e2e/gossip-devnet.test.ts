// A network over gossip (gossip.md, D40–D49): a 3-node devnet in this process (node1 runs
// the coordinator, node2 and node3 follow it), peered on loopback. Blocks submitted to a
// follower are gossiped, confirmed by the coordinator, and every node answers the same;
// followers reach the same milestone ids and ledger; a follower started late warp-syncs;
// a peer that sends an invalid block is dropped and removed; the peer routes answer as
// Hornet does; the devnet stops cleanly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { core, freePort, freePortRange, issueToken, tempDataDir } from './node-harness';
import {
  SERIALIZER,
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  type RestJson,
  submitPayload,
  testKey,
  waitForInclusion,
  waitForReferenced,
  waitForHealth,
} from './transactions';

const root = resolve(__dirname, '../..');
const { loadConfig } = require(join(root, 'dist/config/load.js')) as typeof import('../../src/config/load');
const { startDevnet, devnetConfigs } = require(
  join(root, 'dist/commands/devnet.js'),
) as typeof import('../../src/commands/devnet');
const { startNode } = require(join(root, 'dist/node.js')) as typeof import('../../src/node');

interface DevnetNode {
  name: string;
  node: { url: string; stop(): Promise<void> };
  peerId: string;
  p2p: string;
}

const silent = pino({ level: 'silent' });
let baseDir: string;
let p2pPort: number;
let devnet: { nodes: DevnetNode[]; stop(): Promise<void> };
let urls: string[];
const late: { stop(): Promise<void> }[] = [];

function devnetFlags(dataDir: string): string[] {
  return [
    '--port',
    '0',
    '--bind',
    '127.0.0.1',
    '--data-dir',
    dataDir,
    '--min-pow-score',
    '5',
    '--milestone-interval',
    '1',
    '--no-dashboard',
  ];
}

async function jwtFor(dataDir: string): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
  return issueToken(secret);
}

function authed(token: string) {
  return { Authorization: `Bearer ${token}` };
}

async function milestoneIndex(url: string): Promise<number> {
  const info = (await getJson(url, '/api/core/v2/info')).body;
  return info.status.confirmedMilestone.index as number;
}

async function milestoneId(url: string, index: number): Promise<string | undefined> {
  const res = await fetch(`${url}/api/core/v2/milestones/by-index/${index}`);
  if (res.status !== 200) return undefined;
  // The milestone id is the hash of the payload's essence; the payload's JSON identifies it
  // as well and is what every node must agree on byte for byte.
  return JSON.stringify(await res.json());
}

/** Wait until `url` has confirmed milestone `index`. */
function reach(url: string, index: number, timeoutMs = 30_000): Promise<number> {
  return poll(
    `${url} to confirm milestone ${index}`,
    async () => ((await milestoneIndex(url)) >= index ? index : undefined),
    timeoutMs,
    200,
  );
}

beforeAll(async () => {
  baseDir = tempDataDir();
  p2pPort = await freePortRange(3);
  const options = { nodes: 3, p2pPort, config: loadConfig(devnetFlags(baseDir), {}) };
  devnet = await startDevnet(options, silent);
  urls = devnet.nodes.map((n) => n.node.url);
}, 60_000);

afterAll(async () => {
  for (const node of late) await node.stop();
  await devnet?.stop();
});

describe('devnet', () => {
  it('peers every node with the others on loopback, each with its own identity', async () => {
    expect(devnet.nodes.map((n) => n.name)).toEqual(['node1', 'node2', 'node3']);
    expect(new Set(devnet.nodes.map((n) => n.peerId)).size).toBe(3);
    expect(devnet.nodes.map((n) => n.p2p)).toEqual([0, 1, 2].map((i) => `/ip4/127.0.0.1/tcp/${p2pPort + i}`));
    // Every node gets a gossip stream with both others.
    for (const [i, { name }] of devnet.nodes.entries()) {
      const token = await jwtFor(join(baseDir, name));
      await poll(
        `${name} to hold two gossip streams`,
        async () => {
          const peers = (await (
            await fetch(`${urls[i]}/api/core/v2/peers`, { headers: authed(token) })
          ).json()) as RestJson[];
          return peers.length === 2 && peers.every((p) => p.connected && p.gossip?.heartbeat) ? peers : undefined;
        },
        30_000,
        200,
      );
    }
  });

  it('followers reach the coordinator’s milestones, with the same ids, and are healthy', async () => {
    const target = (await milestoneIndex(urls[0])) + 2;
    for (const url of urls) await reach(url, target);
    for (let index = 1; index <= target; index++) {
      const ids = await Promise.all(urls.map((u) => milestoneId(u, index)));
      expect(new Set(ids).size, `milestone ${index}: ${ids.join(', ')}`).toBe(1);
      expect(ids[0]).toBeDefined();
    }
    // And by id: the coordinator's milestone id of each index is known to every follower.
    const last = (await getJson(urls[0], `/api/core/v2/info`)).body.status.confirmedMilestone;
    for (const url of urls)
      expect((await getJson(url, `/api/core/v2/milestones/${last.milestoneId}`)).status).toBe(200);
    for (const url of urls) {
      await waitForHealth(url, 200, 15_000);
      const info = (await getJson(url, '/api/core/v2/info')).body;
      expect(info.status.isHealthy).toBe(true);
    }
  });

  it('confirms a block submitted to a follower, and every node answers the same for it', async () => {
    const blockId = await submitPayload(urls[1], {
      type: 5,
      tag: '0x' + Buffer.from('gossip').toString('hex'),
      data: '0x01',
    });
    const metadata = await Promise.all(urls.map((u) => waitForReferenced(u, blockId, 30_000)));
    expect(new Set(metadata.map((m) => m.referencedByMilestoneIndex)).size).toBe(1);
    const bytes = await Promise.all(
      urls.map(async (u) =>
        Buffer.from(
          await (await fetch(`${u}/api/core/v2/blocks/${blockId}`, { headers: { Accept: SERIALIZER } })).arrayBuffer(),
        ),
      ),
    );
    expect(bytes[1].equals(bytes[0]) && bytes[2].equals(bytes[0])).toBe(true);
  });

  it("reports blocks per second over gossip and the peer id in Hornet's dashboard-metrics", async () => {
    const rates = async (url: string) => (await getJson(url, '/api/dashboard-metrics/v1/gossip')).body;
    expect(Object.keys(await rates(urls[1]))).toEqual(['incoming', 'new', 'outgoing']);
    // Blocks keep coming at the follower until a one-second window on each side counted some:
    // the follower sends them out, the coordinator receives them as new.
    let submitting = true;
    const load = (async () => {
      for (let i = 0; submitting; i++)
        await submitPayload(urls[1], { type: 5, tag: '0x7261746573', data: `0x${i.toString(16).padStart(4, '0')}` });
    })();
    try {
      await poll(
        'a second with blocks sent by the follower',
        async () => ((await rates(urls[1])).outgoing > 0 ? true : undefined),
        30_000,
        100,
      );
      await poll(
        'a second with new blocks at the coordinator',
        async () => {
          const r = await rates(urls[0]);
          return r.new > 0 && r.incoming >= r.new ? true : undefined;
        },
        30_000,
        100,
      );
    } finally {
      submitting = false;
      await load;
    }
    const info = (await getJson(urls[0], '/api/dashboard-metrics/v1/info')).body;
    expect(info.nodeId).toBe(devnet.nodes[0].peerId);
  });

  it('includes a transfer submitted to the other follower; included-block is the same on all nodes', async () => {
    const networkId = await networkIdOf(urls[2]);
    const genesis = await genesisSpendable(urls[2]);
    const to = testKey('gossip transfer');
    const transfer = buildTransfer(
      networkId,
      [genesis],
      [
        { to, amount: 1_000_000n },
        { to: genesis.key, amount: BigInt(genesis.output.amount) - 1_000_000n },
      ],
    );
    await submitPayload(urls[2], transfer.payload);
    const included = await Promise.all(urls.map((u) => waitForInclusion(u, transfer.transactionId, 30_000)));
    expect(new Set(included.map((m) => JSON.stringify({ ...m, ledgerIndex: undefined }))).size).toBe(1);
    expect(included[0].ledgerInclusionState).toBe('included');
    const raw = await Promise.all(
      urls.map(async (u) =>
        Buffer.from(
          await (
            await fetch(`${u}/api/core/v2/transactions/${transfer.transactionId}/included-block`, {
              headers: { Accept: SERIALIZER },
            })
          ).arrayBuffer(),
        ),
      ),
    );
    expect(raw[1].equals(raw[0]) && raw[2].equals(raw[0])).toBe(true);
    // The same ledger: the new output is unspent everywhere, the genesis output spent.
    for (const url of urls) {
      const created = await poll(`${url} output`, async () => {
        const { status, body } = await getJson(url, `/api/core/v2/outputs/${transfer.outputs[0].outputId}`);
        return status === 200 ? body : undefined;
      });
      expect(created.metadata.isSpent).toBe(false);
      expect((await getJson(url, `/api/core/v2/outputs/${genesis.outputId}`)).body.metadata.isSpent).toBe(true);
    }
  });

  it('a follower started late warp-syncs to the same milestones', async () => {
    const target = await milestoneIndex(urls[0]);
    const dataDir = join(baseDir, 'late');
    const [coordinator] = devnetConfigs({ nodes: 1, p2pPort, config: loadConfig(devnetFlags(baseDir), {}) });
    const publicKey = core.publicKey as (seed: string) => string;
    const seeds: string[] = coordinator.config.coordinator.privateKeys;
    const config = loadConfig(
      [
        ...devnetFlags(dataDir),
        '--gossip',
        '--no-coordinator',
        '--p2p-bind',
        `/ip4/127.0.0.1/tcp/${await freePort()}`,
        '--peer',
        `${devnet.nodes[0].p2p}/p2p/${devnet.nodes[0].peerId}`,
        ...seeds.flatMap((s) => ['--coordinator-public-key', publicKey(s)]),
      ],
      {},
    );
    const node = await startNode(config, { logger: silent });
    late.push(node);
    await reach(node.url, target, 60_000);
    for (let index = 1; index <= target; index++) {
      expect(await milestoneId(node.url, index)).toBe(await milestoneId(urls[0], index));
    }
  }, 90_000);

  it('drops and removes a peer that sends an invalid block', async () => {
    // A node of the same network with a lower proof-of-work minimum: what it accepts on its
    // API, the others find invalid (score below theirs), so they drop it (D49).
    const dataDir = tempDataDir();
    const seeds: string[] = devnetConfigs({ nodes: 1, p2pPort, config: loadConfig(devnetFlags(baseDir), {}) })[0].config
      .coordinator.privateKeys;
    const publicKey = core.publicKey as (seed: string) => string;
    const flags = [
      '--port',
      '0',
      '--bind',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--min-pow-score',
      '0',
      '--no-pow',
      '--no-dashboard',
    ];
    const config = loadConfig(
      [
        ...flags,
        '--gossip',
        '--no-coordinator',
        '--p2p-bind',
        `/ip4/127.0.0.1/tcp/${await freePort()}`,
        '--peer',
        `${devnet.nodes[0].p2p}/p2p/${devnet.nodes[0].peerId}`,
        ...seeds.flatMap((s) => ['--coordinator-public-key', publicKey(s)]),
      ],
      {},
    );
    const evil = await startNode(config, { logger: silent });
    late.push(evil);
    const evilId = evil.gossip!.peerId;
    const token = await jwtFor(join(baseDir, 'node1'));
    const peerOnNode1 = async () => {
      const res = await fetch(`${urls[0]}/api/core/v2/peers/${evilId}`, { headers: authed(token) });
      return res.status === 200 ? await res.json() : undefined;
    };
    await poll(
      'the low-PoW node to sync',
      async () => ((await milestoneIndex(evil.url)) >= (await milestoneIndex(urls[0])) - 1 ? true : undefined),
      60_000,
      200,
    );
    await poll(
      'node1 to see the low-PoW node with a stream',
      async () => ((await peerOnNode1())?.gossip ? true : undefined),
      30_000,
      200,
    );
    // A node selects tips only while healthy (D50).
    await waitForHealth(evil.url, 200, 30_000);
    // Nonce 0, parents from its tips: valid for it, invalid for node1.
    const tips = (await getJson(evil.url, '/api/core/v2/tips')).body.tips as string[];
    const res = await fetch(`${evil.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        protocolVersion: 2,
        parents: tips,
        payload: { type: 5, tag: '0x65766966', data: '0x' },
        nonce: '0',
      }),
    });
    expect(res.status).toBe(201);
    const { blockId } = (await res.json()) as { blockId: string };
    await poll(
      'node1 to drop the sender of the invalid block',
      async () => ((await peerOnNode1()) === undefined ? true : undefined),
      30_000,
      200,
    );
    expect((await fetch(`${urls[0]}/api/core/v2/blocks/${blockId}`)).status).toBe(404);
    const metrics = await (await fetch(`${urls[0]}/metrics`, { headers: authed(token) })).text();
    expect(metrics).toMatch(/ledger_node_gossip_messages\{counter="invalidBlocks"\} [1-9]/);
  }, 120_000);
});

describe('peer routes (gossip.md §9, D48)', () => {
  let token: string;
  let url: string;
  beforeAll(async () => {
    token = await jwtFor(join(baseDir, 'node1'));
    url = urls[0];
  });

  it('are protected', async () => {
    expect((await fetch(`${url}/api/core/v2/peers`)).status).toBe(403);
    expect((await fetch(`${url}/api/core/v2/peers/${devnet.nodes[1].peerId}`)).status).toBe(403);
    expect((await fetch(`${url}/api/core/v2/peers/${devnet.nodes[1].peerId}`, { method: 'DELETE' })).status).toBe(403);
  });

  it('list the peers in Hornet’s shape', async () => {
    const peers = (await (await fetch(`${url}/api/core/v2/peers`, { headers: authed(token) })).json()) as RestJson[];
    const node2 = peers.find((p) => p.id === devnet.nodes[1].peerId);
    expect(Object.keys(node2)).toEqual(['id', 'multiAddresses', 'alias', 'relation', 'connected', 'gossip']);
    expect(node2).toMatchObject({ alias: 'node2', relation: 'known', connected: true });
    expect(node2.multiAddresses).toContain(devnet.nodes[1].p2p);
    expect(Object.keys(node2.gossip)).toEqual(['heartbeat', 'metrics']);
    expect(Object.keys(node2.gossip.heartbeat)).toEqual([
      'solidMilestoneIndex',
      'prunedMilestoneIndex',
      'latestMilestoneIndex',
      'connectedPeers',
      'syncedPeers',
    ]);
    expect(Object.keys(node2.gossip.metrics)).toEqual([
      'newBlocks',
      'knownBlocks',
      'receivedBlocks',
      'receivedBlockRequests',
      'receivedMilestoneRequests',
      'receivedHeartbeats',
      'sentBlocks',
      'sentBlockRequests',
      'sentMilestoneRequests',
      'sentHeartbeats',
      'droppedPackets',
    ]);
    expect(node2.gossip.metrics.receivedHeartbeats).toBeGreaterThan(0);
    const one = await fetch(`${url}/api/core/v2/peers/${devnet.nodes[1].peerId}`, { headers: authed(token) });
    expect(one.status).toBe(200);
    expect(((await one.json()) as RestJson).id).toBe(devnet.nodes[1].peerId);
  });

  it('answer 400 for a malformed peer id and 404 for an unknown one', async () => {
    const bad = await fetch(`${url}/api/core/v2/peers/not-a-peer-id`, { headers: authed(token) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as RestJson).error.message).toMatch(/^invalid data provided: /);
    expect(
      (
        await fetch(`${url}/api/core/v2/peers/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY`, {
          headers: authed(token),
        })
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`${url}/api/core/v2/peers/not-a-peer-id`, { method: 'DELETE', headers: authed(token) })).status,
    ).toBe(400);
  });

  it('POST adds a known peer (200, persisted), DELETE removes it (204, also when unknown)', async () => {
    const id = '12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY';
    const post = (body: unknown) =>
      fetch(`${url}/api/core/v2/peers`, {
        method: 'POST',
        headers: { ...authed(token), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const added = await post({ multiAddress: `/ip4/127.0.0.1/tcp/9/p2p/${id}`, alias: 'nobody' });
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({
      id,
      multiAddresses: ['/ip4/127.0.0.1/tcp/9'],
      alias: 'nobody',
      relation: 'known',
      connected: false,
    });
    const { readFileSync } = await import('node:fs');
    const peering = () =>
      JSON.parse(readFileSync(join(baseDir, 'node1', 'peering.json'), 'utf8')).peers as { multiAddress: string }[];
    expect(peering().map((p) => p.multiAddress)).toContain(`/ip4/127.0.0.1/tcp/9/p2p/${id}`);

    expect((await post({ multiAddress: '/ip4/127.0.0.1/tcp/9' })).status).toBe(400);
    expect((await post({ multiAddress: 'garbage' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ multiAddress: `/ip4/127.0.0.1/tcp/1/p2p/${devnet.nodes[0].peerId}` })).status).toBe(404);

    const del = await fetch(`${url}/api/core/v2/peers/${id}`, { method: 'DELETE', headers: authed(token) });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await fetch(`${url}/api/core/v2/peers/${id}`, { headers: authed(token) })).status).toBe(404);
    expect(peering().map((p) => p.multiAddress)).not.toContain(`/ip4/127.0.0.1/tcp/9/p2p/${id}`);
    expect((await fetch(`${url}/api/core/v2/peers/${id}`, { method: 'DELETE', headers: authed(token) })).status).toBe(
      204,
    );
  });

  it('gossip figures are in /metrics', async () => {
    const text = await (await fetch(`${url}/metrics`, { headers: authed(token) })).text();
    expect(text).toMatch(/ledger_node_gossip_peers\{state="streaming"\} [1-9]/);
    expect(text).toMatch(/ledger_node_gossip_messages\{counter="sentHeartbeats"\} [1-9]/);
  });
});
