import { describe, expect, it } from 'vitest';
import { encodeBlock, LedgerError, mine, powScore, powScores, validateBlock } from '../src/index';

const EXAMPLE_B =
  '02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000';
const EXAMPLE_C_BLOCK_ID = '0x04d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8';
const withNonce = (hex: string, nonce: bigint) => {
  const b = Buffer.from(hex, 'hex');
  b.writeBigUInt64LE(nonce, b.length - 8);
  return b;
};

describe('PoW score (pow.md §5)', () => {
  it('agrees with the project vectors', () => {
    expect(powScore(Buffer.from(EXAMPLE_B, 'hex'))).toBeCloseTo(1703.3365384615386, 9);
    expect(powScore(withNonce(EXAMPLE_B, 0n))).toBeCloseTo(3 / 104, 9);
    expect(powScore(withNonce(EXAMPLE_B, 39060n))).toBeCloseTo(1 / 104, 9);
    expect(EXAMPLE_C_BLOCK_ID).toMatch(/^0x/);
  });

  it('batched scores equal single scores', () => {
    const blocks = Array.from({ length: 300 }, (_, i) => withNonce(EXAMPLE_B, BigInt(39000 + i)));
    expect(powScores(blocks)).toEqual(blocks.map((b) => powScore(b)));
  });

  it('validateBlock enforces minPowScore last', () => {
    validateBlock(Buffer.from(EXAMPLE_B, 'hex'));
    expect(() => validateBlock(withNonce(EXAMPLE_B, 39060n))).toThrowError(LedgerError);
    try {
      validateBlock(withNonce(EXAMPLE_B, 39060n));
    } catch (e) {
      expect((e as LedgerError).code).toBe('pow-score-too-low');
    }
  });
});

describe('miner', () => {
  const block = {
    protocolVersion: 2,
    parents: ['0x' + '00'.repeat(32), '0x' + '11'.repeat(32)],
    payload: { type: 5, tag: '0x6d696e65', data: '0x' + 'ab'.repeat(200) },
  };

  it('mined nonces reach the target according to the scorer', async () => {
    for (const targetScore of [1, 100, 1500]) {
      const { nonce, score } = await mine(block, { targetScore, threads: 2 });
      const bytes = encodeBlock({ ...block, nonce });
      expect(powScore(bytes)).toBe(score);
      expect(score).toBeGreaterThanOrEqual(targetScore);
    }
  });

  it('keeps the event loop free and stops on abort', async () => {
    const controller = new AbortController();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const err = await mine(block, { targetScore: 4_000_000_000, signal: controller.signal }).catch((e) => e);
    clearInterval(ticker);
    expect(err).toBeInstanceOf(LedgerError);
    expect(err.code).toBe('pow-aborted');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ticks).toBeGreaterThan(10);
  });

  it('gives up after the timeout', async () => {
    const err = await mine(block, { targetScore: 4_000_000_000, timeoutMs: 100 }).catch((e) => e);
    expect(err.code).toBe('pow-timeout');
  });
});
