// Ed25519 through the binding: the keys and signatures of the spec's worked examples
// (wire-format.md §9, read from vectors/worked-examples.json), batches, and bad arguments.
import { describe, expect, it } from 'vitest';
import { LedgerError, ed25519Address, publicKey, sign, verify, verifyBatch } from '../src/index';
import { WORKED } from './vectors';

const { genesis, coordinator } = WORKED.keys;

describe('Ed25519', () => {
  it('signs Example C as the spec shows', () => {
    const essenceHash = WORKED.C.extra.essenceHash;
    const [unlock] = WORKED.C.json.payload.unlocks;
    if (unlock.type !== 0) throw new Error('Example C is unlocked by a signature');
    const pk = publicKey(genesis.seed);
    expect(pk).toBe(genesis.publicKey);
    expect(ed25519Address(pk)).toBe(genesis.address);
    const sig = sign(genesis.seed, essenceHash);
    expect(sig).toBe(unlock.signature.signature);
    expect(verify(pk, essenceHash, sig)).toBe(true);
    expect(verify(pk, essenceHash.replace('9f', '9e'), sig)).toBe(false);
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
    // BLAKE2b-256("ledger-devnet-coordinator"), wire-format §9; as bytes, not hex text.
    const seed = Buffer.from(coordinator.seed.slice(2), 'hex');
    const pk = publicKey(seed);
    expect(pk).toBe(coordinator.publicKey);
    const milestoneId = WORKED.A.extra.milestoneId;
    const sig = sign(seed, milestoneId);
    expect(sig).toBe(WORKED.A.json.payload.signatures[0].signature);
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
