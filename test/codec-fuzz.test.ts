import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockId, decodeBlock, encodeBlock, LedgerError, validateBlock } from '../src/index';
import { bytesOf, records } from './vectors';

const seeds = records('valid.jsonl')
  .filter((r) => r.kind === 'block')
  .map((r) => bytesOf(r.bytes));

/** Decoding arbitrary bytes either succeeds or throws a LedgerError with a code. */
function decodesOrRejects(bytes: Uint8Array) {
  try {
    const json = decodeBlock(bytes);
    // Whatever decodes must re-encode to the same bytes (the codec is canonical).
    expect(encodeBlock(json).equals(Buffer.from(bytes))).toBe(true);
    try {
      validateBlock(bytes);
    } catch (e) {
      expect(e).toBeInstanceOf(LedgerError);
    }
  } catch (e) {
    expect(e).toBeInstanceOf(LedgerError);
    expect((e as LedgerError).code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  }
}

describe('decoder robustness', () => {
  it('random bytes never crash the decoder', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), decodesOrRejects), { numRuns: 3000 });
  });

  it('mutated valid blocks never crash the decoder', () => {
    const mutation = fc.record({
      seed: fc.nat(seeds.length - 1),
      flips: fc.array(fc.tuple(fc.nat(), fc.nat(7)), { maxLength: 4 }),
      cut: fc.option(fc.nat()),
      insert: fc.option(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 }))),
    });
    fc.assert(
      fc.property(mutation, ({ seed, flips, cut, insert }) => {
        let bytes = Buffer.from(seeds[seed]);
        for (const [at, bit] of flips) bytes[at % bytes.length] ^= 1 << bit;
        if (insert) {
          const at = insert[0] % bytes.length;
          bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(insert[1]), bytes.subarray(at)]);
        }
        if (cut !== null) bytes = bytes.subarray(0, cut % bytes.length);
        decodesOrRejects(bytes);
      }),
      { numRuns: 5000 },
    );
  });

  it('random valid tagged-data blocks round-trip', () => {
    const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => '0x' + Buffer.from(b).toString('hex'));
    const block = fc.record({
      parents: fc.uniqueArray(hex(32), { minLength: 2, maxLength: 8 }).map((p) => p.sort()),
      tag: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => '0x' + Buffer.from(b).toString('hex')),
      data: fc.uint8Array({ minLength: 1, maxLength: 2000 }).map((b) => '0x' + Buffer.from(b).toString('hex')),
      nonce: fc.bigUintN(64).map(String),
    });
    fc.assert(
      fc.property(block, ({ parents, tag, data, nonce }) => {
        const json = { protocolVersion: 2, parents, payload: { type: 5, tag, data }, nonce };
        const bytes = encodeBlock(json);
        expect(decodeBlock(bytes)).toEqual(json);
        expect(blockId(bytes)).toBe(blockId(json));
      }),
      { numRuns: 500 },
    );
  });
});
