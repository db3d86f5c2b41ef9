// The embedded coordinator's clock (D12, D22): milestone 1 is issued before the node accepts
// submissions, then one milestone every `interval` seconds, preceded by checkpoint blocks when
// more tips wait than one milestone can approve. Checkpoints and the milestone itself
// (parents, white flag, signatures, atomic commit) are built by the store; this loop only
// paces them.

import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { IssuedMilestone, LedgerStoreApi } from './store-contract';

export class Coordinator {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: LedgerStoreApi,
    private readonly intervalSeconds: number,
    private readonly logger: Logger,
    /** Told of every milestone issued (metrics). */
    private readonly onIssued: (issued: IssuedMilestone) => void = () => {},
  ) {}

  /** Issue milestone 1 if the ledger has none (D12), then start the interval loop. */
  async start(): Promise<void> {
    if (!this.store.isReady()) {
      const first = await this.store.issueMilestone();
      this.logger.info({ index: first.index, milestoneId: first.milestoneId }, 'bootstrap milestone issued');
    }
    this.schedule();
  }

  /**
   * The next tick `interval` after the start of the previous one, not after its end: a
   * milestone that took 300 ms under load must not stretch every interval by as much (and
   * the milestones' timestamps with it). One that took longer than the interval is followed
   * at once.
   */
  private schedule(previousStart = performance.now()): void {
    if (this.stopped) return;
    const wait = Math.max(0, previousStart + this.intervalSeconds * 1000 - performance.now());
    this.timer = setTimeout(() => {
      const start = performance.now();
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule(start);
      });
    }, wait);
  }

  private async tick(): Promise<void> {
    // A checkpoint that fails (it cannot, short of a store error) must not cost the
    // milestone: the tips it would have approved wait for the next one.
    const checkpoints = await this.store.issueCheckpoints().catch((err: unknown) => {
      this.logger.warn({ err }, 'issuing checkpoints failed');
      return 0;
    });
    try {
      const issued = await this.store.issueMilestone();
      this.onIssued(issued);
      this.logger.debug(
        {
          index: issued.index,
          referenced: issued.referencedBlocks,
          included: issued.includedTransactions,
          checkpoints,
        },
        'milestone issued',
      );
    } catch (err) {
      this.logger.error({ err }, 'issuing a milestone failed');
    }
  }

  /** Stop the loop and wait for a milestone being issued right now. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }
}
