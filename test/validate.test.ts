import { describe, expect, it } from 'vitest';
import { type BasicOutputJson, LedgerError, storageDeposit, validateBlock } from '../src/index';
import { protocolOf, records } from './vectors';

const RENT_100 = { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 };
const RENT_500 = { vByteCost: 500, vByteFactorData: 1, vByteFactorKey: 10 };

function errorOf(run: () => unknown): LedgerError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(LedgerError);
    return e as LedgerError;
  }
  throw new Error('expected a LedgerError');
}

describe('storageDeposit (validation.md §6)', () => {
  it.each(records('outputs.jsonl').map((r) => [r.name, r]))('%s under both rent structures', (_name, r) => {
    expect(storageDeposit(r.json, RENT_100)).toBe(r.extra.storageDeposit.rent100);
    expect(storageDeposit(r.json, RENT_500)).toBe(r.extra.storageDeposit.rent500);
    expect(storageDeposit(JSON.stringify(r.json), RENT_100)).toBe(r.extra.storageDeposit.rent100);
  });

  it('the smallest Basic output: 42600 at the dev rent, 106500 at the IOTA rent', () => {
    const smallest: BasicOutputJson = {
      type: 3,
      amount: '1000000',
      unlockConditions: [
        {
          type: 0,
          address: { type: 0, pubKeyHash: '0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b' },
        },
      ],
    };
    expect(storageDeposit(smallest, RENT_100)).toBe('42600');
    expect(storageDeposit(smallest, { vByteCost: 250, vByteFactorData: 1, vByteFactorKey: 10 })).toBe('106500');
    // The largest factors stay exact (u64 arithmetic, no floating point).
    expect(storageDeposit(smallest, { vByteCost: 4294967295, vByteFactorData: 255, vByteFactorKey: 255 })).toBe(
      (4294967295n * (255n * 34n + 255n * 40n + 255n * 46n)).toString(),
    );
  });

  it('rejects a malformed output or rent structure with a reason and a path', () => {
    expect(errorOf(() => storageDeposit({ type: 3, amount: 'x' }, RENT_100)).code).toBe('amount-not-decimal');
    const bad = errorOf(() => storageDeposit(records('outputs.jsonl')[0].json, { vByteCost: -1 } as never));
    expect(bad.code).toBe('invalid-argument');
    expect(bad.path).toBe('rent.vByteCost');
  });
});

describe('validateBlock protocol parameters', () => {
  const tagged = {
    protocolVersion: 2,
    parents: [`0x${'00'.repeat(32)}`, `0x${'00'.repeat(31)}01`],
    payload: { type: 5, tag: '0x01' },
    nonce: '0',
  };

  it('takes the network name and token supply of the given protocol', () => {
    const tx = records('valid.jsonl').find((r) => r.name === 'block/transaction/network-shimmer');
    expect(() => validateBlock(tx.json, protocolOf('shimmer'))).not.toThrow();
    expect(errorOf(() => validateBlock(tx.json, protocolOf('testnet'))).code).toBe('network-id-mismatch');
    const small = { ...protocolOf('shimmer'), tokenSupply: '1000' };
    expect(errorOf(() => validateBlock(tx.json, small)).code).toBe('output-amount-exceeds-supply');
  });

  it('a malformed protocol object is an invalid argument', () => {
    const { tokenSupply: _, ...noSupply } = protocolOf('shimmer');
    const e = errorOf(() => validateBlock(tagged, noSupply as never));
    expect(e.code).toBe('invalid-argument');
    expect(e.path).toBe('protocol.tokenSupply');
  });

  it('an unsolved block misses the dev minimum PoW score', () => {
    expect(errorOf(() => validateBlock(tagged)).code).toBe('pow-score-too-low');
    expect(() => validateBlock(tagged, protocolOf('ledger-devnet-v2'))).not.toThrow();
  });
});
