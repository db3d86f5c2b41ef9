import { describe, expect, it } from 'vitest';
import { bech32Decode, bech32Encode, decodeBlock, encodeBlock, LedgerError, merkleRoot, outputId } from '../src/index';

describe('merkle root and bech32', () => {
  it('reproduces the roots of milestone 2 (ledger.md §7.4)', () => {
    const order = [
      '0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19',
      '0x344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56',
      '0x04d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8',
    ];
    expect(merkleRoot(order)).toBe('0x8db96a1982d2ea4049100176b9cff70bb72ae9c050cb8ff5a3ac43a224a4b6b7');
    expect(merkleRoot(order.slice(2))).toBe('0x8351e69a1eb3d3d2a3acf2c22f695f5bdef2028fe1be120e383c6b79bb71ad47');
  });

  it('encodes and decodes the dev genesis address', () => {
    const address = { type: 0, pubKeyHash: '0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d' };
    const text = 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc';
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
