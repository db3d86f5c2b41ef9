// Proof of work (pow.md): the score, and a miner that runs on native worker threads so
// the event loop stays free, cancellable by an AbortSignal or a timeout.

import native from '../native';
import { blockBytes } from './codec';
import { toBuffer } from './bytes';
import { fromNative, LedgerError } from './errors';
import type { BlockInput } from './types';

export function powScore(bytes: Uint8Array): number {
  return fromNative(() => native.powScore(toBuffer(bytes)));
}

/** Scores of many blocks, computed together: much cheaper per block than powScore. */
export function powScores(blocks: Uint8Array[]): number[] {
  return fromNative(() => native.powScoreMany(blocks.map((b) => toBuffer(b))));
}

export interface MineOptions {
  /** The minimum PoW score to reach (minPowScore). */
  targetScore: number;
  /** Worker threads; default all cores. */
  threads?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface MineResult {
  /** Decimal string, as the API's JSON carries it. */
  nonce: string;
  score: number;
}

/** Find a nonce so that the block (JSON or bytes; its nonce is ignored) reaches the score. */
export async function mine(block: BlockInput, options: MineOptions): Promise<MineResult> {
  const bytes = Buffer.from(blockBytes(block));
  const job = new native.MiningJob();
  const { signal, timeoutMs } = options;
  if (signal?.aborted) throw new LedgerError('pow-aborted', 'nonce', 'mining was aborted');
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
      : setTimeout(() => stop(new LedgerError('pow-timeout', 'nonce', `no nonce found within ${timeoutMs} ms`)), timeoutMs);
  try {
    const outcome = await fromNative(() => native.mineNonce(bytes, options.targetScore >>> 0, options.threads ?? 0, job));
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

/** Which miner engine this CPU runs (and every engine it could), and the default thread count. */
export function powInfo(): { engine: string; lanes: number; threads: number; engines: string[] } {
  return native.powInfo();
}

/** Measured hashes per second of `threads` workers over `millis` milliseconds, with the
 * miner's engine or another one of `powInfo().engines`. */
export async function powHashRate(threads: number, millis = 1000, engine?: string): Promise<number> {
  return fromNative(() => native.powHashRate(threads, millis, engine));
}
