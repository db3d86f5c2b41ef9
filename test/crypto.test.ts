import { describe, expect, it } from 'vitest';
import { LedgerError, ed25519Address, publicKey, sign, verify, verifyBatch } from '../src/index';

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

  it('the coordinator key signs milestone 1 as in Example A', () => {
    // BLAKE2b-256("ledger-devnet-coordinator"), wire-format §9.
    const seed = Buffer.from('1e9179432fb10b21c1d9381b18401ca963ef37ad69e8c246bc667c0682cacb0f', 'hex');
    const pk = publicKey(seed);
    expect(pk).toBe('0xfc3033a22726d4e0f213eb9820b998c824274e929d8a015968d294e02c531882');
    const milestoneId = '0x26e97b04f2c7df179c5818c4e172c7f3e6424aa86c0b547d2962812430d8fec2';
    const sig = sign(seed, milestoneId);
    expect(sig).toBe(
      '0xcd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de93ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a',
    );
    expect(verifyBatch([{ publicKey: pk, message: milestoneId, signature: sig }])).toBe(true);
  });

  it('never throws on a key that is not a curve point; wrong lengths are invalid arguments', () => {
    const notAKey = '0x' + 'ff'.repeat(32);
    expect(verify(notAKey, '0x00', '0x' + '00'.repeat(64))).toBe(false);
    expect(
      verifyBatch([1, 2, 3].map(() => ({ publicKey: notAKey, message: '0x00', signature: '0x' + '00'.repeat(64) }))),
    ).toBe(false);
    expect(verifyBatch([])).toBe(true);
    for (const call of [() => publicKey('0x0102'), () => sign('0x01', '0x00'), () => verify('0x01', '0x00', '0x00')]) {
      try {
        call();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(LedgerError);
        expect((e as LedgerError).code).toBe('invalid-argument');
      }
    }
  });
});
