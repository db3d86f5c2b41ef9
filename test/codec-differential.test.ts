// Differential test against the reference client library (@iota/sdk-wasm 1.1.3, a
// devDependency only): random blocks must give equal bytes and ids in both.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockId, encodeBlock, transactionId } from '../src/index';
import { records } from './vectors';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Utils } = require('@iota/sdk-wasm/node');

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => '0x' + Buffer.from(b).toString('hex'));
const parents = fc.uniqueArray(hex(32), { minLength: 2, maxLength: 8 }).map((p) => p.sort());
const nonce = fc.bigUintN(64).map(String);

describe('ledger-node and @iota/sdk-wasm agree', () => {
  it('on random tagged-data and empty blocks', () => {
    const payload = fc.option(
      fc.record({
        type: fc.constant(5),
        tag: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => '0x' + Buffer.from(b).toString('hex')),
        data: fc.uint8Array({ minLength: 1, maxLength: 4000 }).map((b) => '0x' + Buffer.from(b).toString('hex')),
      }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(parents, payload, nonce, (p, pl, n) => {
        const block = pl ? { protocolVersion: 2, parents: p, payload: pl, nonce: n } : { protocolVersion: 2, parents: p, nonce: n };
        expect(encodeBlock(block).toString('hex')).toBe(Buffer.from(Utils.blockBytes(block)).toString('hex'));
        expect(blockId(block)).toBe(Utils.blockId(block));
      }),
      { numRuns: 300 },
    );
  });

  it('on transaction blocks with random parents, nonce and amounts', () => {
    const txBlocks = records('valid.jsonl').filter((r) => r.kind === 'block' && r.json.payload?.type === 6);
    const amount = fc.bigInt({ min: 1_000_000n, max: 1_000_000_000_000n }).map(String);
    fc.assert(
      fc.property(fc.nat(txBlocks.length - 1), parents, nonce, amount, (i, p, n, a) => {
        const block = structuredClone(txBlocks[i].json);
        block.parents = p;
        block.nonce = n;
        block.payload.essence.outputs[0].amount = a;
        expect(encodeBlock(block).toString('hex')).toBe(Buffer.from(Utils.blockBytes(block)).toString('hex'));
        expect(blockId(block)).toBe(Utils.blockId(block));
        expect(transactionId(block)).toBe(Utils.transactionId(block.payload));
      }),
      { numRuns: 200 },
    );
  });
});
