// The live figures of the overview, gathered from the event API (events.md §3): every
// stored block (`blocks`), every block a milestone references (`block-metadata/referenced`)
// and the milestones (`milestone-info/latest`, `…/confirmed`).
//
// Confirmation latency is measured here, as this page sees it: from a block's `blocks`
// message to its `block-metadata/referenced` message. Blocks stored before the page opened
// have no arrival time and are not counted.

import { summarizeBlock } from './block.js';

const decoder = new TextDecoder();
const SECONDS_KEPT = 60;
const MILESTONES_KEPT = 30;
const RECENT_KEPT = 12;
const ARRIVALS_KEPT = 200_000;

export class LiveFeed {
  /** @param onChange called (at most every 250 ms) after the figures changed */
  constructor(mqtt, onChange) {
    this.onChange = onChange;
    this.latest = null;
    this.confirmed = null;
    this.recentBlocks = [];
    this.recentTransactions = [];
    /** One entry per second, oldest first: { at (ms), blocks, referenced }. */
    this.seconds = [];
    /** One entry per milestone, oldest first: { index, interval (s), latencyAvg, latencyMax (ms), referenced }. */
    this.milestones = [];
    this.counts = { blocks: 0, referenced: 0 };
    this.arrivals = new Map();
    this.latency = new Map(); // milestone index → { sum, max, count }
    this.referencedBy = new Map(); // milestone index → referenced blocks seen
    this.changeTimer = null;

    mqtt.subscribe('blocks', (_, payload) => this.onBlock(payload));
    mqtt.subscribe('block-metadata/referenced', (_, payload) => this.onReferenced(JSON.parse(decoder.decode(payload))));
    mqtt.subscribe('milestone-info/latest', (_, payload) => this.onLatest(JSON.parse(decoder.decode(payload))));
    mqtt.subscribe('milestone-info/confirmed', (_, payload) => this.onConfirmed(JSON.parse(decoder.decode(payload))));
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  onBlock(bytes) {
    const block = summarizeBlock(bytes);
    block.seenAt = Date.now();
    this.counts.blocks++;
    if (this.arrivals.size >= ARRIVALS_KEPT) this.arrivals.delete(this.arrivals.keys().next().value);
    this.arrivals.set(block.blockId, performance.now());
    this.recentBlocks.unshift(block);
    this.recentBlocks.length = Math.min(this.recentBlocks.length, RECENT_KEPT);
    if (block.transactionId) {
      this.recentTransactions.unshift({ ...block, state: 'pending' });
      this.recentTransactions.length = Math.min(this.recentTransactions.length, RECENT_KEPT);
    }
    this.changed();
  }

  onReferenced(metadata) {
    this.counts.referenced++;
    const index = metadata.referencedByMilestoneIndex;
    this.referencedBy.set(index, (this.referencedBy.get(index) ?? 0) + 1);
    const arrived = this.arrivals.get(metadata.blockId);
    if (arrived !== undefined) {
      this.arrivals.delete(metadata.blockId);
      const ms = performance.now() - arrived;
      const l = this.latency.get(index) ?? { sum: 0, max: 0, count: 0 };
      l.sum += ms;
      l.max = Math.max(l.max, ms);
      l.count++;
      this.latency.set(index, l);
    }
    const tx = this.recentTransactions.find((t) => t.blockId === metadata.blockId);
    if (tx) tx.state = metadata.ledgerInclusionState ?? 'referenced';
    this.changed();
  }

  onLatest(info) {
    if (this.latest !== null && info.index <= this.latest.index) return;
    this.latest = info;
    this.changed();
  }

  /** `milestone-info/confirmed` for n comes after every other event of milestone n (events.md §5). */
  onConfirmed(info) {
    const previous = this.confirmed;
    if (previous !== null && info.index <= previous.index) return;
    this.confirmed = info;
    if (previous !== null) {
      const l = this.latency.get(info.index);
      this.milestones.push({
        index: info.index,
        interval: info.index === previous.index + 1 ? info.timestamp - previous.timestamp : null,
        latencyAvg: l ? l.sum / l.count : null,
        latencyMax: l ? l.max : null,
        referenced: this.referencedBy.get(info.index) ?? 0,
      });
      if (this.milestones.length > MILESTONES_KEPT) this.milestones.shift();
    }
    for (const index of this.latency.keys()) if (index <= info.index) this.latency.delete(index);
    for (const index of this.referencedBy.keys()) if (index <= info.index) this.referencedBy.delete(index);
    this.changed();
  }

  tick() {
    this.seconds.push({ at: Date.now(), ...this.counts });
    if (this.seconds.length > SECONDS_KEPT) this.seconds.shift();
    this.counts = { blocks: 0, referenced: 0 };
    this.changed();
  }

  changed() {
    if (this.changeTimer !== null) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = null;
      this.onChange();
    }, 250);
  }
}
