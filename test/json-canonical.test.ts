// Canonical JSON through the JS API (D15, wire-format §2): every optional byte string of
// every object kind is read alike when its key is absent, null, "" or "0x", and written
// without its key when empty, as iota-sdk 1.x writes it. The bytes decide: every input form
// must encode to the same bytes, and decoding them must give the JSON without the key.
import { describe, expect, it } from 'vitest';
import {
  decodeBlock,
  decodeOutput,
  decodePayload,
  encodeBlock,
  encodeOutput,
  encodePayload,
  type TransactionPayloadJson,
} from '../src/index';

type Json = Record<string, unknown>;
const id = (byte: string) => '0x' + byte.repeat(32);
const ed25519 = (byte: string) => ({ type: 0, pubKeyHash: id(byte) });
/** `object` with `key` set, or without it when value is undefined. */
const withKey = (object: Json, key: string, value: unknown): Json =>
  value === undefined ? object : { ...object, [key]: value };

const block = (payload: Json): Json => ({ protocolVersion: 2, parents: [id('01'), id('02')], payload, nonce: '7' });
const transactionBlock = (essencePayload: Json): Json =>
  block({
    type: 6,
    essence: {
      type: 1,
      networkId: '14364762045254553490',
      inputs: [{ type: 0, transactionId: id('03'), transactionOutputIndex: 0 }],
      inputsCommitment: id('04'),
      outputs: [{ type: 3, amount: '1000000', unlockConditions: [{ type: 0, address: ed25519('05') }] }],
      payload: essencePayload,
    },
    unlocks: [{ type: 0, signature: { type: 0, publicKey: id('06'), signature: '0x' + '07'.repeat(64) } }],
  });
const milestone = (metadata: unknown, options?: Json[]): Json =>
  withKey(
    withKey(
      {
        type: 7,
        index: 3,
        timestamp: 1700000000,
        protocolVersion: 2,
        previousMilestoneId: id('08'),
        parents: [id('09'), id('0a')],
        inclusionMerkleRoot: id('0b'),
        appliedMerkleRoot: id('0c'),
        signatures: [{ type: 0, publicKey: id('0d'), signature: '0x' + '0e'.repeat(64) }],
      },
      'metadata',
      metadata,
    ),
    'options',
    options,
  );
const nft = (features: Json[], immutableFeatures: Json[] = []): Json => ({
  type: 6,
  amount: '1000000',
  nftId: id('13'),
  unlockConditions: [{ type: 0, address: ed25519('14') }],
  features,
  immutableFeatures,
});
const alias = (stateMetadata: unknown): Json =>
  withKey(
    {
      type: 4,
      amount: '1000000',
      aliasId: id('10'),
      stateIndex: 1,
      foundryCounter: 0,
      unlockConditions: [
        { type: 4, address: ed25519('11') },
        { type: 5, address: ed25519('12') },
      ],
    },
    'stateMetadata',
    stateMetadata,
  );

interface Codec {
  encode: (json: object | string) => Buffer;
  decode: (bytes: Uint8Array) => unknown;
}
const BLOCK: Codec = { encode: encodeBlock, decode: decodeBlock };
const PAYLOAD: Codec = { encode: encodePayload, decode: decodePayload };
const OUTPUT: Codec = { encode: encodeOutput, decode: decodeOutput };

interface Case {
  kind: string;
  codec: Codec;
  /** The object holding the case's key in the decoded JSON, which is of the kind the case builds. */
  // biome-ignore lint/suspicious/noExplicitAny: each case walks its own kind's JSON, so no one type fits them all.
  at: (json: any) => Json;
  key: string;
  build: (value: unknown) => Json;
}
const cases: Case[] = [
  {
    kind: 'tagged data in a block: tag',
    codec: BLOCK,
    at: (b) => b.payload,
    key: 'tag',
    build: (v) => block(withKey({ type: 5, data: '0x6869' }, 'tag', v)),
  },
  {
    kind: 'tagged data in a block: data',
    codec: BLOCK,
    at: (b) => b.payload,
    key: 'data',
    build: (v) => block(withKey({ type: 5, tag: '0x6869' }, 'data', v)),
  },
  {
    kind: 'tagged data in a transaction essence: tag',
    codec: BLOCK,
    at: (b) => b.payload.essence.payload,
    key: 'tag',
    build: (v) => transactionBlock(withKey({ type: 5, data: '0x6869' }, 'tag', v)),
  },
  {
    kind: 'tagged data in a transaction essence: data',
    codec: BLOCK,
    at: (b) => b.payload.essence.payload,
    key: 'data',
    build: (v) => transactionBlock(withKey({ type: 5, tag: '0x6869' }, 'data', v)),
  },
  { kind: 'milestone payload: metadata', codec: PAYLOAD, at: (m) => m, key: 'metadata', build: (v) => milestone(v) },
  {
    kind: 'protocol parameters milestone option: params',
    codec: PAYLOAD,
    at: (m) => m.options[0],
    key: 'params',
    build: (v) =>
      milestone(undefined, [withKey({ type: 1, targetMilestoneIndex: 20, protocolVersion: 2 }, 'params', v)]),
  },
  { kind: 'alias output: stateMetadata', codec: OUTPUT, at: (o) => o, key: 'stateMetadata', build: alias },
  {
    kind: 'metadata feature: data',
    codec: OUTPUT,
    at: (o) => o.features[0],
    key: 'data',
    build: (v) => nft([withKey({ type: 2 }, 'data', v)]),
  },
  {
    kind: 'tag feature: tag',
    codec: OUTPUT,
    at: (o) => o.features[0],
    key: 'tag',
    build: (v) => nft([withKey({ type: 3 }, 'tag', v)]),
  },
  {
    kind: 'immutable metadata feature: data',
    codec: OUTPUT,
    at: (o) => o.immutableFeatures[0],
    key: 'data',
    build: (v) => nft([], [withKey({ type: 2 }, 'data', v)]),
  },
];

describe('empty optional byte strings', () => {
  it.each(cases.map((c) => [c.kind, c]))('%s', (_kind, c) => {
    const bytes = c.codec.encode(c.build(undefined));
    for (const form of [null, '', '0x']) {
      expect(c.codec.encode(c.build(form)).equals(bytes), `read ${JSON.stringify(form)}`).toBe(true);
      expect(c.codec.encode(JSON.stringify(c.build(form))).equals(bytes), `read ${JSON.stringify(form)} as text`).toBe(
        true,
      );
    }
    const back = c.codec.decode(bytes);
    expect(c.at(back)).not.toHaveProperty(c.key);
    expect(JSON.stringify(back)).not.toContain('"0x"');

    // A non-empty value is written under the key: the case looks at the right field.
    expect(c.at(c.codec.decode(c.codec.encode(c.build('0xAB01'))))[c.key]).toBe('0xab01');
  });

  it('empty milestone options, output lists and payload slots are left out', () => {
    expect(decodePayload(encodePayload(milestone(undefined, [])))).toEqual(milestone(undefined));
    const out = decodeOutput(encodeOutput(nft([], [])));
    expect(Object.keys(out)).toEqual(['type', 'amount', 'nftId', 'unlockConditions']);
    expect(decodeBlock(encodeBlock(block(null as never)))).not.toHaveProperty('payload');
    expect(
      (decodeBlock(encodeBlock(transactionBlock(null as never))).payload as TransactionPayloadJson).essence,
    ).not.toHaveProperty('payload');
  });
});
