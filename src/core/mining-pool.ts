// A pool of native mining threads (crates/ledger-core/src/pow/pool.rs), apart from libuv's
// thread pool that serves the store's tasks: a fixed number of jobs at a time, a bounded
// queue that refuses at once when full, and cancellation at any moment — by an AbortSignal
// or a timeout — whether the job still waits or already runs (pow.md §6, D27). Cheap jobs
// have a lane of their own, and each client a share of the queue (pool.rs).

import native from '../native';
import { fromNativeAsync, LedgerError } from './errors';

type NativePool = InstanceType<typeof native.MiningPool>;

export interface MiningPoolOptions {
  /** Jobs mined at the same time. */
  jobs: number;
  /** Jobs that may wait for a free slot; one more is refused with `pow-queue-full`. */
  queueSize: number;
}

export interface MiningPoolStatus {
  jobs: number;
  queueSize: number;
  queued: number;
  running: number;
  /** Jobs mined, cancelled and refused since the pool started. */
  mined: number;
  cancelled: number;
  refused: number;
  /** Moving average of the time a mined job took (0 before the first). */
  meanJobSeconds: number;
}

export interface MineOptions {
  /** The minimum PoW score to reach (minPowScore). */
  targetScore: number;
  /** Worker threads of this job; default all cores. */
  threads?: number;
  signal?: AbortSignal;
  /** Counted from submission: waiting in the queue uses it up too. */
  timeoutMs?: number;
  /** Who asked (an HTTP client's address): each client has a share of the queue. */
  client?: string;
}

export interface MineResult {
  /** Decimal string, as the API's JSON carries it. */
  nonce: string;
  score: number;
}

/** The largest queue the native pool takes: "unbounded" for the library's own pool. */
const UNBOUNDED = 0xffff_ffff;

export class MiningPool {
  private readonly inner: NativePool;

  /** `shareAs`: a key under which the threads of this process share one pool (the HTTP workers). */
  constructor(options: MiningPoolOptions, shareAs?: string) {
    const sizes = { jobs: Math.max(1, options.jobs), queueSize: options.queueSize };
    this.inner = shareAs === undefined ? new native.MiningPool(sizes) : native.MiningPool.shared(shareAs, sizes);
  }

  /** The native pool, for Rust services that mine on it too (the INX server's SubmitBlock). */
  get native(): NativePool {
    return this.inner;
  }

  /**
   * The node's pool for jobs of `threads` workers each (0 = all cores): as many jobs at
   * once as fit the cores without sharing them. Mining is CPU-bound, so more jobs than
   * that would only take turns on the same cores, and every job would finish later.
   */
  static forThreads(threads: number, queueSize: number, shareAs?: string): MiningPool {
    const cores = native.powInfo().threads;
    const perJob = threads === 0 ? cores : threads;
    return new MiningPool({ jobs: Math.max(1, Math.floor(cores / perJob)), queueSize }, shareAs);
  }

  /**
   * Mine a nonce for the serialized block so that its score reaches the target; the nonce
   * is written into the last 8 bytes of `bytes`. Rejects with a LedgerError:
   * `pow-queue-full` at once when the queue is full, `pow-timeout`, `pow-aborted`,
   * `pow-pool-closed`.
   */
  async mine(bytes: Buffer, options: MineOptions): Promise<MineResult> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) throw new LedgerError('pow-aborted', 'nonce', 'mining was aborted');
    const job = new native.MiningJob();
    let reason: LedgerError | undefined;
    const stop = (why: LedgerError) => {
      reason ??= why;
      job.cancel();
    };
    const onAbort = () => stop(new LedgerError('pow-aborted', 'nonce', 'mining was aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => stop(new LedgerError('pow-timeout', 'nonce', `no nonce found within ${timeoutMs} ms`)),
            timeoutMs,
          );
    try {
      const outcome = await fromNativeAsync(() =>
        this.inner.mine(bytes, options.targetScore >>> 0, options.threads ?? 0, job, options.client),
      );
      if (outcome.nonce === undefined || outcome.nonce === null) {
        throw reason ?? new LedgerError('pow-aborted', 'nonce', 'mining was cancelled');
      }
      bytes.writeBigUInt64LE(BigInt(outcome.nonce), bytes.length - 8);
      return { nonce: outcome.nonce, score: native.powScore(bytes) };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    }
  }

  status(): MiningPoolStatus {
    return this.inner.status();
  }

  /** Refuse new jobs, cancel every waiting and running one; returns when the threads stopped. */
  close(): void {
    this.inner.close();
  }
}

let shared: MiningPool | undefined;

/**
 * The pool of the library's `mine()`: one job per core at a time, no queue limit (callers
 * of the library bound their own work; the node has its own bounded pool).
 */
export function sharedMiningPool(): MiningPool {
  return (shared ??= new MiningPool({ jobs: native.powInfo().threads, queueSize: UNBOUNDED }));
}
