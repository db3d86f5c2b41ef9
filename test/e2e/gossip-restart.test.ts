// A follower killed with SIGKILL restarts on its data directory and catches up (issue 12):
// two real processes on loopback, a coordinator and a follower peered with each other.
// Blocks and transfers are submitted to both; the follower is killed right after its API
// acknowledged some of them; the coordinator goes on confirming blocks submitted meanwhile;
// the restarted follower warp-syncs and ends with the same milestones, ledger changes and
// block metadata, and nothing either node acknowledged is lost.

import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exited, freePortRange, spawnNode, tempDataDir, type ChildNode } from './node-harness';
import {
  SERIALIZER,
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  submitPayload,
  testKey,
  waitForInclusion,
  waitForReferenced,
  type Spendable,
  waitForHealth,
} from './transactions';

const root = resolve(__dirname, '../..');
const native = (require(join(root, 'dist/native.js')) as typeof import('../../src/native')).default;

const K = testKey('gossip restart coordinator');
const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('restart').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});

let coordinator: ChildNode;
let follower: ChildNode | undefined;
let followerFlags: string[];
let followerDir: string;

async function confirmedIndex(url: string): Promise<number> {
  return (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index as number;
}

function reach(url: string, index: number, timeoutMs = 60_000): Promise<true> {
  return poll(
    `${url} to confirm milestone ${index}`,
    async () => ((await confirmedIndex(url)) >= index ? true : undefined),
    timeoutMs,
    200,
  );
}

async function stop(node: ChildNode | undefined): Promise<void> {
  if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return;
  node.child.kill('SIGTERM');
  await exited(node.child);
}

beforeAll(async () => {
  const coordinatorDir = tempDataDir();
  followerDir = tempDataDir();
  // Identities made up front (persisted where each node reads its own) to peer the two.
  const [coordinatorId, followerId] = [coordinatorDir, followerDir].map(
    (dir) => native.identityPeerId(join(dir, 'p2p-identity.key'), undefined) as string,
  );
  // Kept across the follower's restart: outside the ephemeral range (freePortRange).
  const [coordinatorP2p, followerP2p] = [
    `/ip4/127.0.0.1/tcp/${await freePortRange(1)}`,
    `/ip4/127.0.0.1/tcp/${await freePortRange(1)}`,
  ];
  coordinator = await spawnNode(
    [
      '--no-dashboard',
      '--gossip',
      '--p2p-bind',
      coordinatorP2p,
      '--peer',
      `${followerP2p}/p2p/${followerId}`,
      '--milestone-interval',
      '1',
      '--coordinator-key',
      K.seed,
    ],
    coordinatorDir,
  );
  followerFlags = [
    '--no-dashboard',
    '--gossip',
    '--p2p-bind',
    followerP2p,
    '--peer',
    `${coordinatorP2p}/p2p/${coordinatorId}`,
    '--no-coordinator',
    '--coordinator-public-key',
    K.publicKey,
  ];
  follower = await spawnNode(followerFlags, followerDir);
}, 90_000);

afterAll(async () => {
  await Promise.all([stop(follower), stop(coordinator)]);
});

it('restarts after SIGKILL and reaches the same milestones, ledger and metadata; nothing acknowledged is lost', async () => {
  const a = coordinator.url;
  let b = follower!.url;
  await reach(b, 2);
  await waitForHealth(b);

  // Two outputs to spend later, one on each side of the kill.
  const networkId = await networkIdOf(a);
  const genesis = await genesisSpendable(a);
  const [before, during, after] = [testKey('restart before'), testKey('restart during'), testKey('restart after')];
  const split = buildTransfer(
    networkId,
    [genesis],
    [
      { to: before, amount: 1_000_000n },
      { to: during, amount: BigInt(genesis.output.amount) - 1_000_000n },
    ],
  );
  await submitPayload(a, split.payload);
  await waitForInclusion(b, split.transactionId, 30_000);
  const spend = (input: Spendable, to: typeof after) =>
    buildTransfer(networkId, [input], [{ to, amount: BigInt(input.output.amount) }]);

  // Acknowledged by the follower (and the coordinator) just before the kill.
  const acknowledged: string[] = [];
  const byFollower: string[] = [];
  const spentBefore = spend(split.outputs[0], after);
  for (let i = 0; i < 5; i++) {
    acknowledged.push(await submitPayload(a, tagged(`a before ${i}`)));
    byFollower.push(await submitPayload(b, tagged(`b before ${i}`)));
  }
  byFollower.push(await submitPayload(b, spentBefore.payload));
  acknowledged.push(...byFollower);
  follower!.child.kill('SIGKILL');
  await exited(follower!.child);

  // The coordinator goes on: blocks, a transfer, several milestones.
  const spentDuring = spend(split.outputs[1], after);
  acknowledged.push(await submitPayload(a, spentDuring.payload));
  for (let i = 0; i < 5; i++) acknowledged.push(await submitPayload(a, tagged(`a during ${i}`)));
  await waitForInclusion(a, spentDuring.transactionId, 30_000);
  const atRestart = (await confirmedIndex(a)) + 3;
  await reach(a, atRestart);

  follower = await spawnNode(followerFlags, followerDir);
  b = follower.url;
  // Nothing the follower acknowledged is gone from its store.
  for (const id of byFollower) expect((await fetch(`${b}/api/core/v2/blocks/${id}`)).status, id).toBe(200);
  await reach(b, atRestart);
  await waitForHealth(b);
  acknowledged.push(await submitPayload(b, tagged('b after restart')));

  // Every acknowledged block is referenced, with the same metadata on both nodes.
  for (const id of acknowledged) {
    const [ma, mb] = await Promise.all([waitForReferenced(a, id, 60_000), waitForReferenced(b, id, 60_000)]);
    expect({ ...mb, ledgerIndex: undefined }, id).toEqual({ ...ma, ledgerIndex: undefined });
  }
  for (const transfer of [spentBefore, spentDuring]) {
    const [ia, ib] = await Promise.all([
      waitForInclusion(a, transfer.transactionId, 30_000),
      waitForInclusion(b, transfer.transactionId, 30_000),
    ]);
    expect(ia.ledgerInclusionState).toBe('included');
    expect({ ...ib, ledgerIndex: undefined }).toEqual({ ...ia, ledgerIndex: undefined });
    const raw = await Promise.all(
      [a, b].map(async (u) =>
        Buffer.from(
          await (
            await fetch(`${u}/api/core/v2/transactions/${transfer.transactionId}/included-block`, {
              headers: { Accept: SERIALIZER },
            })
          ).arrayBuffer(),
        ),
      ),
    );
    expect(raw[1].equals(raw[0])).toBe(true);
  }

  // The same milestones and ledger changes, index by index.
  const last = await confirmedIndex(a);
  await reach(b, last);
  for (let index = 1; index <= last; index++) {
    for (const path of [
      `/api/core/v2/milestones/by-index/${index}`,
      `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
    ]) {
      const [ra, rb] = await Promise.all([getJson(a, path), getJson(b, path)]);
      expect(ra.status, path).toBe(200);
      expect(rb.body, path).toEqual(ra.body);
    }
  }
  for (const output of [...spentBefore.outputs, ...spentDuring.outputs]) {
    const [oa, ob] = await Promise.all([
      getJson(a, `/api/core/v2/outputs/${output.outputId}`),
      getJson(b, `/api/core/v2/outputs/${output.outputId}`),
    ]);
    expect(oa.body.metadata.isSpent).toBe(false);
    expect({ ...ob.body.metadata, ledgerIndex: undefined }).toEqual({ ...oa.body.metadata, ledgerIndex: undefined });
  }
  await waitForHealth(b);
}, 240_000);
