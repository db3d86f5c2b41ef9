// The event API against a real node (events.md): every topic with a submitted block, a
// transfer (basic outputs with address and expiration conditions, a new alias and a new
// NFT, a tagged-data payload in the essence) and its milestone; exact payloads compared
// with the REST answers; the order of §5; on-subscribe messages; a client acting on an
// event reads the same state over REST; the literal-+ rule; one delivery per message.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, startTestNode, type TestNode } from './e2e/node-harness';
import { Recorder } from './e2e/mqtt';
import {
  GENESIS_OUTPUT_ID,
  SERIALIZER,
  basicOutput,
  genesisKey,
  genesisSpendable,
  inputOf,
  networkIdOf,
  submitPayload,
  testKey,
  type Key,
  type Spendable,
} from './e2e/transactions';

const ZERO_ID = '0x' + '00'.repeat(32);
const TAG = '0x' + Buffer.from('ledger-node events').toString('hex');
const ESSENCE_TAG = '0x' + Buffer.from('in the essence').toString('hex');
const FAR_FUTURE = 4_000_000_000;
const HRP = 'tst';

let node: TestNode;
let url: string;
let networkId: string;
const bech32 = (address: string) => core.bech32Encode(HRP, { type: 0, pubKeyHash: address }) as string;
const binary = async (path: string) =>
  Buffer.from(await (await fetch(url + path, { headers: { Accept: SERIALIZER } })).arrayBuffer());
const text = async (path: string) => (await fetch(url + path)).text();
/** A REST output body with the ledger index of the event that carried it. */
const atLedgerIndex = (body: string, index: number) => body.replace(/"ledgerIndex":\d+/, `"ledgerIndex":${index}`);
const ledgerIndexOf = (payload: Buffer) => JSON.parse(payload.toString()).metadata.ledgerIndex as number;
const withParentBlockIds = (rest: string) => {
  const v = JSON.parse(rest);
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v)) {
    out[k] = value;
    if (k === 'parents') out.parentBlockIds = value;
  }
  return JSON.stringify(out);
};

/** A signed transfer of one input to the given outputs, with an optional tagged-data payload in the essence. */
function signedTransfer(input: Spendable, outputs: object[], tag?: string) {
  const essence: Record<string, unknown> = {
    type: 1,
    networkId,
    inputs: [inputOf(input.outputId)],
    inputsCommitment: core.inputsCommitment([input.output]),
    outputs,
  };
  if (tag !== undefined) essence.payload = { type: 5, tag, data: '0x01' };
  const placeholder = {
    type: 0,
    signature: { type: 0, publicKey: input.key.publicKey, signature: '0x' + '00'.repeat(64) },
  };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [placeholder] });
  const payload = {
    type: 6,
    essence,
    unlocks: [
      { type: 0, signature: { type: 0, publicKey: input.key.publicKey, signature: core.sign(input.key.seed, hash) } },
    ],
  };
  const transactionId: string = core.transactionId(payload);
  return { payload, transactionId, outputIds: outputs.map((_, i) => core.outputId(transactionId, i) as string) };
}

const ed = (key: Key) => ({ type: 0, pubKeyHash: key.address });

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
  url = node.url;
  networkId = await networkIdOf(url);
});
afterAll(async () => {
  await node?.stop();
});

describe('every topic with a block, a transfer and their milestone', () => {
  const alice = testKey('events alice');
  let genesis: Spendable;
  let transfer: ReturnType<typeof signedTransfer>;
  let aliasId: string;
  let nftId: string;
  let everything: Recorder;
  let exact: Recorder;
  let literal: Recorder;
  let wildcards: Recorder;
  let dedupe: Recorder;
  let taggedBlock: string;
  let transferBlock: string;
  let milestoneIndex: number;
  let exactFilters: string[];
  const rest = new Map<string, unknown>();

  beforeAll(async () => {
    genesis = await genesisSpendable(url);
    const total = BigInt(genesis.output.amount);
    const outputs = [
      {
        type: 3,
        amount: '1000000',
        unlockConditions: [
          { type: 0, address: ed(alice) },
          { type: 3, returnAddress: ed(genesisKey), unixTime: FAR_FUTURE },
        ],
      },
      {
        type: 4,
        amount: '1000000',
        aliasId: ZERO_ID,
        stateIndex: 0,
        foundryCounter: 0,
        unlockConditions: [
          { type: 4, address: ed(alice) },
          { type: 5, address: ed(genesisKey) },
        ],
      },
      { type: 6, amount: '1000000', nftId: ZERO_ID, unlockConditions: [{ type: 0, address: ed(alice) }] },
      basicOutput(genesisKey.address, total - 3_000_000n),
    ];
    transfer = signedTransfer(genesis, outputs, ESSENCE_TAG);
    // The derived chain ids (indexer.md §2.3): BLAKE2b-256 of the output id (blockId
    // hashes whatever bytes it is given).
    const blake2b256 = (hex: string): string => core.blockId(Buffer.from(hex.slice(2), 'hex'));
    aliasId = blake2b256(transfer.outputIds[1]);
    nftId = blake2b256(transfer.outputIds[2]);

    everything = await Recorder.connect(url);
    await everything.subscribe(['#']);
    dedupe = await Recorder.connect(url);
    await dedupe.subscribe(['blocks', '#', 'blocks/+', '+', 'blocks/#']);
    literal = await Recorder.connect(url);
    await literal.subscribe([
      `outputs/unlock/+/${bech32(alice.address)}`,
      `outputs/unlock/+/${bech32(genesisKey.address)}/spent`,
    ]);
    wildcards = await Recorder.connect(url);
    await wildcards.subscribe(['outputs/unlock/+/+', 'outputs/unlock/+/+/spent']);
    exact = await Recorder.connect(url);
    exactFilters = [
      'blocks',
      'blocks/transaction',
      'blocks/transaction/tagged-data',
      `blocks/transaction/tagged-data/${ESSENCE_TAG}`,
      'blocks/tagged-data',
      `blocks/tagged-data/${TAG}`,
      'milestones',
      'block-metadata/referenced',
      `transactions/${transfer.transactionId}/included-block`,
      `outputs/${GENESIS_OUTPUT_ID}`,
      ...transfer.outputIds.map((id) => `outputs/${id}`),
      `outputs/alias/${aliasId}`,
      `outputs/nft/${nftId}`,
      `outputs/unlock/address/${bech32(alice.address)}`,
      `outputs/unlock/expiration/${bech32(genesisKey.address)}`,
      `outputs/unlock/state-controller/${bech32(alice.address)}`,
      `outputs/unlock/governor/${bech32(genesisKey.address)}`,
      `outputs/unlock/address/${bech32(genesisKey.address)}/spent`,
      'receipts',
    ];
    expect(await exact.subscribe(exactFilters, 1)).toEqual(exactFilters.map(() => 1));

    taggedBlock = await submitPayload(url, { type: 5, tag: TAG, data: '0x' + Buffer.from('hello').toString('hex') });
    transferBlock = await submitPayload(url, transfer.payload);
    // Read REST the moment the milestone's events are seen: the state must already be there.
    everything.client.on('message', (topic) => {
      if (topic === `transactions/${transfer.transactionId}/included-block`) {
        rest.set('included', binary(`/api/core/v2/transactions/${transfer.transactionId}/included-block`));
        rest.set('genesis', text(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`));
      }
    });
    const included = await everything.waitFor('the transfer included', (m) => {
      const i = m.findIndex((x) => x.topic === `transactions/${transfer.transactionId}/included-block`);
      return i >= 0 ? i : undefined;
    });
    milestoneIndex = JSON.parse(
      (
        await everything.waitFor('milestone-info/confirmed after it', (m) =>
          m.slice(included).find((x) => x.topic === 'milestone-info/confirmed'),
        )
      ).payload.toString(),
    ).index;
    await exact.waitFor('milestone info on the exact client', () =>
      exact.on('transactions/' + transfer.transactionId + '/included-block').length > 0 ? true : undefined,
    );
  });

  afterAll(async () => {
    await Promise.all([everything, exact, literal, wildcards, dedupe].map((c) => c?.end()));
  });

  it('blocks: the stored bytes, on every block topic that applies', async () => {
    const taggedBytes = await binary(`/api/core/v2/blocks/${taggedBlock}`);
    const transferBytes = await binary(`/api/core/v2/blocks/${transferBlock}`);
    const has = (topic: string, bytes: Buffer) => exact.on(topic).filter((m) => m.payload.equals(bytes)).length;
    expect(has('blocks', taggedBytes)).toBe(1);
    expect(has('blocks', transferBytes)).toBe(1);
    expect(has('blocks/tagged-data', taggedBytes)).toBe(1);
    expect(has(`blocks/tagged-data/${TAG}`, taggedBytes)).toBe(1);
    expect(has('blocks/tagged-data', transferBytes)).toBe(0);
    expect(has('blocks/transaction', transferBytes)).toBe(1);
    expect(has('blocks/transaction/tagged-data', transferBytes)).toBe(1);
    expect(has(`blocks/transaction/tagged-data/${ESSENCE_TAG}`, transferBytes)).toBe(1);
    expect(has('blocks/transaction', taggedBytes)).toBe(0);
    expect(exact.on('receipts')).toEqual([]);
  });

  it('block metadata: solid when stored, then as referenced, with parentBlockIds (D36)', async () => {
    const own = everything.on(`block-metadata/${taggedBlock}`).map((m) => JSON.parse(m.payload.toString()));
    expect(own.length).toBe(2);
    expect(own[0]).toMatchObject({ blockId: taggedBlock, isSolid: true, shouldPromote: false, shouldReattach: false });
    expect(own[0].parentBlockIds).toEqual(own[0].parents);
    expect(own[0].referencedByMilestoneIndex).toBeUndefined();
    const restNow = await text(`/api/core/v2/blocks/${taggedBlock}/metadata`);
    expect(everything.on(`block-metadata/${taggedBlock}`)[1].payload.toString()).toBe(withParentBlockIds(restNow));
    const referenced = exact.on('block-metadata/referenced').map((m) => m.payload.toString());
    expect(referenced).toContain(withParentBlockIds(restNow));
    expect(referenced).toContain(withParentBlockIds(await text(`/api/core/v2/blocks/${transferBlock}/metadata`)));
    expect(JSON.parse(withParentBlockIds(restNow)).ledgerInclusionState).toBe('noTransaction');
  });

  it('milestones and milestone info: the REST payload and {index, timestamp, milestoneId}', async () => {
    const milestone = JSON.parse(await text(`/api/core/v2/milestones/by-index/${milestoneIndex}`));
    const payloadBytes = await binary(`/api/core/v2/milestones/by-index/${milestoneIndex}`);
    expect(exact.on('milestones').some((m) => m.payload.equals(payloadBytes))).toBe(true);
    const info = `{"index":${milestoneIndex},"timestamp":${milestone.timestamp},"milestoneId":"${core.milestoneId(milestone)}"}`;
    expect(everything.on('milestone-info/latest').map((m) => m.payload.toString())).toContain(info);
    expect(everything.on('milestone-info/confirmed').map((m) => m.payload.toString())).toContain(info);
  });

  it('transactions/{id}/included-block: the including block, readable over REST on receipt', async () => {
    const bytes = await binary(`/api/core/v2/blocks/${transferBlock}`);
    const [message] = exact.on(`transactions/${transfer.transactionId}/included-block`);
    expect(message.payload.equals(bytes)).toBe(true);
    expect((await rest.get('included')) as Buffer).toEqual(bytes);
  });

  it('outputs: the REST body at the milestone that changed it, spent and created', async () => {
    // The first message is the current state sent on subscribe (unspent); then the spend.
    const [current, spent] = exact.on(`outputs/${GENESIS_OUTPUT_ID}`);
    expect(JSON.parse(current.payload.toString()).metadata.isSpent).toBe(false);
    expect(ledgerIndexOf(spent.payload)).toBe(milestoneIndex);
    expect(spent.payload.toString()).toBe(
      atLedgerIndex(await text(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`), milestoneIndex),
    );
    expect(JSON.parse(spent.payload.toString()).metadata).toMatchObject({
      isSpent: true,
      milestoneIndexSpent: milestoneIndex,
      transactionIdSpent: transfer.transactionId,
    });
    // Read on receipt: already spent over REST.
    expect(JSON.parse((await rest.get('genesis')) as string).metadata.isSpent).toBe(true);
    for (const id of transfer.outputIds) {
      const [created] = exact.on(`outputs/${id}`);
      expect(created.payload.toString()).toBe(atLedgerIndex(await text(`/api/core/v2/outputs/${id}`), milestoneIndex));
    }
    const body = (i: number) => exact.on(`outputs/${transfer.outputIds[i]}`)[0].payload.toString();
    expect(exact.on(`outputs/alias/${aliasId}`).map((m) => m.payload.toString())).toEqual([body(1)]);
    expect(exact.on(`outputs/nft/${nftId}`).map((m) => m.payload.toString())).toEqual([body(2)]);
  });

  it('unlock topics: one per condition holding the address, then the literal + topic per address (D35)', () => {
    const payloads = (c: Recorder, topic: string) => c.on(topic).map((m) => m.payload.toString());
    const body = (i: number) => exact.on(`outputs/${transfer.outputIds[i]}`)[0].payload.toString();
    const alice32 = bech32(alice.address);
    const genesis32 = bech32(genesisKey.address);
    expect(payloads(exact, `outputs/unlock/address/${alice32}`)).toEqual([body(0), body(2)]);
    expect(payloads(exact, `outputs/unlock/expiration/${genesis32}`)).toEqual([body(0)]);
    expect(payloads(exact, `outputs/unlock/state-controller/${alice32}`)).toEqual([body(1)]);
    expect(payloads(exact, `outputs/unlock/governor/${genesis32}`)).toEqual([body(1)]);
    const spentGenesis = exact.on(`outputs/${GENESIS_OUTPUT_ID}`)[1].payload.toString();
    expect(payloads(exact, `outputs/unlock/address/${genesis32}/spent`)).toEqual([spentGenesis]);
    // Exactly `outputs/unlock/+/{address}`: only the literal topic, once per output.
    expect(literal.messages.map((m) => m.topic)).toEqual([
      `outputs/unlock/+/${genesis32}/spent`,
      ...[0, 1, 2].map(() => `outputs/unlock/+/${alice32}`),
    ]);
    expect(literal.messages.map((m) => m.payload.toString())).toEqual([spentGenesis, body(0), body(1), body(2)]);
    // Wildcards: the per-condition and the literal topics, by standard matching.
    const topicsSeen = wildcards.messages.map((m) => m.topic);
    expect(topicsSeen).toContain(`outputs/unlock/expiration/${genesis32}`);
    expect(topicsSeen).toContain(`outputs/unlock/+/${genesis32}`);
    expect(topicsSeen).toContain(`outputs/unlock/address/${genesis32}/spent`);
    expect(topicsSeen.filter((t) => t === `outputs/unlock/+/${alice32}`).length).toBe(3);
  });

  it('a message matching several filters of one client arrives once', async () => {
    const taggedBytes = await binary(`/api/core/v2/blocks/${taggedBlock}`);
    // `blocks` matches 'blocks', '#', '+' and 'blocks/#' of this client.
    expect(dedupe.on('blocks').filter((m) => m.payload.equals(taggedBytes)).length).toBe(1);
    expect(dedupe.on(`blocks/tagged-data/${TAG}`).length).toBe(1);
    expect(
      dedupe.on('milestone-info/confirmed').filter((m) => JSON.parse(m.payload.toString()).index === milestoneIndex)
        .length,
    ).toBe(1);
    // It sees what a plain '#' subscriber sees, message for message.
    const seen = dedupe.messages.map((m) => m.topic).slice(0, 40);
    const from = everything.messages.findIndex(
      (m) => m.payload.equals(dedupe.messages[0].payload) && m.topic === dedupe.messages[0].topic,
    );
    expect(everything.messages.slice(from, from + seen.length).map((m) => m.topic)).toEqual(seen);
  });

  it('order (§5): block events, referenced metadata in white-flag order, ledger changes per transaction, milestone info last', () => {
    const log = everything.messages;
    const end = log.findIndex(
      (m) => m.topic === 'milestone-info/confirmed' && JSON.parse(m.payload.toString()).index === milestoneIndex,
    );
    const start = log.findLastIndex((m, i) => i < end && m.topic === 'milestones');
    expect(log[start - 1].topic).toBe('blocks');
    const part = log.slice(start - 1, end + 1).map((m) => m.topic);
    const at = (topic: string) => part.indexOf(topic);
    const referenced = log
      .slice(start, end)
      .filter((m) => m.topic === 'block-metadata/referenced')
      .map((m) => JSON.parse(m.payload.toString()));
    expect(referenced.map((r) => r.whiteFlagIndex)).toEqual(referenced.map((_, i) => i));
    expect(referenced.every((r) => r.referencedByMilestoneIndex === milestoneIndex)).toBe(true);
    const lastReferenced = part.lastIndexOf('block-metadata/referenced');
    const alice32 = bech32(alice.address);
    const genesis32 = bech32(genesisKey.address);
    const expected = [
      'milestones',
      `outputs/${GENESIS_OUTPUT_ID}`,
      `outputs/unlock/address/${genesis32}/spent`,
      `outputs/unlock/+/${genesis32}/spent`,
      `outputs/${transfer.outputIds[0]}`,
      `outputs/unlock/address/${alice32}`,
      `outputs/unlock/expiration/${genesis32}`,
      `outputs/${transfer.outputIds[1]}`,
      `outputs/alias/${aliasId}`,
      `outputs/unlock/state-controller/${alice32}`,
      `outputs/unlock/governor/${genesis32}`,
      `outputs/${transfer.outputIds[2]}`,
      `outputs/nft/${nftId}`,
      `outputs/${transfer.outputIds[3]}`,
      `transactions/${transfer.transactionId}/included-block`,
      'milestone-info/latest',
      'milestone-info/confirmed',
    ].map(at);
    expect(expected.every((i) => i >= 0)).toBe(true);
    expect([...expected].sort((a, b) => a - b)).toEqual(expected);
    expect(lastReferenced).toBeLessThan(at(`outputs/${GENESIS_OUTPUT_ID}`));
    // Literal + topics follow the per-condition ones of the same output.
    expect(at(`outputs/unlock/+/${alice32}`)).toBeGreaterThan(at(`outputs/unlock/expiration/${genesis32}`));
    expect(at(`outputs/unlock/+/${alice32}`)).toBeLessThan(at(`outputs/${transfer.outputIds[1]}`));
  });

  it('on subscribe: the current state, to the new subscriber only (§4)', async () => {
    const before = exact.messages.length;
    const late = await Recorder.connect(url);
    const filters = [
      'milestone-info/latest',
      'milestone-info/confirmed',
      `block-metadata/${transferBlock}`,
      `outputs/${GENESIS_OUTPUT_ID}`,
      `outputs/${transfer.outputIds[0]}`,
      `transactions/${transfer.transactionId}/included-block`,
      'block-metadata/+',
      `block-metadata/${ZERO_ID}`,
      `block-metadata/${transferBlock.toUpperCase().replace('0X', '0x')}`,
    ];
    await late.subscribe(filters);
    await late.waitFor('six current-state messages', (m) => (m.length >= 6 ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    const first = late.messages.slice(0, 6);
    expect(first.map((m) => m.topic)).toEqual(filters.slice(0, 6));
    const info = JSON.parse(await text('/api/core/v2/info')).status;
    const latest = JSON.parse(first[0].payload.toString());
    expect(latest.index).toBeGreaterThanOrEqual(milestoneIndex);
    expect(latest.index).toBeLessThanOrEqual(info.latestMilestone.index);
    expect(first[2].payload.toString()).toBe(
      withParentBlockIds(await text(`/api/core/v2/blocks/${transferBlock}/metadata`)),
    );
    expect(JSON.parse(first[3].payload.toString()).metadata.isSpent).toBe(true);
    expect(first[4].payload.toString()).toBe(
      atLedgerIndex(await text(`/api/core/v2/outputs/${transfer.outputIds[0]}`), ledgerIndexOf(first[4].payload)),
    );
    expect(first[5].payload.equals(await binary(`/api/core/v2/blocks/${transferBlock}`))).toBe(true);
    // Wildcards, unknown and upper-case ids: nothing. Live events may follow, but not these.
    expect(
      late.messages
        .slice(6)
        .some((m) => m.topic.startsWith('block-metadata/') && m.topic !== `block-metadata/${transferBlock}`),
    ).toBe(false);
    // The other subscriber of the same topics got no copy.
    expect(
      exact.messages
        .slice(before)
        .some((m) => m.topic === `outputs/${GENESIS_OUTPUT_ID}` || m.topic.startsWith('transactions/')),
    ).toBe(false);
    await late.end();
  });
});
