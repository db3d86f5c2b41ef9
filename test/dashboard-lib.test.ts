// The dashboard's own browser code (dashboard/lib/*.js), run in Node against references:
// BLAKE2b against Node's OpenSSL BLAKE2b-512 and the conformance vectors' IDs, bech32 and
// the block reader against the native core, the MQTT client against a real node.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
// @ts-expect-error plain JavaScript modules without type declarations
import { blake2b } from '../dashboard/lib/blake2b.js';
// @ts-expect-error plain JavaScript modules without type declarations
import { bech32Decode, bech32Encode, decodeAddress, encodeAddress } from '../dashboard/lib/bech32.js';
// @ts-expect-error plain JavaScript modules without type declarations
import { milestoneIdOf, outputIdOf, payloadOf, summarizeBlock, transactionIdOf } from '../dashboard/lib/block.js';
// @ts-expect-error plain JavaScript modules without type declarations
import { MqttClient, topicMatches } from '../dashboard/lib/mqtt.js';
// @ts-expect-error plain JavaScript modules without type declarations
import { formatAmount, formatDuration, printableText } from '../dashboard/lib/format.js';
import { core, startTestNode, type TestNode } from './e2e/node-harness';
import { submitPayload } from './e2e/transactions';
import { bytesOf, records } from './vectors';

const hex = (bytes: Uint8Array) => '0x' + Buffer.from(bytes).toString('hex');
const valid = records('valid.jsonl');

describe('BLAKE2b', () => {
  it('equals OpenSSL BLAKE2b-512 on inputs of every length around the 128-byte block', () => {
    for (let n = 0; n <= 300; n++) {
      const data = Buffer.alloc(n, n % 251);
      expect(Buffer.from(blake2b(data, 64))).toEqual(createHash('blake2b512').update(data).digest());
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
        expect(Buffer.from(blake2b(data, 64))).toEqual(createHash('blake2b512').update(data).digest());
      }),
      { numRuns: 300 },
    );
  });

  it('gives the 32-byte IDs of the conformance vectors (block, transaction, milestone IDs)', () => {
    expect(hex(blake2b(new Uint8Array(0), 32))).toBe(
      '0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
    );
    const blocks = valid.filter((r) => r.kind === 'block');
    expect(blocks.length).toBeGreaterThan(20);
    for (const r of blocks) expect(hex(blake2b(bytesOf(r.bytes), 32))).toBe(r.id);
    for (const r of valid.filter((x) => x.kind === 'transaction'))
      expect(hex(blake2b(bytesOf(r.bytes), 32))).toBe(r.id);
  });
});

describe('reading blocks', () => {
  it('summarizes every vector block: ID, parents, payload kind, transaction and milestone facts', () => {
    for (const r of valid.filter((x) => x.kind === 'block')) {
      const s = summarizeBlock(bytesOf(r.bytes));
      expect(s.blockId).toBe(r.id);
      expect(s.parents).toEqual(r.json.parents);
      expect(s.payloadType).toBe(r.json.payload?.type ?? null);
      if (r.json.payload?.type === 6) {
        expect(s.transactionId).toBe(r.extra.transactionId);
        expect(transactionIdOf(bytesOf(r.bytes))).toBe(r.extra.transactionId);
        expect(s.inputs).toBe(r.json.payload.essence.inputs.length);
        expect(s.outputs).toBe(r.json.payload.essence.outputs.length);
      } else {
        expect(transactionIdOf(bytesOf(r.bytes))).toBeNull();
      }
      if (r.json.payload?.type === 5) expect(s.tag).toBe(r.json.payload.tag ?? '0x'); // JSON leaves an empty tag out
      if (r.json.payload?.type === 7) {
        expect(s.milestoneIndex).toBe(r.json.payload.index);
        const { payload } = payloadOf(bytesOf(r.bytes));
        const hasReceipt = (r.json.payload.options ?? []).some((o: { type: number }) => o.type === 0);
        // A receipt option is never issued by this node; its ID is left uncomputed.
        expect(milestoneIdOf(payload)).toBe(hasReceipt ? null : r.extra.milestoneId);
      }
    }
  });

  it('builds output IDs as the core does', () => {
    const tx = '0x' + 'ab'.repeat(32);
    for (const i of [0, 1, 10, 127, 256]) expect(outputIdOf(tx, i)).toBe(core.outputId(tx, i));
  });
});

describe('bech32 addresses', () => {
  it('round-trips with the core for every address kind, and refuses what the core refuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 8, 16),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom('tst', 'rms', 'iota', 'smr'),
        (type, bytes, hrp) => {
          const key = { 0: 'pubKeyHash', 8: 'aliasId', 16: 'nftId' }[type]!;
          const address = { type, [key]: hex(bytes) };
          const text = core.bech32Encode(hrp, address);
          expect(encodeAddress(hrp, address)).toBe(text);
          const decoded = decodeAddress(text);
          expect(decoded).toEqual({ hrp, type, kind: { 0: 'Ed25519', 8: 'Alias', 16: 'NFT' }[type], hex: hex(bytes) });
          expect(decodeAddress(text.toUpperCase()).hex).toBe(hex(bytes));
        },
      ),
      { numRuns: 200 },
    );
    const genesis = 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc';
    expect(decodeAddress(genesis).hex).toBe('0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d');
    expect(() => bech32Decode(genesis.slice(0, -1) + 'q')).toThrow(/checksum/);
    expect(() => bech32Decode('tst1Qqgd' + genesis.slice(8))).toThrow(/case/);
    expect(() => bech32Decode('tst1qqgdb' + genesis.slice(9))).toThrow(/invalid character 'b'/);
    expect(() => decodeAddress(bech32Encode('tst', new Uint8Array([1, ...new Uint8Array(32)])))).toThrow(
      /unknown address type 1/,
    );
  });
});

describe('formatting', () => {
  it('shows amounts in the base token, durations and printable text', () => {
    const token = { decimals: 6, unit: 'TST' };
    expect(formatAmount('4600000000000000', token)).toBe('4,600,000,000 TST');
    expect(formatAmount('1000001', token)).toBe('1.000001 TST');
    expect(formatAmount('5', token)).toBe('0.000005 TST');
    expect(formatDuration(93_784_000)).toBe('1 d 2 h 3 min');
    expect(formatDuration(4_000)).toBe('4 s');
    expect(printableText(Buffer.from('hello world'))).toBe('hello world');
    expect(printableText(Buffer.from([0xff, 0x00]))).toBeNull();
  });
});

describe('the MQTT client against a node', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode(['--milestone-interval', '1']);
  });
  afterAll(() => node?.stop());

  it('matches topic filters', () => {
    expect(topicMatches('blocks', 'blocks')).toBe(true);
    expect(topicMatches('blocks', 'blocks/transaction')).toBe(false);
    expect(topicMatches('block-metadata/+', 'block-metadata/0x12')).toBe(true);
    expect(topicMatches('outputs/#', 'outputs/unlock/address/tst1x')).toBe(true);
    expect(topicMatches('+/latest', 'milestone-info/confirmed')).toBe(false);
  });

  it('connects, receives current state and live messages, and stops receiving after unsubscribing', async () => {
    const states: string[] = [];
    const client = new MqttClient(node.url.replace(/^http/, 'ws') + '/api/mqtt/v1', {
      WebSocket,
      keepAlive: 1,
      onState: (s: string) => states.push(s),
    });
    try {
      const latest: { index: number; milestoneId: string }[] = [];
      const blocks: string[] = [];
      client.subscribe('milestone-info/latest', (_: string, p: Uint8Array) =>
        latest.push(JSON.parse(Buffer.from(p).toString())),
      );
      const stop = client.subscribe('blocks', (_: string, p: Uint8Array) => blocks.push(summarizeBlock(p).blockId));
      const wait = async (what: string, test: () => boolean) => {
        const deadline = Date.now() + 30_000;
        while (!test()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await wait('the current milestone', () => latest.length > 0);
      expect(states).toEqual(['connecting', 'connected']);
      const info = await (await fetch(`${node.url}/api/core/v2/info`)).json();
      expect(latest[0].index).toBeLessThanOrEqual(info.status.latestMilestone.index);
      // A block submitted over REST arrives on `blocks` under the ID the node answered with.
      const blockId = await submitPayload(node.url, { type: 5, tag: '0x6461736862', data: '0x01' });
      await wait('the submitted block', () => blocks.includes(blockId));
      // Keep-alive of 1 s: PINGREQs keep the connection open across several seconds.
      const before = latest.length;
      await wait('two more milestones', () => latest.length >= before + 2);
      expect(states).toEqual(['connecting', 'connected']);
      stop();
      await new Promise((r) => setTimeout(r, 200));
      const after = blocks.length;
      await submitPayload(node.url, { type: 5, tag: '0x6461736862', data: '0x02' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(blocks.length).toBe(after);
    } finally {
      client.close();
    }
  });
});
