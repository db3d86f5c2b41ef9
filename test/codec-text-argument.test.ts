// The JSON text of a block crosses into native code with one copy into a buffer kept per
// thread (crates/ledger-napi/src/js_text.rs): any JavaScript string reads as its UTF-8,
// a text far larger than a block does not break the next call, and a non-string argument
// is an argument error, never a crash.
import { describe, expect, it } from 'vitest';
import { blockId, encodeBlock, encodeBlockWithId } from '../src/index';
import { LedgerError } from '../src/core/errors';
import native from '../src/native';

const block = {
  protocolVersion: 2,
  parents: ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)],
  payload: { type: 5, tag: '0x74', data: '0x' + 'ab'.repeat(100) },
  nonce: '7',
};

describe('JSON text arguments', () => {
  it('encode the same bytes from an object and from its text, with its id', () => {
    const bytes = encodeBlock(block);
    expect(encodeBlock(JSON.stringify(block))).toEqual(bytes);
    expect(encodeBlockWithId(JSON.stringify(block))).toEqual({ bytes, id: blockId(bytes) });
  });

  it('read characters beyond ASCII as UTF-8 and refuse them where hex belongs', () => {
    for (const odd of ['0xé1', '0x€€', '0x\u{1F600}', '0x\uD800']) {
      expect(() => encodeBlock({ ...block, payload: { ...block.payload, tag: odd } })).toThrow(LedgerError);
    }
    const withSpace = JSON.stringify(block).replace('"nonce"', '\u00a0"nonce"');
    expect(() => encodeBlock(withSpace)).toThrow(LedgerError);
  });

  it('survive a text of megabytes and answer the next call as before', () => {
    const huge = { ...block, payload: { ...block.payload, data: '0x' + 'cd'.repeat(600_000) } };
    // Encoding does not apply the block size rule (validation does).
    expect(encodeBlock(huge).length).toBeGreaterThan(600_000);
    expect(encodeBlock(block)).toEqual(encodeBlock(JSON.stringify(block)));
  });

  it('give bytes and id of their own, also beyond the largest valid block', () => {
    // encodeBlockWithId writes into a buffer it keeps, sized for a block of 32,768 bytes.
    const first = encodeBlockWithId(block);
    const huge = { ...block, payload: { ...block.payload, data: '0x' + 'cd'.repeat(40_000) } };
    const big = encodeBlockWithId(huge);
    expect(big).toEqual({ bytes: encodeBlock(huge), id: blockId(encodeBlock(huge)) });
    expect(encodeBlockWithId(block)).toEqual(first);
    // What the caller got before is not overwritten by later calls.
    expect(first).toEqual({ bytes: encodeBlock(block), id: blockId(encodeBlock(block)) });
  });

  it('refuse what is not a string', () => {
    for (const value of [42, null, {}, Buffer.from('{}')]) {
      expect(() => native.encodeBlockJson(value as unknown as string)).toThrow(/string/i);
    }
  });
});
