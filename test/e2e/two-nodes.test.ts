// Two nodes, one ledger: node A runs the coordinator (fixed key K, a milestone every
// second); node B has no coordinator and accepts milestone blocks signed by K. A small DAG
// of tagged data and transfers (with a double spend and invalid transactions), built here
// with explicit parents and mined nonces, is confirmed by A; B is then fed the same bytes
// in another parent-first order with A's milestone blocks in between, and must reach the
// same milestones, block metadata and outputs. B refuses forged or wrong milestones.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { core, startTestNode, type TestNode } from './node-harness';
import {
  GENESIS_OUTPUT_ID,
  SERIALIZER,
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  minedBlock,
  networkIdOf,
  postBlock,
  submit,
  testKey,
  waitForReferenced,
  type Spendable,
  type Transfer,
} from './transactions';

const K = testKey('two nodes coordinator');
const AMOUNT = 1_000_000_000n;
const SEPS = new Set(['0x' + '00'.repeat(32), '0x' + '00'.repeat(31) + '01']);
let a: TestNode;
let b: TestNode;

beforeAll(async () => {
  a = await startTestNode(['--milestone-interval', '1', '--coordinator-key', K.seed]);
  b = await startTestNode(['--no-coordinator', '--coordinator-public-key', K.publicKey]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

interface Built {
  label: string;
  blockId: string;
  bytes: Buffer;
  parents: string[];
  milestoneIndex?: number;
}

const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('two-nodes').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});
const milestoneBlock = (payload: { parents: string[] }) =>
  core.encodeBlock({ protocolVersion: 2, parents: payload.parents, payload, nonce: '0' }) as Buffer;
const withoutLedgerIndex = ({ ledgerIndex, ...rest }: { ledgerIndex?: number }) => (void ledgerIndex, rest);
const pick = (m: Record<string, unknown>) => ({
  parents: m.parents,
  isSolid: m.isSolid,
  referencedByMilestoneIndex: m.referencedByMilestoneIndex,
  milestoneIndex: m.milestoneIndex,
  ledgerInclusionState: m.ledgerInclusionState,
  conflictReason: m.conflictReason,
  whiteFlagIndex: m.whiteFlagIndex,
});

function signMilestone<T extends { parents: string[] }>(
  payload: T,
  seed: string,
  publicKey: string = core.publicKey(seed),
): T {
  const unsigned = { ...payload, signatures: [{ type: 0, publicKey, signature: '0x' + '00'.repeat(64) }] };
  return { ...unsigned, signatures: [{ type: 0, publicKey, signature: core.sign(seed, core.milestoneId(unsigned)) }] };
}

it('replays A’s blocks and milestones on B, in another order, to the same ledger', async () => {
  // B has no milestone yet: not ready for ordinary blocks.
  expect((await postBlock(b.url, { protocolVersion: 2, payload: tagged('too early') })).status).toBe(503);

  const networkId = await networkIdOf(a.url);
  const built: Built[] = [];
  const add = async (label: string, parents: string[], payload: object) => {
    const mined = await minedBlock(parents, payload, 5);
    expect(await submit(a.url, mined.block)).toBe(mined.blockId);
    built.push({ label, blockId: mined.blockId, bytes: mined.bytes, parents: [...parents].sort() });
    return mined.blockId;
  };
  const transfers: Transfer[] = [];
  const transfer = (inputs: Spendable[], label: string, options: { amount?: bigint; signWith?: string } = {}) => {
    const t = buildTransfer(
      networkId,
      inputs,
      [{ to: testKey(label), amount: options.amount ?? BigInt(inputs[0].output.amount) }],
      { signWith: options.signWith },
    );
    transfers.push(t);
    return t;
  };

  // Round 1: tagged data, a fan-out of the genesis output, a spend and a double spend of one
  // of its outputs, a bad signature and unbalanced amounts.
  const { tips } = (await getJson(a.url, '/api/core/v2/tips')).body as { tips: string[] };
  const genesis = await genesisSpendable(a.url);
  const t1 = await add('tagged 1', tips, tagged('one'));
  const fanOut = buildTransfer(
    networkId,
    [genesis],
    [
      ...[0, 1, 2].map((i) => ({ to: testKey(`two nodes ${i}`), amount: AMOUNT })),
      { to: genesisKey, amount: BigInt(genesis.output.amount) - 3n * AMOUNT },
    ],
  );
  transfers.push(fanOut);
  const f = await add('fan-out', [t1, tips[0]], fanOut.payload);
  const t2 = await add('tagged 2', [t1, f], tagged('two'));
  const [x, y, z] = fanOut.outputs;
  const spend = transfer([x], 'left');
  const doubleSpend = transfer([x], 'right');
  const bS = await add('spend', [f, t2], spend.payload);
  const bD = await add('double spend', [f, t1], doubleSpend.payload);
  const bBad = await add('bad signature', [t2, f], transfer([y], 'bad', { signWith: testKey('not y').seed }).payload);
  const bUnb = await add('unbalanced', [t1, t2], transfer([z], 'unbalanced', { amount: AMOUNT - 1n }).payload);
  const t3 = await add('tagged 3', [bS, bD, bBad, bUnb], tagged('three'));
  for (const id of [t1, f, t2, bS, bD, bBad, bUnb, t3]) await waitForReferenced(a.url, id);

  const meta = async (id: string) => (await getJson(a.url, `/api/core/v2/blocks/${id}/metadata`)).body;
  expect((await meta(f)).ledgerInclusionState).toBe('included');
  expect(await meta(bBad)).toMatchObject({ ledgerInclusionState: 'conflicting', conflictReason: 5 });
  expect(await meta(bUnb)).toMatchObject({ ledgerInclusionState: 'conflicting', conflictReason: 4 });
  const [s, d] = [await meta(bS), await meta(bD)];
  expect([s.ledgerInclusionState, d.ledgerInclusionState].sort()).toEqual(['conflicting', 'included']);
  const winner = s.ledgerInclusionState === 'included' ? spend : doubleSpend;

  // Round 2, in later milestones: spend the winner's output, spend the output whose first
  // spend had a bad signature, a late double spend (reason 1), and a spend of an output
  // created by a block that is still unconfirmed but a parent.
  const c1Tx = transfer([winner.outputs[0]], 'after winner');
  const c1 = await add('spend winner', [t3, bS], c1Tx.payload);
  const c2 = await add('spend y', [t3, c1], transfer([y], 'y properly').payload);
  const c3 = await add('late double spend', [t3, c1], transfer([x], 'late').payload);
  const c4 = await add('spend unconfirmed', [c1, c3], transfer([c1Tx.outputs[0]], 'chained').payload);
  const t4 = await add('tagged 4', [c2, c4], tagged('four'));
  for (const id of [c1, c2, c3, c4, t4]) await waitForReferenced(a.url, id);
  expect(await meta(c3)).toMatchObject({ ledgerInclusionState: 'conflicting', conflictReason: 1 });
  for (const id of [c1, c2, c4]) expect((await meta(id)).ledgerInclusionState).toBe('included');

  // A's milestones 1..L, rebuilt as blocks (parents, payload, nonce 0) and checked against A.
  const L = (await getJson(a.url, '/api/core/v2/info')).body.status.latestMilestone.index as number;
  const milestones: Record<string, unknown>[] = [];
  const milestoneBlocks: Built[] = [];
  for (let index = 1; index <= L; index++) {
    const payload = (await getJson(a.url, `/api/core/v2/milestones/by-index/${index}`)).body;
    milestones.push(payload);
    const bytes = milestoneBlock(payload);
    const blockId = core.blockId(bytes) as string;
    const stored = Buffer.from(
      await (await fetch(`${a.url}/api/core/v2/blocks/${blockId}`, { headers: { Accept: SERIALIZER } })).arrayBuffer(),
    );
    expect(stored.equals(bytes), `milestone ${index} block`).toBe(true);
    milestoneBlocks.push({
      label: `milestone ${index}`,
      blockId,
      bytes,
      parents: payload.parents,
      milestoneIndex: index,
    });
  }

  // B's order: a milestone as soon as its parents are known, otherwise the block that came
  // latest on A among those whose parents are known.
  const known = new Set(SEPS);
  const pending = [...milestoneBlocks, ...built];
  const order: Built[] = [];
  while (pending.length > 0) {
    const ready = pending.filter((p) => p.parents.every((q) => known.has(q)));
    expect(ready.length, `blocks without known parents: ${pending.map((p) => p.label)}`).toBeGreaterThan(0);
    const next =
      ready.find((p) => p.milestoneIndex !== undefined) ??
      ready.reduce((m, p) => (built.indexOf(p) > built.indexOf(m) ? p : m));
    pending.splice(pending.indexOf(next), 1);
    known.add(next.blockId);
    order.push(next);
  }
  const userOrder = order.filter((p) => p.milestoneIndex === undefined).map((p) => p.label);
  expect(userOrder).not.toEqual(built.map((p) => p.label));
  for (const item of order) {
    const res = await postBlock(b.url, item.bytes);
    const body = await res.text();
    expect({ block: item.label, status: res.status, body }).toEqual({
      block: item.label,
      status: 201,
      body: JSON.stringify({ blockId: item.blockId }),
    });
  }

  const bStatus = (await getJson(b.url, '/api/core/v2/info')).body.status;
  expect(bStatus.latestMilestone.index).toBe(L);
  expect(bStatus.confirmedMilestone.index).toBe(L);

  for (let index = 1; index <= L; index++) {
    expect((await getJson(b.url, `/api/core/v2/milestones/by-index/${index}`)).body, `milestone ${index}`).toEqual(
      milestones[index - 1],
    );
    const changes = async (url: string) =>
      (await getJson(url, `/api/core/v2/milestones/by-index/${index}/utxo-changes`)).body;
    expect(await changes(b.url), `utxo changes ${index}`).toEqual(await changes(a.url));
  }
  // Every block referenced on both (the last milestone's block is referenced only on A).
  for (const item of [...built, ...milestoneBlocks.slice(0, -1)]) {
    const [onA, onB] = await Promise.all(
      [a.url, b.url].map(async (url) =>
        pick((await getJson(url, `/api/core/v2/blocks/${item.blockId}/metadata`)).body),
      ),
    );
    expect(onB, item.label).toEqual(onA);
  }
  const outputIds = [GENESIS_OUTPUT_ID, ...transfers.flatMap((t) => t.outputs.map((o) => o.outputId))];
  for (const id of outputIds) {
    const [onA, onB] = await Promise.all([a.url, b.url].map((url) => getJson(url, `/api/core/v2/outputs/${id}`)));
    expect(onB.status, id).toBe(onA.status);
    if (onA.status === 200) {
      expect(onB.body.output, id).toEqual(onA.body.output);
      expect(withoutLedgerIndex(onB.body.metadata), id).toEqual(withoutLedgerIndex(onA.body.metadata));
    }
  }

  // Milestone L+1 built here: refused when forged or wrong, accepted when right.
  const last = milestones[L - 1] as { timestamp: number };
  const lastBlock = milestoneBlocks[L - 1].blockId;
  const right = {
    ...last,
    index: L + 1,
    timestamp: last.timestamp + 1,
    previousMilestoneId: core.milestoneId(last),
    parents: [lastBlock, milestoneBlocks[L - 2].blockId].sort(),
    // The only block these parents add is milestone L's own block (L−1's is confirmed).
    inclusionMerkleRoot: core.merkleRoot([lastBlock]),
    appliedMerkleRoot: core.merkleRoot([]),
  };
  const other = testKey('not the coordinator');
  const wrong: [string, { parents: string[] }][] = [
    ['signed by another key', signMilestone(right, other.seed)],
    ['K’s public key, another key’s signature', signMilestone(right, other.seed, K.publicKey)],
    [
      'wrong inclusion root',
      signMilestone({ ...right, inclusionMerkleRoot: core.merkleRoot([lastBlock, t4]) }, K.seed),
    ],
    ['wrong applied root', signMilestone({ ...right, appliedMerkleRoot: core.merkleRoot([lastBlock]) }, K.seed)],
    ['index skipped', signMilestone({ ...right, index: L + 2 }, K.seed)],
    [
      'wrong previous milestone',
      signMilestone({ ...right, previousMilestoneId: core.milestoneId(milestones[L - 2]) }, K.seed),
    ],
  ];
  for (const [what, payload] of wrong) {
    const res = await postBlock(b.url, milestoneBlock(payload));
    expect({ what, status: res.status }).toEqual({ what, status: 400 });
  }
  const res = await postBlock(b.url, milestoneBlock(signMilestone(right, K.seed)));
  expect(res.status, await res.clone().text()).toBe(201);
  expect((await getJson(b.url, '/api/core/v2/info')).body.status.latestMilestone.index).toBe(L + 1);
  expect((await getJson(b.url, `/api/core/v2/blocks/${lastBlock}/metadata`)).body).toMatchObject({
    referencedByMilestoneIndex: L + 1,
    whiteFlagIndex: 0,
    ledgerInclusionState: 'noTransaction',
  });
}, 120_000);
