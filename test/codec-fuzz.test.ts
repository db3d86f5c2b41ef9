import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockId,
  decodeBlock,
  decodeOutput,
  decodePayload,
  encodeBlock,
  LedgerError,
  validateBlock,
} from '../src/index';
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

/** Whatever a call does with bad input, it returns or throws a LedgerError with a code. */
function returnsOrLedgerError(call: () => unknown) {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(LedgerError);
    expect((e as LedgerError).code).toMatch(/^[a-z0-9]+(-[a-zA-Z0-9]+)*$/);
  }
}

const jsonSeeds = records('valid.jsonl')
  .filter((r) => r.kind === 'block')
  .map((r) => r.json);

/** Every [container, key] of a JSON value, so one leaf or subtree can be replaced. */
function slots(v: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (Array.isArray(v)) for (const [i, x] of v.entries()) out.push([v, i]), slots(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push([v as Record<string, unknown>, k]), slots(x, out);
  return out;
}

describe('decoder robustness', () => {
  it('payload and output decoders return or throw LedgerError on random and mutated bytes', () => {
    const payloads = seeds.map((b) => b.subarray(70, b.length - 8));
    fc.assert(
      fc.property(
        fc.nat(payloads.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 4 }),
        fc.nat(),
        (i, edits, cut) => {
          const bytes = Buffer.from(payloads[i]);
          for (const [at, value] of edits) bytes[at % bytes.length] = value;
          returnsOrLedgerError(() => decodePayload(bytes.subarray(0, bytes.length - (cut % 4))));
          returnsOrLedgerError(() => decodeOutput(bytes.subarray(cut % bytes.length)));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('mutated block JSON is encoded or rejected with a LedgerError, never anything else', () => {
    const replacement = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constantFrom(null, true, '0x', '0X00', '', '-1', '0xzz', '18446744073709551616', 2 ** 53, -1, [], {}),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.hexaString({ maxLength: 80 }).map((h) => '0x' + h),
    );
    fc.assert(
      fc.property(
        fc.nat(jsonSeeds.length - 1),
        fc.array(fc.tuple(fc.nat(), replacement), { minLength: 1, maxLength: 3 }),
        (i, edits) => {
          const json = structuredClone(jsonSeeds[i]);
          for (const [at, value] of edits) {
            const all = slots(json);
            const [container, key] = all[at % all.length];
            (container as Record<string | number, unknown>)[key] = value;
          }
          returnsOrLedgerError(() => {
            const bytes = encodeBlock(json);
            // What encodes must decode: the JSON reader never produces unencodable blocks.
            decodeBlock(bytes);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

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
    const hex = (n: number) =>
      fc.uint8Array({ minLength: n, maxLength: n }).map((b) => '0x' + Buffer.from(b).toString('hex'));
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
