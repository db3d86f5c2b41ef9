// The submit pipeline of POST /api/core/v2/blocks (api.md §2.5):
//   body (size-limited) → JSON shape (ajv) or binary header → D16 / parents / nonce rules
//   → tips when parents are missing → encode → when the nonce is missing and needed: the
//   store's precheck (every rule but PoW, parents known), then mining on the node's mining
//   pool → the store (off the event loop): every syntactic rule, parents known, atomic write.
// A block that could never be stored is refused before any mining. Mining has threads of
// its own and a bounded queue: a full queue is answered 503 with Retry-After at once, a
// client that disconnects cancels its job, and shutdown cancels every job.
// With the embedded coordinator disabled, milestone blocks of the trusted coordinator
// are accepted too; the store checks their signatures and merkle roots.
// Every rejection is an HttpError with the D6 body; nothing the client sends reaches
// native code before it has the right shape.

import type { Context } from 'koa';
import { encodeBlock } from '../../core/codec';
import { LedgerError } from '../../core/errors';
import { powScore } from '../../core/pow';
import { badRequest, HttpError, invalidData, unavailable } from '../lib/http-error';
import { parseJsonBody, readBody } from '../middleware/body';
import { requestBodyKind } from '../middleware/media';
import { checkBlockShape, describeShapeError } from '../schemas/block';
import type { ServerServices } from '../services';
import { selectTips } from './tips';

const MAX_JSON_DEPTH = 32;
/** Store errors that are the node's fault, not the block's: they stay 500s. */
const STORE_FAILURES = new Set(['storage-failure', 'store-closed']);
const MILESTONE_PAYLOAD = 7;

export class BlockSubmitter {
  constructor(private readonly services: ServerServices) {}

  /** Runs the whole pipeline; resolves to the block ID (stored now or before). */
  async submit(ctx: Context): Promise<string> {
    const kind = requestBodyKind(ctx);
    const body = await readBody(ctx, this.services.config.restApi.maxBodyBytes);
    const { bytes, nonceMissing } = kind === 'json' ? this.fromJson(body) : this.fromBinary(body);
    if (nonceMissing) await this.ensurePow(ctx, bytes);
    return this.store(bytes);
  }

  /** Milestones come only from this node's coordinator while it runs (D16). */
  private checkMilestone(): void {
    if (this.services.config.coordinator.enabled) throw milestoneRefused();
  }

  private fromJson(body: Buffer): { bytes: Buffer; nonceMissing: boolean } {
    const { value: block, text } = parseJsonBody(body, MAX_JSON_DEPTH);
    if (!checkBlockShape(block)) {
      const { path, detail } = describeShapeError(checkBlockShape.errors);
      throw badRequest(`${path}: ${detail}`);
    }
    const payload = block.payload as { type?: number } | null | undefined;
    if (payload?.type === MILESTONE_PAYLOAD) {
      this.checkMilestone();
      return { bytes: this.encode(text), nonceMissing: false };
    }
    const parents = block.parents as string[] | undefined;
    const parentsMissing = parents === undefined || parents.length === 0;
    const nonceMissing = isZeroNonce(block.nonce as string | undefined);
    if (parentsMissing && !nonceMissing) throw badRequest('nonce: no parents given but a nonce was set');
    let source: string | object = text;
    if (parentsMissing || nonceMissing) {
      source = { ...block, parents: parentsMissing ? selectTips(this.services.store) : parents, nonce: nonceMissing ? '0' : block.nonce };
    }
    return { bytes: this.encode(source), nonceMissing };
  }

  private encode(source: string | object): Buffer {
    try {
      return encodeBlock(source as string);
    } catch (err) {
      throw asBadRequest(err);
    }
  }

  private fromBinary(body: Buffer): { bytes: Buffer; nonceMissing: boolean } {
    if (body.length === 0) throw badRequest('body: empty');
    if (body[0] !== 2) throw badRequest('protocolVersion: must be 2');
    const header = readHeader(body);
    // A truncated or otherwise malformed block is left to the native validator, which
    // names the failing field.
    if (header === undefined) return { bytes: body, nonceMissing: false };
    if (header.payloadType === MILESTONE_PAYLOAD) {
      this.checkMilestone();
      return { bytes: body, nonceMissing: false };
    }
    if (header.parentsCount === 0) {
      if (!header.nonceZero) throw badRequest('nonce: no parents given but a nonce was set');
      const tips = selectTips(this.services.store);
      const parents = Buffer.from(tips.map((t) => t.slice(2)).join(''), 'hex');
      const bytes = Buffer.concat([Buffer.from([body[0], tips.length]), parents, body.subarray(2)]);
      return { bytes, nonceMissing: true };
    }
    return { bytes: body, nonceMissing: header.nonceZero };
  }

  /**
   * Keep nonce 0 if it already meets minPowScore; otherwise check every other rule, then
   * mine (pow.md §6) or answer 503.
   */
  private async ensurePow(ctx: Context, bytes: Buffer): Promise<void> {
    const { protocol, config } = this.services;
    const target = protocol.minPowScore;
    if (target === 0) return;
    let score: number;
    try {
      score = powScore(bytes);
    } catch (err) {
      throw asBadRequest(err);
    }
    if (score >= target) return;
    // Everything but the nonce is final now: a block the store would refuse is refused
    // before any mining, whatever the score.
    await this.storeCall(() => this.services.store.precheckBlock(bytes));
    if (!config.restApi.pow.enabled) throw unavailable('proof of work is not available on this node');
    await this.mine(ctx, bytes, target);
  }

  private async mine(ctx: Context, bytes: Buffer, target: number): Promise<void> {
    const { config, metrics, miner, shutdown } = this.services;
    const watch = watchJob(ctx, shutdown);
    const started = performance.now();
    let outcome = 'mined';
    try {
      await miner.mine(bytes, {
        targetScore: target,
        threads: config.restApi.pow.threads,
        timeoutMs: config.restApi.pow.timeout * 1000,
        signal: watch.signal,
      });
    } catch (err) {
      const failure = miningFailure(err, watch.clientGone(), () => this.retryAfterSeconds());
      outcome = failure.outcome;
      throw failure.error;
    } finally {
      watch.release();
      metrics.powJobs.inc({ outcome });
      if (outcome !== 'queue-full') metrics.powSeconds.observe((performance.now() - started) / 1000);
    }
  }

  /** When a slot is likely free: the jobs ahead of a new one, at the recent time per job. */
  private retryAfterSeconds(): number {
    const { jobs, queued, running, meanJobSeconds } = this.services.miner.status();
    const estimate = Math.ceil((meanJobSeconds * (queued + running)) / jobs);
    return Math.min(Math.max(estimate, 1), this.services.config.restApi.pow.timeout);
  }

  private async store(bytes: Buffer): Promise<string> {
    const { blockId, stored } = await this.storeCall(() => this.services.store.submitBlock(bytes));
    this.services.metrics.submitted.inc({ outcome: stored ? 'stored' : 'known' });
    return blockId;
  }

  /** A store call whose rejections of the block become 400s (or 503 before milestone 1). */
  private async storeCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof LedgerError && !STORE_FAILURES.has(err.code)) {
        if (err.code === 'not-ready') throw unavailable('node is not ready');
        throw invalidData(err);
      }
      throw err;
    }
  }
}

/** What a failed mining job becomes: its label in the metrics and the client's answer. */
function miningFailure(err: unknown, disconnected: boolean, retryAfter: () => number): { outcome: string; error: unknown } {
  switch (err instanceof LedgerError ? err.code : undefined) {
    case 'pow-timeout':
      return { outcome: 'timeout', error: unavailable('proof of work timed out') };
    case 'pow-queue-full':
      return { outcome: 'queue-full', error: unavailable('too many blocks are waiting for proof of work', { 'Retry-After': String(retryAfter()) }) };
    case 'pow-aborted':
    case 'pow-pool-closed':
      return disconnected ? { outcome: 'disconnected', error: unavailable('the client disconnected') } : { outcome: 'shutdown', error: unavailable('node is shutting down') };
    default:
      return { outcome: 'failed', error: asBadRequest(err) };
  }
}

interface JobWatch {
  /** Aborts when the node shuts down or the client goes away before its answer was sent. */
  signal: AbortSignal;
  clientGone(): boolean;
  /** Stop watching (the job is over). */
  release(): void;
}

function watchJob(ctx: Context, shutdown: AbortSignal): JobWatch {
  const controller = new AbortController();
  let gone = ctx.res.destroyed || ctx.req.socket.destroyed;
  const onClose = () => {
    if (ctx.res.writableFinished) return;
    gone = true;
    controller.abort();
  };
  const onShutdown = () => controller.abort();
  if (gone || shutdown.aborted) controller.abort();
  ctx.res.once('close', onClose);
  shutdown.addEventListener('abort', onShutdown, { once: true });
  return {
    signal: controller.signal,
    clientGone: () => gone,
    release: () => {
      ctx.res.off('close', onClose);
      shutdown.removeEventListener('abort', onShutdown);
    },
  };
}

function milestoneRefused(): HttpError {
  return badRequest('payload: milestone payloads are not accepted (D16)');
}

/** Validation/codec errors become 400 with `path: detail`; anything else stays a 500. */
function asBadRequest(err: unknown): unknown {
  return err instanceof LedgerError ? invalidData(err) : err;
}

/** Absent, "", "0", "0x0…" all mean "missing" (api.md §2.5). */
function isZeroNonce(nonce: string | undefined): boolean {
  if (nonce === undefined || nonce === '') return true;
  if (nonce.startsWith('0x') || nonce.startsWith('0X')) return /^0[xX]0+$/.test(nonce);
  return nonce === '0';
}

interface BinaryHeader {
  parentsCount: number;
  payloadType: number | undefined;
  nonceZero: boolean;
}

/** Parents count, payload type and whether the nonce is zero; undefined if too short. */
function readHeader(bytes: Buffer): BinaryHeader | undefined {
  const parentsCount = bytes[1];
  if (parentsCount === undefined) return undefined;
  const payloadAt = 2 + 32 * parentsCount;
  if (bytes.length < payloadAt + 4 + 8) return undefined;
  const payloadLength = bytes.readUInt32LE(payloadAt);
  const payloadType = payloadLength >= 4 && bytes.length >= payloadAt + 8 ? bytes.readUInt32LE(payloadAt + 4) : undefined;
  return { parentsCount, payloadType, nonceZero: bytes.readBigUInt64LE(bytes.length - 8) === 0n };
}
