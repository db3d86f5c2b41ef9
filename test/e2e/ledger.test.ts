// The UTXO ledger end to end on one node with a milestone every second: inclusion of a
// genesis spend in JSON and raw form, chains of transfers across milestones (and inside
// one), double spends, each semantic conflict reason the API can show, and the supply
// invariant over every output the test created.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, startTestNode, type TestNode } from './node-harness';
import {
  GENESIS_OUTPUT_ID,
  IOTA_SERIALIZER,
  SERIALIZER,
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  submit,
  submitPayload,
  testKey,
  transferAndWait,
  unspentSum,
  waitForInclusion,
  waitForReferenced,
  type Spendable,
  type Transfer,
} from './transactions';

const AMOUNT = 1_000_000_000n;
const FAR_FUTURE = 4_000_000_000; // 2096
let node: TestNode;
let url: string;
let networkId: string;
let supply: bigint;
/** Outputs of the fan-out, one per sub-test. */
let pool: Spendable[] = [];
/** Every output ID this file has seen created or tried to create (for the invariant). */
const outputIds = new Set<string>([GENESIS_OUTPUT_ID]);

const transfer = (
  inputs: Spendable[],
  to: ReturnType<typeof testKey>,
  options: { amount?: bigint; timelock?: number } = {},
) => {
  const amount = options.amount ?? inputs.reduce((s, i) => s + BigInt(i.output.amount), 0n);
  const t = buildTransfer(networkId, inputs, [{ to, amount, timelock: options.timelock }]);
  for (const o of t.outputs) outputIds.add(o.outputId);
  return t;
};
const track = (t: Transfer) => {
  for (const o of t.outputs) outputIds.add(o.outputId);
  return t;
};
const milestone = async (index: number) => (await getJson(url, `/api/core/v2/milestones/by-index/${index}`)).body;
const outputMetadata = async (id: string) => (await getJson(url, `/api/core/v2/outputs/${id}/metadata`)).body;
const includedStatus = async (transactionId: string) =>
  (await fetch(`${url}/api/core/v2/transactions/${transactionId}/included-block`)).status;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
  url = node.url;
  networkId = await networkIdOf(url);
  supply = BigInt((await getJson(url, '/api/core/v2/info')).body.protocol.tokenSupply);
});
afterAll(async () => {
  await node?.stop();
});

describe.sequential('ledger', () => {
  it('includes a genesis spend and serves its block as JSON and raw bytes', async () => {
    const genesis = await genesisSpendable(url);
    expect(genesis.output.amount).toBe(supply.toString());
    const targets = Array.from({ length: 8 }, (_, i) => ({ to: testKey(`pool ${i}`), amount: AMOUNT }));
    const fanOut = track(
      buildTransfer(networkId, [genesis], [...targets, { to: genesisKey, amount: supply - 8n * AMOUNT }]),
    );
    const blockId = await submitPayload(url, fanOut.payload);

    const metadata = await waitForInclusion(url, fanOut.transactionId);
    expect(metadata.blockId).toBe(blockId);
    expect(metadata.isSolid).toBe(true);
    expect(metadata.ledgerInclusionState).toBe('included');
    expect(metadata.conflictReason).toBeUndefined();
    expect(metadata.referencedByMilestoneIndex).toBeGreaterThanOrEqual(2);
    expect(Number.isInteger(metadata.whiteFlagIndex) && metadata.whiteFlagIndex >= 0).toBe(true);
    expect(await (await fetch(`${url}/api/core/v2/blocks/${blockId}/metadata`)).json()).toEqual(metadata);

    // JSON: exactly the submitted block.
    const json = await (await fetch(`${url}/api/core/v2/transactions/${fanOut.transactionId}/included-block`)).json();
    expect(core.blockId(json)).toBe(blockId);
    expect(core.transactionId(json)).toBe(fanOut.transactionId);
    expect(json).toEqual(await (await fetch(`${url}/api/core/v2/blocks/${blockId}`)).json());
    // Raw: the stored bytes, under either serializer name.
    const stored = Buffer.from(
      await (await fetch(`${url}/api/core/v2/blocks/${blockId}`, { headers: { Accept: SERIALIZER } })).arrayBuffer(),
    );
    for (const type of [SERIALIZER, IOTA_SERIALIZER]) {
      const res = await fetch(`${url}/api/core/v2/transactions/${fanOut.transactionId}/included-block`, {
        headers: { Accept: type },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.equals(stored)).toBe(true);
      expect(core.blockId(bytes)).toBe(blockId);
    }

    const ms = metadata.referencedByMilestoneIndex;
    const timestamp = (await milestone(ms)).timestamp;
    expect(await outputMetadata(GENESIS_OUTPUT_ID)).toMatchObject({
      isSpent: true,
      transactionIdSpent: fanOut.transactionId,
      milestoneIndexSpent: ms,
      milestoneTimestampSpent: timestamp,
      milestoneIndexBooked: 0,
    });
    const changes = (await getJson(url, `/api/core/v2/milestones/by-index/${ms}/utxo-changes`)).body;
    expect(changes.index).toBe(ms);
    expect(changes.consumedOutputs).toEqual([GENESIS_OUTPUT_ID]);
    expect([...changes.createdOutputs].sort()).toEqual(fanOut.outputs.map((o) => o.outputId).sort());
    pool = fanOut.outputs.slice(0, 8);
  });

  it('books a chain of transfers over several milestones', async () => {
    let current = pool[0];
    let previousMilestone = 0;
    for (let hop = 0; hop < 4; hop++) {
      const next = transfer([current], testKey(`chain ${hop}`));
      const metadata = await transferAndWait(url, next);
      const ms = metadata.referencedByMilestoneIndex;
      expect(ms).toBeGreaterThan(previousMilestone);
      previousMilestone = ms;
      const { timestamp } = await milestone(ms);

      const created = (await getJson(url, `/api/core/v2/outputs/${next.outputs[0].outputId}`)).body;
      expect(created.output).toEqual(next.outputs[0].output);
      expect(created.metadata).toMatchObject({
        blockId: metadata.blockId,
        transactionId: next.transactionId,
        outputIndex: 0,
        isSpent: false,
        milestoneIndexBooked: ms,
        milestoneTimestampBooked: timestamp,
      });
      expect(created.metadata.ledgerIndex).toBeGreaterThanOrEqual(ms);
      const raw = await fetch(`${url}/api/core/v2/outputs/${next.outputs[0].outputId}`, {
        headers: { Accept: SERIALIZER },
      });
      expect(Buffer.from(await raw.arrayBuffer()).equals(core.encodeOutput(next.outputs[0].output))).toBe(true);

      const spent = await outputMetadata(current.outputId);
      expect(spent).toMatchObject({
        isSpent: true,
        transactionIdSpent: next.transactionId,
        milestoneIndexSpent: ms,
        milestoneTimestampSpent: timestamp,
      });

      const changes = (await getJson(url, `/api/core/v2/milestones/by-index/${ms}/utxo-changes`)).body;
      expect(changes.createdOutputs).toContain(next.outputs[0].outputId);
      expect(changes.consumedOutputs).toContain(current.outputId);
      current = next.outputs[0];
    }
  });

  it('spends an output of a not yet confirmed transaction whose block is a parent', async () => {
    const first = transfer([pool[1]], testKey('unconfirmed a'));
    const firstBlock = await submitPayload(url, first.payload);
    const second = transfer([first.outputs[0]], testKey('unconfirmed b'));
    const { tips } = (await getJson(url, '/api/core/v2/tips')).body as { tips: string[] };
    const parents = [...new Set([firstBlock, ...tips])].slice(0, 8).sort();
    const secondBlock = await submit(url, { protocolVersion: 2, parents, payload: second.payload });

    const a = await waitForReferenced(url, firstBlock);
    const b = await waitForReferenced(url, secondBlock);
    expect(a.ledgerInclusionState).toBe('included');
    expect(b.ledgerInclusionState).toBe('included');
    if (a.referencedByMilestoneIndex === b.referencedByMilestoneIndex)
      expect(b.whiteFlagIndex).toBeGreaterThan(a.whiteFlagIndex);
    else expect(b.referencedByMilestoneIndex).toBeGreaterThan(a.referencedByMilestoneIndex);
  });

  it('includes exactly one of two transactions spending the same output', async () => {
    const left = transfer([pool[2]], testKey('double left'));
    const right = transfer([pool[2]], testKey('double right'));
    expect(left.transactionId).not.toBe(right.transactionId);
    const [leftBlock, rightBlock] = await Promise.all([
      submitPayload(url, left.payload),
      submitPayload(url, right.payload),
    ]);
    const [l, r] = await Promise.all([waitForReferenced(url, leftBlock), waitForReferenced(url, rightBlock)]);
    const states = [l.ledgerInclusionState, r.ledgerInclusionState].sort();
    expect(states).toEqual(['conflicting', 'included']);
    const [winner, loser, winnerTx, loserTx] =
      l.ledgerInclusionState === 'included' ? [l, r, left, right] : [r, l, right, left];
    const sameMilestone = winner.referencedByMilestoneIndex === loser.referencedByMilestoneIndex;
    expect(loser.conflictReason).toBe(sameMilestone ? 2 : 1);
    if (sameMilestone) expect(loser.whiteFlagIndex).toBeGreaterThan(winner.whiteFlagIndex);
    expect(await includedStatus(loserTx.transactionId)).toBe(404);
    expect(
      (await getJson(url, `/api/core/v2/transactions/${winnerTx.transactionId}/included-block/metadata`)).body.blockId,
    ).toBe(winner.blockId);
    expect((await outputMetadata(pool[2].outputId)).transactionIdSpent).toBe(winnerTx.transactionId);
    expect((await fetch(`${url}/api/core/v2/outputs/${loserTx.outputs[0].outputId}`)).status).toBe(404);

    // A third spend of the same output, after the first was confirmed: reason 1.
    const late = transfer([pool[2]], testKey('double late'));
    const lateMeta = await waitForReferenced(url, await submitPayload(url, late.payload));
    expect(lateMeta.referencedByMilestoneIndex).toBeGreaterThan(winner.referencedByMilestoneIndex);
    expect(lateMeta).toMatchObject({ ledgerInclusionState: 'conflicting', conflictReason: 1 });
    expect(await includedStatus(late.transactionId)).toBe(404);
  });

  it('accepts semantically invalid transactions and marks them conflicting with their reason', async () => {
    // A timelocked output (far future) and one whose timelock has passed, both included first.
    const locked = transfer([pool[6]], testKey('locked'), { timelock: FAR_FUTURE });
    const unlocked = transfer([pool[7]], testKey('unlocked'), { timelock: 1 });
    await Promise.all([transferAndWait(url, locked), transferAndWait(url, unlocked)]);
    expect(
      (await getJson(url, `/api/core/v2/outputs/${locked.outputs[0].outputId}`)).body.output.unlockConditions,
    ).toEqual([
      { type: 0, address: { type: 0, pubKeyHash: locked.outputs[0].key.address } },
      { type: 2, unixTime: FAR_FUTURE },
    ]);

    const other = testKey('someone else');
    const cases: { name: string; reason: number; tx: Transfer }[] = [
      {
        name: 'bad signature',
        reason: 5,
        tx: track(buildTransfer(networkId, [pool[3]], [{ to: other, amount: AMOUNT }], { signWith: other.seed })),
      },
      {
        name: 'wrong inputs commitment',
        reason: 10,
        tx: track(
          buildTransfer(networkId, [pool[4]], [{ to: other, amount: AMOUNT }], {
            commitTo: [{ ...pool[4].output, amount: (AMOUNT + 1n).toString() }],
          }),
        ),
      },
      { name: 'unbalanced amounts', reason: 4, tx: transfer([pool[5]], other, { amount: AMOUNT - 1n }) },
      { name: 'unexpired timelock', reason: 6, tx: transfer([locked.outputs[0]], other) },
    ];
    const blocks = await Promise.all(cases.map((c) => submitPayload(url, c.tx.payload)));
    const spendPastTimelock = transfer([unlocked.outputs[0]], testKey('after timelock'));
    const passed = await transferAndWait(url, spendPastTimelock);
    expect(passed.ledgerInclusionState).toBe('included');

    for (const [i, c] of cases.entries()) {
      const metadata = await waitForReferenced(url, blocks[i]);
      expect({ name: c.name, state: metadata.ledgerInclusionState, reason: metadata.conflictReason }).toEqual({
        name: c.name,
        state: 'conflicting',
        reason: c.reason,
      });
      expect(await includedStatus(c.tx.transactionId), c.name).toBe(404);
      expect((await fetch(`${url}/api/core/v2/outputs/${c.tx.outputs[0].outputId}`)).status, c.name).toBe(404);
      for (const input of c.tx.inputs) expect((await outputMetadata(input)).isSpent, c.name).toBe(false);
    }
  });

  it('keeps the supply: the unspent outputs sum to the token supply', async () => {
    expect(outputIds.size).toBeGreaterThan(20);
    expect(await unspentSum(url, outputIds)).toBe(supply);
  });

  it('reports latest = confirmed milestone, advancing', async () => {
    const first = (await getJson(url, '/api/core/v2/info')).body.status;
    expect(first.latestMilestone).toEqual(first.confirmedMilestone);
    const later = await poll(
      'the next milestone',
      async () => {
        const status = (await getJson(url, '/api/core/v2/info')).body.status;
        return status.latestMilestone.index > first.latestMilestone.index ? status : undefined;
      },
      10_000,
    );
    expect(later.latestMilestone).toEqual(later.confirmedMilestone);
    expect(later.latestMilestone.timestamp).toBeGreaterThan(first.latestMilestone.timestamp);
    expect((await milestone(later.latestMilestone.index)).index).toBe(later.latestMilestone.index);
  });
});
