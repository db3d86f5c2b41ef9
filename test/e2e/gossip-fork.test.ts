// A follower whose ledger differs from its coordinator's (another genesis) follows it while
// milestones change nothing, and halts at the first milestone whose white-flag roots it
// cannot reproduce (gossip.md §6.1, D42/D43): it stops confirming and reports unhealthy,
// while the coordinator goes on.

import { afterAll, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { freePort, tempDataDir } from './node-harness';
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
const { loadConfig } = require(join(root, 'dist/config/load.js')) as typeof import('../../src/config/load');
const { startNode } = require(join(root, 'dist/node.js')) as typeof import('../../src/node');

const K = testKey('gossip fork coordinator');
const silent = pino({ level: 'silent' });
const nodes: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const n of nodes.reverse()) await n.stop();
});

const confirmed = async (url: string) =>
  (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index as number;
const base = (dataDir: string) => [
  '--port',
  '0',
  '--bind',
  '127.0.0.1',
  '--data-dir',
  dataDir,
  '--min-pow-score',
  '5',
  '--no-dashboard',
  '--gossip',
];

it('a follower with another ledger halts at the first milestone it cannot reproduce', async () => {
  const coordinatorP2p = `/ip4/127.0.0.1/tcp/${await freePort()}`;
  const coordinator = await startNode(
    loadConfig(
      [...base(tempDataDir()), '--milestone-interval', '1', '--coordinator-key', K.seed, '--p2p-bind', coordinatorP2p],
      {},
    ),
    { logger: silent },
  );
  nodes.push(coordinator);
  const other = testKey('gossip fork other genesis');
  const follower = await startNode(
    loadConfig(
      [
        ...base(tempDataDir()),
        '--no-coordinator',
        '--coordinator-public-key',
        K.publicKey,
        '--genesis-address',
        other.address,
        '--p2p-bind',
        `/ip4/127.0.0.1/tcp/${await freePort()}`,
        '--peer',
        `${coordinatorP2p}/p2p/${coordinator.gossip!.peerId}`,
      ],
      {},
    ),
    { logger: silent },
  );
  nodes.push(follower);

  // Milestones without transactions have the same roots on both ledgers: it follows.
  const start = await confirmed(coordinator.url);
  await poll(
    'the follower to follow',
    async () => ((await confirmed(follower.url)) >= start + 1 ? true : undefined),
    30_000,
    200,
  );
  await poll(
    'the follower to be healthy',
    async () => ((await fetch(`${follower.url}/health`)).status === 200 ? true : undefined),
    15_000,
    200,
  );

  // A transfer of the coordinator's genesis output: its input does not exist on the
  // follower's ledger, so the milestone's applied root differs there.
  const genesis = await genesisSpendable(coordinator.url);
  const transfer = buildTransfer(
    await networkIdOf(coordinator.url),
    [genesis],
    [{ to: other, amount: BigInt(genesis.output.amount) }],
  );
  await submitPayload(coordinator.url, transfer.payload);
  const included = await waitForInclusion(coordinator.url, transfer.transactionId, 30_000);
  const forkIndex = included.referencedByMilestoneIndex as number;

  await poll(
    'the follower to report unhealthy',
    async () => ((await fetch(`${follower.url}/health`)).status === 503 ? true : undefined),
    30_000,
    200,
  );
  expect((await getJson(follower.url, '/api/core/v2/info')).body.status.isHealthy).toBe(false);
  const halted = await confirmed(follower.url);
  expect(halted).toBe(forkIndex - 1);
  // The coordinator goes on, and its next milestones reach the follower (blocks it receives
  // from the coordinator: nothing else is submitted), which confirms none of them.
  const received = async () =>
    (await follower.gossip!.peer(coordinator.gossip!.peerId))?.gossip?.metrics.receivedBlocks ?? 0;
  const receivedAtHalt = await received();
  await poll(
    'the coordinator to go on',
    async () => ((await confirmed(coordinator.url)) > forkIndex + 1 ? true : undefined),
    30_000,
    200,
  );
  await poll(
    'two more milestone blocks at the follower',
    async () => ((await received()) >= receivedAtHalt + 2 ? true : undefined),
    30_000,
    200,
  );
  expect(await confirmed(follower.url)).toBe(halted);
  expect(
    (await getJson(follower.url, `/api/core/v2/transactions/${transfer.transactionId}/included-block`)).status,
  ).toBe(404);
}, 90_000);
