// The mining pool (src/core/mining-pool.ts over crates/ledger-core/src/pow/pool.rs):
// threads of its own, a fixed number of jobs at a time, a bounded queue, cancellation of
// waiting and running jobs, and close.

import { pbkdf2 } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeBlock, LedgerError, MiningPool, powScore } from '../src/index';

const block = (label: string) =>
  encodeBlock({
    protocolVersion: 2,
    parents: ['0x' + '00'.repeat(32), '0x' + '11'.repeat(32)],
    payload: { type: 5, tag: '0x706f6f6c', data: '0x' + Buffer.from(label).toString('hex') },
  });
/** No nonce reaches this score: such a job runs until it is cancelled. */
const NEVER = 4_294_967_295;

async function until(pool: MiningPool, done: (s: ReturnType<MiningPool['status']>) => boolean) {
  const deadline = Date.now() + 10_000;
  while (!done(pool.status())) {
    if (Date.now() > deadline) throw new Error(`pool never reached the state: ${JSON.stringify(pool.status())}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('mining pool', () => {
  const pools: MiningPool[] = [];
  const open = (jobs: number, queueSize: number) => {
    const pool = new MiningPool({ jobs, queueSize });
    pools.push(pool);
    return pool;
  };
  afterEach(() => {
    for (const p of pools.splice(0)) p.close();
  });

  it('mines nonces that reach the target, writing them into the block', async () => {
    const pool = open(2, 8);
    const blocks = ['a', 'b', 'c', 'd'].map(block);
    const results = await Promise.all(blocks.map((b) => pool.mine(b, { targetScore: 100, threads: 1 })));
    results.forEach((r, i) => {
      expect(BigInt(r.nonce)).toBe(blocks[i].readBigUInt64LE(blocks[i].length - 8));
      expect(powScore(blocks[i])).toBe(r.score);
      expect(r.score).toBeGreaterThanOrEqual(100);
    });
    expect(pool.status()).toMatchObject({ mined: 4, queued: 0, running: 0 });
  });

  it('refuses a job at once when every slot and the queue are taken', async () => {
    const pool = open(1, 1);
    const stop = new AbortController();
    const running = pool
      .mine(block('running'), { targetScore: NEVER, threads: 1, signal: stop.signal })
      .catch((e) => e);
    const waiting = pool
      .mine(block('waiting'), { targetScore: NEVER, threads: 1, signal: stop.signal })
      .catch((e) => e);
    await until(pool, (s) => s.running === 1 && s.queued === 1);
    const refused = await pool.mine(block('refused'), { targetScore: NEVER, threads: 1 }).catch((e) => e);
    expect(refused).toBeInstanceOf(LedgerError);
    expect(refused.code).toBe('pow-queue-full');
    expect(pool.status().refused).toBe(1);
    stop.abort();
    expect((await running).code).toBe('pow-aborted');
    expect((await waiting).code).toBe('pow-aborted');
  });

  it('takes a cancelled job out of the queue at once, and stops a running one', async () => {
    const pool = open(1, 4);
    const first = new AbortController();
    const second = new AbortController();
    const running = pool.mine(block('first'), { targetScore: NEVER, threads: 1, signal: first.signal }).catch((e) => e);
    const waiting = pool
      .mine(block('second'), { targetScore: NEVER, threads: 1, signal: second.signal })
      .catch((e) => e);
    await until(pool, (s) => s.running === 1 && s.queued === 1);
    second.abort();
    expect((await waiting).code).toBe('pow-aborted');
    expect(pool.status()).toMatchObject({ running: 1, queued: 0, cancelled: 1 });
    first.abort();
    expect((await running).code).toBe('pow-aborted');
    await until(pool, (s) => s.running === 0 && s.cancelled === 2);
  });

  it('counts the timeout from submission, waiting included', async () => {
    const pool = open(1, 4);
    const stop = new AbortController();
    const running = pool.mine(block('busy'), { targetScore: NEVER, threads: 1, signal: stop.signal }).catch((e) => e);
    // A target past the quick lane's (pool.rs), so that the job waits behind the busy one.
    const timedOut = await pool.mine(block('late'), { targetScore: 1000, threads: 1, timeoutMs: 50 }).catch((e) => e);
    expect(timedOut.code).toBe('pow-timeout');
    expect(pool.status().mined).toBe(0);
    stop.abort();
    await running;
  });

  it('leaves libuv threads to other work: a threadpool task finishes while more jobs than libuv threads mine', async () => {
    const pool = open(6, 0);
    const stop = new AbortController();
    let settled = 0;
    const jobs = Array.from({ length: 6 }, (_, i) =>
      pool
        .mine(block(`busy ${i}`), { targetScore: NEVER, threads: 1, signal: stop.signal })
        .catch((e) => e)
        .finally(() => settled++),
    );
    await until(pool, (s) => s.running === 6);
    // pbkdf2 runs on libuv's thread pool (4 threads by default), like the store's tasks.
    await new Promise<void>((resolve, reject) =>
      pbkdf2('secret', 'salt', 1, 32, 'sha256', (err) => (err ? reject(err) : resolve())),
    );
    expect(settled).toBe(0);
    expect(pool.status().running).toBe(6);
    stop.abort();
    await Promise.all(jobs);
  });

  it('close cancels every job and refuses new ones', async () => {
    const pool = open(1, 4);
    const jobs = ['x', 'y', 'z'].map((l) => pool.mine(block(l), { targetScore: NEVER, threads: 1 }).catch((e) => e));
    await until(pool, (s) => s.running === 1 && s.queued === 2);
    pool.close();
    for (const err of await Promise.all(jobs)) expect(err.code).toBe('pow-aborted');
    expect(pool.status()).toMatchObject({ running: 0, queued: 0, cancelled: 3 });
    const late = await pool.mine(block('late'), { targetScore: 1 }).catch((e) => e);
    expect(late.code).toBe('pow-pool-closed');
  });
});
