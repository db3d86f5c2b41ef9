// The faucet (docs/faucet.md; request and answer shapes as inx-faucet's): requests wait in
// a queue; once per milestone the faucet pays up to `maxOutputs` of them in one
// transaction, which it submits through the node's own submit pipeline like any client,
// and sends the next batch only after the milestone that confirms the previous one (its
// remainder is the next batch's input). A conflicting batch goes back to the front of the
// queue; one the node asks to reattach is submitted again, unchanged.

import { TokenBuckets } from '../http/token-buckets';
import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import { networkId } from '../core/ids';
import type { AddressJson, ProtocolJson } from '../core/types';
import type { LedgerStoreApi } from '../store-contract';
import type { FaucetKey } from './key';
import { faucetFunds, type FaucetFunds } from './outputs';
import { FaucetRefusal, parseRecipient } from './requests';
import { buildFaucetTransaction, InsufficientFunds, type FaucetTransaction } from './transaction';

/** How often the faucet looks for a new milestone. */
const TICK_MS = 100;

export type FaucetSettings = NodeConfig['faucet'];
export type BlockSubmit = (block: object) => Promise<string>;

export interface FaucetOptions {
  store: LedgerStoreApi;
  protocol: ProtocolJson;
  key: FaucetKey;
  settings: FaucetSettings;
  tokenName: string;
  logger: Logger;
}

interface Request {
  bech32: string;
  address: AddressJson;
  amount: bigint;
}

interface Pending {
  transaction: FaucetTransaction;
  blockId: string;
  requests: Request[];
}

export interface FaucetInfo {
  isHealthy: boolean;
  address: string;
  balance: bigint;
  tokenName: string;
  bech32Hrp: string;
}

/** What the faucet's routes need of it: the faucet itself, or a worker thread's stand-in (remote.ts). */
export interface FaucetService {
  enqueue(value: unknown): Promise<{ address: string; waitingRequests: number }>;
  info(): Promise<FaucetInfo>;
  /** The per-client rate limit of `enqueue`: 0 to admit `ip`, else seconds to wait. */
  admit(ip: string): Promise<number>;
}

export class Faucet implements FaucetService {
  private readonly queue: Request[] = [];
  /** Addresses with a request that is waiting or in the pending transaction. */
  private readonly open = new Set<string>();
  /** When each address's last request was accepted (ms), for the cool-down. */
  private readonly accepted = new Map<string, number>();
  private pending: Pending | undefined;
  private funds: Promise<FaucetFunds> | undefined;
  private fundsIndex = -1;
  private lastIndex = -1;
  private work: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private submit: BlockSubmit | undefined;
  private readonly amount: bigint;
  private readonly networkId: string;

  /** One rate limit per client for the whole node, whichever HTTP event loop serves it. */
  private readonly buckets: TokenBuckets;

  constructor(private readonly options: FaucetOptions) {
    this.buckets = new TokenBuckets(options.settings.rateLimit);
    this.amount = BigInt(options.settings.amount);
    this.networkId = networkId(options.protocol.networkName);
  }

  get address(): string {
    return this.options.key.bech32;
  }

  /** Start paying out, submitting through `submit` (the node's POST /api/core/v2/blocks). */
  start(submit: BlockSubmit): void {
    this.submit = submit;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.work;
  }

  /** Accept a request for `value` (the body's `address`) or throw a FaucetRefusal. */
  async enqueue(value: unknown): Promise<{ address: string; waitingRequests: number }> {
    const { protocol, store, settings } = this.options;
    const recipient = parseRecipient(value, protocol.bech32Hrp);
    if (recipient.bech32 === this.address) throw new FaucetRefusal(400, "address: that is the faucet's own address");
    if (!store.isReady()) throw new FaucetRefusal(503, 'the node is not ready, try again later');
    const funds = await this.currentFunds();
    // Everything below is synchronous: no other request can slip in between check and queue.
    this.confirmIfIncluded();
    if (this.open.has(recipient.bech32))
      throw new FaucetRefusal(
        429,
        `${recipient.bech32} already has a request waiting`,
        this.retryAfter(recipient.bech32),
      );
    const wait = this.retryAfter(recipient.bech32);
    if (wait > 0)
      throw new FaucetRefusal(
        429,
        `${recipient.bech32} was funded less than ${settings.cooldown} s ago; ask again in ${wait} s`,
        wait,
      );
    if (this.queue.length >= settings.maxQueueSize)
      throw new FaucetRefusal(503, 'the faucet queue is full, try again later');
    if (funds.balance - this.committed() < this.amount)
      throw new FaucetRefusal(503, 'the faucet does not have enough funds');
    this.queue.push({ ...recipient, amount: this.amount });
    this.open.add(recipient.bech32);
    this.accepted.set(recipient.bech32, Date.now());
    return { address: recipient.bech32, waitingRequests: this.queue.length };
  }

  async admit(ip: string): Promise<number> {
    return this.buckets.take(ip);
  }

  async info(): Promise<FaucetInfo> {
    const { store, protocol, tokenName } = this.options;
    const answer = { isHealthy: false, address: this.address, balance: 0n, tokenName, bech32Hrp: protocol.bech32Hrp };
    // Before the first milestone (a follower) there is no ledger to read yet.
    if (!store.isReady()) return answer;
    const balance = (await this.currentFunds()).balance - this.committed();
    return { ...answer, isHealthy: this.submit !== undefined, balance: balance > 0n ? balance : 0n };
  }

  /** Seconds until `bech32` may ask again (0: now). */
  private retryAfter(bech32: string): number {
    const at = this.accepted.get(bech32);
    if (at === undefined) return 0;
    const left = at + this.options.settings.cooldown * 1000 - Date.now();
    if (left <= 0) {
      this.accepted.delete(bech32);
      return 0;
    }
    return Math.ceil(left / 1000);
  }

  /** Promised but not yet paid out in a confirmed transaction. */
  private committed(): bigint {
    this.confirmIfIncluded();
    const requests = this.pending === undefined ? this.queue : [...this.queue, ...this.pending.requests];
    return requests.reduce((s, r) => s + r.amount, 0n);
  }

  /**
   * Done with the pending transaction as soon as a milestone included it (also between
   * the faucet's own milestone steps, so that the answers never lag the ledger).
   */
  private confirmIfIncluded(): boolean {
    const pending = this.pending;
    if (pending === undefined) return true;
    const { transactionId } = pending.transaction;
    if (this.options.store.getIncludedBlockId(transactionId) === null) return false;
    for (const r of pending.requests) this.open.delete(r.bech32);
    this.pending = undefined;
    this.options.logger.info({ transactionId, recipients: pending.requests.length }, 'faucet: payout confirmed');
    return true;
  }

  /** The faucet's outputs at the current ledger index, read once per milestone. */
  private currentFunds(): Promise<FaucetFunds> {
    const index = this.options.store.status().ledgerIndex;
    if (this.funds === undefined || index !== this.fundsIndex) {
      this.fundsIndex = index;
      this.funds = faucetFunds(this.options.store, this.address);
      this.funds.catch(() => (this.funds = undefined));
    }
    return this.funds;
  }

  private tick(): void {
    if (this.work !== undefined) return;
    const index = this.options.store.status().ledgerIndex;
    if (index === this.lastIndex) return;
    this.lastIndex = index;
    this.work = this.onMilestone()
      .catch((err) => this.options.logger.warn({ err }, 'faucet: milestone step failed'))
      .finally(() => (this.work = undefined));
  }

  private async onMilestone(): Promise<void> {
    if (this.pending !== undefined && !this.confirmIfIncluded() && !(await this.settle(this.pending))) return;
    this.pruneCooldowns();
    if (this.queue.length > 0) await this.sendBatch();
  }

  /** A pending transaction not included yet: true when it went back to the queue (conflicting). */
  private async settle(pending: Pending): Promise<boolean> {
    const { store, logger } = this.options;
    const { transactionId } = pending.transaction;
    const text = store.getBlockMetadata(pending.blockId);
    const metadata =
      text === null
        ? undefined
        : (JSON.parse(text) as { ledgerInclusionState?: string; conflictReason?: number; shouldReattach?: boolean });
    if (metadata?.ledgerInclusionState === 'conflicting') {
      // Someone else spent the faucet's outputs first (the dev key is public): try again.
      this.queue.unshift(...pending.requests);
      this.pending = undefined;
      logger.warn(
        { transactionId, conflictReason: metadata.conflictReason },
        'faucet: payout conflicted, requests queued again',
      );
      return true;
    }
    if (metadata === undefined || metadata.shouldReattach === true) {
      pending.blockId = await this.submitPayload(pending.transaction);
      logger.info({ transactionId, blockId: pending.blockId }, 'faucet: payout reattached');
    }
    return false;
  }

  private async sendBatch(): Promise<void> {
    const { settings, key, protocol, logger } = this.options;
    let requests = this.queue.slice(0, settings.maxOutputs);
    const funds = await this.currentFunds();
    let transaction: FaucetTransaction | undefined;
    // Fewer recipients when the funds (or 128 inputs of them) do not cover the whole batch.
    while (transaction === undefined) {
      try {
        transaction = buildFaucetTransaction(this.networkId, key, funds.outputs, requests, protocol.rentStructure);
      } catch (err) {
        if (!(err instanceof InsufficientFunds)) throw err;
        if (requests.length > 1) {
          requests = requests.slice(0, Math.ceil(requests.length / 2));
          continue;
        }
        // Accepted while the funds were there, but they are gone (spent by another holder
        // of the key): the waiting requests cannot be paid.
        const dropped = this.queue.splice(0, this.queue.length);
        for (const r of dropped) this.open.delete(r.bech32);
        logger.error({ recipients: dropped.length, reason: err.message }, 'faucet: requests dropped, not enough funds');
        return;
      }
    }
    const blockId = await this.submitPayload(transaction);
    this.queue.splice(0, requests.length);
    this.pending = { transaction, blockId, requests };
    logger.info(
      {
        transactionId: transaction.transactionId,
        blockId,
        recipients: requests.length,
        remainder: transaction.remainder.toString(),
      },
      'faucet: payout submitted',
    );
  }

  private submitPayload(transaction: FaucetTransaction): Promise<string> {
    if (this.submit === undefined) throw new Error('the faucet has not been started');
    return this.submit({ protocolVersion: 2, payload: transaction.payload });
  }

  private pruneCooldowns(): void {
    for (const bech32 of this.accepted.keys()) this.retryAfter(bech32);
  }
}
