// Blocks per second over gossip, as Hornet's dashboard-metrics `/gossip` reports them:
// received, new among them, and sent, each counted over the last whole second. Sampled
// once a second from the gossip service's counters; all zero without gossip and before the
// first second has passed.

import type { GossipService } from '../../gossip/service';

export interface GossipRatesJson {
  incoming: number;
  new: number;
  outgoing: number;
}

const ZERO: GossipRatesJson = { incoming: 0, new: 0, outgoing: 0 };

export class GossipRates {
  private last: GossipRatesJson = ZERO;
  private timer: NodeJS.Timeout | undefined;

  /** Samples `gossip` every second until `stop` aborts; without gossip, stays at zero. */
  constructor(gossip: GossipService | undefined, stop: AbortSignal) {
    if (gossip === undefined || stop.aborted) return;
    let before = totals(gossip);
    this.timer = setInterval(() => {
      const now = totals(gossip);
      this.last = {
        incoming: now.incoming - before.incoming,
        new: now.new - before.new,
        outgoing: now.outgoing - before.outgoing,
      };
      before = now;
    }, 1000);
    // A timer for a metric never keeps the process alive.
    this.timer.unref();
    stop.addEventListener('abort', () => clearInterval(this.timer), { once: true });
  }

  /** The last second's counts. */
  current(): GossipRatesJson {
    return this.last;
  }
}

function totals(gossip: GossipService): GossipRatesJson {
  const m = gossip.metrics();
  return { incoming: m.receivedBlocks, new: m.newBlocks, outgoing: m.sentBlocks };
}
