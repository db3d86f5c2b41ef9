import { describe, expect, it } from 'vitest';
import { encodeBlock, LedgerError, mine, powHashRate, powInfo, powScore, powScores, validateBlock } from '../src/index';

const EXAMPLE_B =
  '02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000';
const EXAMPLE_C_HEX =
  '0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f' +
  '5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e925392135759' +
  '3702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a3989' +
  '3f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a' +
  '6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171' +
  'd703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000';
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
    for (const engine of powInfo().engines) expect(await powHashRate(1, 50, engine)).toBeGreaterThan(0);
    await expect(powHashRate(1, 50, 'abacus-1')).rejects.toThrow(/abacus-1/);
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
