// Proof of work through the binding (pow.md): scores of Examples B and C (read from
// vectors/worked-examples.json), batched scores, the engines, and the miner.
import { describe, expect, it } from 'vitest';
import { encodeBlock, LedgerError, mine, powHashRate, powInfo, powScore, powScores, validateBlock } from '../src/index';
import { WORKED } from './vectors';

// wire-format §9.2 and §9.3, as hex without 0x.
const EXAMPLE_B = WORKED.B.bytes.slice(2);
const EXAMPLE_C_HEX = WORKED.C.bytes.slice(2);
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
  });

  it('scores the transaction vector (Example C, 13 zeros) and many blocks like one by one', () => {
    const c = Buffer.from(EXAMPLE_C_HEX, 'hex');
    expect(powScore(c)).toBeCloseTo(1594323 / 358, 9);
    const blocks = Array.from({ length: 100 }, (_, i) => withNonce(EXAMPLE_C_HEX, 1387574n + BigInt(i)));
    expect(powScores(blocks)).toEqual(blocks.map((b) => powScore(b)));
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

describe('engines', () => {
  it("lists the engines this CPU runs, the miner's among them", () => {
    const info = powInfo();
    expect(info.engines).toContain(info.engine);
    expect(info.engines).toContain('portable-128');
  });

  it('measures any listed engine and refuses an unknown one', async () => {
    for (const engine of powInfo().engines) expect(await hashRate(engine)).toBeGreaterThan(0);
    await expect(powHashRate(1, 50, 'abacus-1')).rejects.toThrow(/abacus-1/);
  });
});

/**
 * One worker's hash rate on `engine`, over a window long enough that the worker hashed at
 * all: on a loaded machine a thread may not get a core within 50 ms (rate 0), so a window
 * that saw no hash is measured again, four times as long, up to 3.2 s.
 */
async function hashRate(engine: string): Promise<number> {
  for (let millis = 50; ; millis *= 4) {
    const rate = await powHashRate(1, millis, engine);
    if (rate > 0 || millis >= 3_200) return rate;
  }
}

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
    // No nonce reaches the score: the job ends only when aborted, and it is aborted from the
    // event loop after 20 turns of a timer. Had mining held the loop, neither would come.
    const controller = new AbortController();
    let ticks = 0;
    let abortedAt = 0;
    const ticker = setInterval(() => {
      if (++ticks !== 20) return;
      abortedAt = Date.now();
      controller.abort();
    }, 5);
    const err = await mine(block, { targetScore: 4_000_000_000, signal: controller.signal }).catch((e) => e);
    clearInterval(ticker);
    expect(err).toBeInstanceOf(LedgerError);
    expect(err.code).toBe('pow-aborted');
    expect(ticks).toBeGreaterThanOrEqual(20);
    // Its workers stop within a batch; the bound only catches one that ignores the abort.
    expect(Date.now() - abortedAt).toBeLessThan(10_000);
  });

  it('gives up after the timeout', async () => {
    const err = await mine(block, { targetScore: 4_000_000_000, timeoutMs: 100 }).catch((e) => e);
    expect(err.code).toBe('pow-timeout');
  });
});
