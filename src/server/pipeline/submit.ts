// The submit pipeline of POST /api/core/v2/blocks (api.md §2.5):
//   body (size-limited) → JSON shape (ajv) or binary header → D16 / parents / nonce rules
//   → tips when parents are missing → encode → when the nonce is missing and needed: the
//   store's precheck (every rule but PoW, parents known), then mining on the node's mining
//   pool → the store (off the event loop): every syntactic rule, parents known, atomic write.
// A block that could never be stored is refused before any mining (docs/mining.md).
// With the embedded coordinator disabled, milestone blocks of the trusted coordinator
// are accepted too; the store checks their signatures and merkle roots.
// Every rejection is an HttpError with the D6 body; nothing the client sends reaches
// native code before it has the right shape.

import type { Context } from 'koa';
import { encodeBlock } from '../../core/codec';
import type { ErrorCode } from '../../core/error-codes';
import { LedgerError } from '../../core/errors';
import { powScore } from '../../core/pow';
import { badRequest, type HttpError, invalidData, unavailable } from '../../http/error';
import { parseJsonBody, readBody } from '../middleware/body';
import { requestBodyKind } from '../middleware/media';
import { checkBlockShape, describeShapeError } from '../schemas/block';
import type { ServerServices } from '../services';
import { mineNonce } from './mining';
import { selectTips } from './tips';

const MAX_JSON_DEPTH = 32;
/** Store errors that are the node's fault, not the block's: they stay 500s. */
const STORE_FAILURES = new Set<ErrorCode>(['storage-failure', 'store-closed']);
const MILESTONE_PAYLOAD = 7;
/** How long a client is asked to wait when the disk is full: an operator has to act. */
const FULL_RETRY_AFTER_SECONDS = '60';
/** Whether this thread has told the operator of the full disk since its last good write. */
let storageFullLogged = false;

export class BlockSubmitter {
  constructor(private readonly services: ServerServices) {}

  /** Runs the whole pipeline; resolves to the block ID (stored now or before). */
  async submit(ctx: Context): Promise<string> {
    const kind = requestBodyKind(ctx);
    const body = await readBody(ctx, this.services.config.restApi.maxBodyBytes);
    const { bytes, nonceMissing } = this.prepare(kind, body);
    if (nonceMissing) await this.ensurePow(ctx, bytes);
    return this.store(bytes);
  }

  /**
   * The block's bytes from the body, its parents filled in when missing; whether its nonce
   * is missing. Throws the 400 of a body that is not a block.
   */
  prepare(kind: 'json' | 'binary', body: Buffer): { bytes: Buffer; nonceMissing: boolean } {
    return kind === 'json' ? this.fromJson(body) : this.fromBinary(body);
  }

  /** Whether a block whose nonce is missing needs mining: nonce 0 misses minPowScore. */
  needsMining(bytes: Buffer): boolean {
    const target = this.services.protocol.minPowScore;
    return target > 0 && powScore(bytes) < target;
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
      source = {
        ...block,
        parents: parentsMissing ? selectTips(this.services) : parents,
        nonce: nonceMissing ? '0' : block.nonce,
      };
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
      const tips = selectTips(this.services);
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
    let mining: boolean;
    try {
      mining = this.needsMining(bytes);
    } catch (err) {
      throw asBadRequest(err);
    }
    if (!mining) return;
    // Everything but the nonce is final now: a block the store would refuse is refused
    // before any mining, whatever the score.
    await this.storeCall(() => this.services.store.precheckBlock(bytes));
    if (!this.services.config.restApi.pow.enabled) throw unavailable('proof of work is not available on this node');
    await mineNonce(ctx, this.services, bytes, this.services.protocol.minPowScore);
  }

  /** Into the store (every rule, parents known, one atomic write); the block ID. */
  async store(bytes: Buffer): Promise<string> {
    const started = performance.now();
    const { blockId, stored } = await this.storeCall(() => this.services.store.submitBlock(bytes));
    storageFullLogged = false;
    this.services.metrics.intakeSeconds.observe((performance.now() - started) / 1000);
    this.services.metrics.submitted.inc({ outcome: stored ? 'stored' : 'known' });
    return blockId;
  }

  /** A store call whose rejections of the block become 400s (or 503 before milestone 1). */
  private async storeCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof LedgerError && err.code === 'storage-full') throw this.storageFull();
      if (err instanceof LedgerError && !STORE_FAILURES.has(err.code)) {
        if (err.code === 'not-ready') throw unavailable('node is not ready');
        throw invalidData(err);
      }
      throw err;
    }
  }

  /** The 503 of a full disk; the first of an episode also tells the operator where. */
  private storageFull(): HttpError {
    if (!storageFullLogged) {
      storageFullLogged = true;
      this.services.logger.error(
        { dataDir: this.services.config.dataDir },
        `storage full: no space left on the file system of ${this.services.config.dataDir}; blocks are refused with 503 until space is freed`,
      );
    }
    return unavailable("the node's storage is full", { 'Retry-After': FULL_RETRY_AFTER_SECONDS });
  }
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
  const payloadType =
    payloadLength >= 4 && bytes.length >= payloadAt + 8 ? bytes.readUInt32LE(payloadAt + 4) : undefined;
  return { parentsCount, payloadType, nonceZero: bytes.readBigUInt64LE(bytes.length - 8) === 0n };
}
