import { describe, expect, it } from 'vitest';
import { ed25519Address, publicKey, sign, verify, verifyBatch } from '../src/index';

const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
const ESSENCE_HASH = '0x9fd9e0464f6c8f401508a65af3b273913a32459c402c3e5bedc37b10b4002ff2';

describe('Ed25519', () => {
  it('signs Example C as the spec shows', () => {
    const pk = publicKey(GENESIS_SEED);
    expect(pk).toBe('0xb39a6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e1');
    expect(ed25519Address(pk)).toBe('0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d');
    const sig = sign(GENESIS_SEED, ESSENCE_HASH);
    expect(sig).toBe(
      '0x8cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09',
    );
    expect(verify(pk, ESSENCE_HASH, sig)).toBe(true);
    expect(verify(pk, ESSENCE_HASH.replace('9f', '9e'), sig)).toBe(false);
  });

  it('batch verification fails if one signature is bad', () => {
    const items = [1, 2, 3, 4].map((i) => {
      const seed = '0x' + i.toString(16).padStart(2, '0').repeat(32);
      return { publicKey: publicKey(seed), message: '0x0102', signature: sign(seed, '0x0102') };
    });
    expect(verifyBatch(items)).toBe(true);
    items[2].message = '0x0103';
    expect(verifyBatch(items)).toBe(false);
  });
});
