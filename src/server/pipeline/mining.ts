// Mining the nonce of a submitted block (pow.md §6, D27, docs/mining.md) on the node's
// mining pool: threads of its own and a bounded queue. A full queue is answered 503 with
// Retry-After at once; the job is cancelled when its client disconnects or the node shuts
// down, and gives up after restApi.pow.timeout counted from submission.

import type { Context } from 'koa';
import { LedgerError } from '../../core/errors';
import { unavailable } from '../../http/error';
import type { ServerServices } from '../services';

/** Mine `bytes` (its nonce is written into the last 8 bytes) to the score `target`, or throw the HTTP answer. */
export async function mineNonce(ctx: Context, services: ServerServices, bytes: Buffer, target: number): Promise<void> {
  const { config, metrics, miner, shutdown } = services;
  const watch = watchJob(ctx, shutdown);
  const started = performance.now();
  let outcome = 'mined';
  try {
    await miner.mine(bytes, {
      targetScore: target,
      threads: config.restApi.pow.threads,
      timeoutMs: config.restApi.pow.timeout * 1000,
      signal: watch.signal,
      client: ctx.ip,
    });
  } catch (err) {
    const failure = miningFailure(err, watch.clientGone(), () => retryAfterSeconds(services));
    outcome = failure.outcome;
    throw failure.error;
  } finally {
    watch.release();
    metrics.powJobs.inc({ outcome });
    if (outcome !== 'queue-full') metrics.powSeconds.observe((performance.now() - started) / 1000);
  }
}

/** When a slot is likely free: the jobs ahead of a new one at the recent time per job, 1 s..timeout. */
function retryAfterSeconds({ miner, config }: ServerServices): number {
  const { jobs, queued, running, meanJobSeconds } = miner.status();
  const estimate = Math.ceil((meanJobSeconds * (queued + running)) / jobs);
  return Math.min(Math.max(estimate, 1), config.restApi.pow.timeout);
}

/** What a failed job becomes: its label in the metrics and the client's answer. */
function miningFailure(
  err: unknown,
  disconnected: boolean,
  retryAfter: () => number,
): { outcome: string; error: unknown } {
  switch (err instanceof LedgerError ? err.code : undefined) {
    case 'pow-timeout':
      return { outcome: 'timeout', error: unavailable('proof of work timed out') };
    case 'pow-queue-full':
      return {
        outcome: 'queue-full',
        error: unavailable('too many blocks are waiting for proof of work', { 'Retry-After': String(retryAfter()) }),
      };
    case 'pow-aborted':
    case 'pow-pool-closed':
      return disconnected
        ? { outcome: 'disconnected', error: unavailable('the client disconnected') }
        : { outcome: 'shutdown', error: unavailable('node is shutting down') };
    default:
      // Anything else is the node's failure, not the block's: a 500.
      return { outcome: 'failed', error: err };
  }
}

interface JobWatch {
  /** Aborts when the node shuts down or the client goes away before its answer was sent. */
  signal: AbortSignal;
  clientGone(): boolean;
  /** Stop watching (the job is over). */
  release(): void;
}

/**
 * The jobs in flight, per shutdown signal: one listener on the signal aborts them all (a
 * listener per job would put as many on the signal as the mining queue holds).
 */
const jobsOf = new WeakMap<AbortSignal, Set<AbortController>>();

function jobsWatching(shutdown: AbortSignal): Set<AbortController> {
  let jobs = jobsOf.get(shutdown);
  if (jobs === undefined) {
    const created = new Set<AbortController>();
    shutdown.addEventListener('abort', () => {
      for (const job of created) job.abort();
    });
    jobsOf.set(shutdown, created);
    jobs = created;
  }
  return jobs;
}

function watchJob(ctx: Context, shutdown: AbortSignal): JobWatch {
  const controller = new AbortController();
  let gone = ctx.res.destroyed || ctx.req.socket.destroyed;
  // The response closes unfinished only when the connection went away before the answer.
  const onClose = () => {
    if (ctx.res.writableFinished) return;
    gone = true;
    controller.abort();
  };
  if (gone || shutdown.aborted) controller.abort();
  ctx.res.once('close', onClose);
  const jobs = jobsWatching(shutdown);
  jobs.add(controller);
  return {
    signal: controller.signal,
    clientGone: () => gone,
    release: () => {
      ctx.res.off('close', onClose);
      jobs.delete(controller);
    },
  };
}
