// Proof of work (pow.md): the score, and a miner that runs on the native threads of a
// mining pool (mining-pool.ts) so the event loop stays free, cancellable by an AbortSignal
// or a timeout.

import native from '../native';
import { blockBytes } from './codec';
import { toBuffer } from './bytes';
import { fromNative } from './errors';
import { type MiningPool, sharedMiningPool, type MineOptions as PoolMineOptions, type MineResult } from './mining-pool';
import type { BlockInput } from './types';

export function powScore(bytes: Uint8Array): number {
  return fromNative(() => native.powScore(toBuffer(bytes)));
}

/** Scores of many blocks, computed together: much cheaper per block than powScore. */
export function powScores(blocks: Uint8Array[]): number[] {
  return fromNative(() => native.powScoreMany(blocks.map((b) => toBuffer(b))));
}

export type { MineResult } from './mining-pool';

export interface MineOptions extends PoolMineOptions {
  /** The pool to mine on; default a pool shared by the library's callers. */
  pool?: MiningPool;
}

/** Find a nonce so that the block (JSON or bytes; its nonce is ignored) reaches the score. */
export async function mine(block: BlockInput, options: MineOptions): Promise<MineResult> {
  const bytes = Buffer.from(blockBytes(block));
  return (options.pool ?? sharedMiningPool()).mine(bytes, options);
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
