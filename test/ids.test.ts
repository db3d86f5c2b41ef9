// Ids through the binding: the merkle roots of milestone 2 and the dev genesis address in
// bech32 (from the spec's worked examples, vectors/worked-examples.json), and how errors
// cross from the binding.
import { describe, expect, it } from 'vitest';
import { bech32Decode, bech32Encode, decodeBlock, encodeBlock, LedgerError, merkleRoot, outputId } from '../src/index';
import { WORKED } from './vectors';

describe('merkle root and bech32', () => {
  it('reproduces the roots of milestone 2 (ledger.md §7.4)', () => {
    const { whiteFlagOrder: order, inclusionMerkleRoot, appliedMerkleRoot } = WORKED.D.extra;
    expect(order).toEqual([WORKED.A.id, WORKED.B.id, WORKED.C.id]);
    expect(merkleRoot(order)).toBe(inclusionMerkleRoot);
    expect(merkleRoot(order.slice(2))).toBe(appliedMerkleRoot);
  });

  it('encodes and decodes the dev genesis address', () => {
    const address = { type: 0, pubKeyHash: WORKED.keys.genesis.address };
    const text = WORKED.keys.genesis.bech32;
    expect(bech32Encode('tst', address)).toBe(text);
    expect(bech32Decode(text)).toEqual({ hrp: 'tst', address });
    expect(() => bech32Decode(text.replace('qq', 'qp'))).toThrowError(LedgerError);
    // Hex forms: 32 bytes (Ed25519) or 33 bytes with the kind byte first.
    expect(bech32Encode('tst', address.pubKeyHash)).toBe(text);
    expect(bech32Encode('tst', `0x00${address.pubKeyHash.slice(2)}`)).toBe(text);
    const alias = bech32Encode('tst', { type: 8, aliasId: address.pubKeyHash });
    expect(bech32Decode(alias).address).toEqual({ type: 8, aliasId: address.pubKeyHash });
    expect(() => bech32Encode('tst', '0x1234')).toThrowError(LedgerError);
    expect(() => bech32Encode('TST', address)).toThrowError(LedgerError);
  });
});

describe('errors crossing from the binding', () => {
  const codeOf = (call: () => unknown) => {
    try {
      call();
    } catch (e) {
      expect(e).toBeInstanceOf(LedgerError);
      const { code, path, detail } = e as LedgerError;
      return { code, path, detail: detail.length > 0 };
    }
    throw new Error('did not throw');
  };

  it('carry reason, path and detail', () => {
    expect(codeOf(() => decodeBlock(Buffer.from([2, 1])))).toEqual({
      code: 'length-prefix-too-large',
      path: 'parents',
      detail: true,
    });
    expect(codeOf(() => encodeBlock({ protocolVersion: 2, parents: ['0X00'] }))).toEqual({
      code: 'uppercase-0X-prefix',
      path: 'parents[0]',
      detail: true,
    });
    expect(codeOf(() => encodeBlock('{"protocolVersion":'))).toEqual({ code: 'invalid-json', path: '', detail: true });
    expect(codeOf(() => outputId('0x00', 0))).toEqual({
      code: 'invalid-argument',
      path: 'transactionId',
      detail: true,
    });
  });

  it('turn wrong JavaScript argument types into invalid-argument', () => {
    // Deliberately wrong types, as untyped JavaScript callers could pass them.
    expect(codeOf(() => encodeBlock(5 as unknown as string))).toEqual({ code: 'invalid-type', path: '', detail: true });
    expect(codeOf(() => outputId(7 as unknown as string, 0))).toEqual({
      code: 'invalid-argument',
      path: '',
      detail: true,
    });
  });
});
