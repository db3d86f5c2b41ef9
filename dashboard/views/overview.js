// The overview: node status from REST (polled), live figures from the event API (LiveFeed),
// four charts and the latest blocks, transactions and tips. The database-size chart and the
// pruning index come from REST alone, so they show with the event API off too.

import { getJson } from '../lib/api.js';
import { LineChart } from '../lib/chart.js';
import { fill, h } from '../lib/dom.js';
import { PAYLOAD_NAMES } from '../lib/block.js';
import { formatBytes, formatDuration, shortId } from '../lib/format.js';

const $ = (id) => document.getElementById(id);
// Milestones arrive as events; REST status is polled less often then (each poll is a log line).
const STATUS_EVERY_MS = { live: 5000, polling: 2000 };
const SIZES_EVERY_MS = 10_000;
// An hour of database sizes at one sample every 10 s.
const SIZES_KEPT = 360;
const MIB = 2 ** 20;

export class Overview {
  /** @param node { info, routes, feed (LiveFeed or null) } */
  constructor(node) {
    this.node = node;
    this.visible = true;
    this.milestones = { latest: null, confirmed: null };
    this.infoMetrics = null;
    /** Database sizes, oldest first: { at (ms), tangle, utxo (bytes) }. */
    this.sizes = [];
    this.bpsChart = new LineChart(
      $('chart-bps'),
      [
        { label: 'new', color: '#2f89b3' },
        { label: 'referenced', color: '#35b58a' },
      ],
      { xLabel: (at) => new Date(at).toLocaleTimeString() },
    );
    this.intervalChart = new LineChart(
      $('chart-interval'),
      [{ label: 'seconds between milestones', color: '#d39b2a' }],
      { unit: ' s', xLabel: (i) => `#${i}` },
    );
    this.latencyChart = new LineChart(
      $('chart-latency'),
      [
        { label: 'average', color: '#8e5bd6' },
        { label: 'slowest', color: '#d0607b' },
      ],
      { unit: ' ms', xLabel: (i) => `#${i}` },
    );
    this.diskChart = new LineChart(
      $('chart-disk'),
      [
        { label: 'block graph', color: '#2f89b3' },
        { label: 'ledger', color: '#35b58a' },
        { label: 'total', color: '#8a96a3' },
      ],
      { unit: ' MiB', xLabel: (at) => new Date(at).toLocaleTimeString() },
    );
    if (!node.feed) {
      const notice = $('live-notice');
      notice.hidden = false;
      notice.textContent =
        'The event API is off on this node (/api/routes does not list mqtt/v1): figures come from polling the REST API, and the live lists and charts stay empty.';
    }
    this.pollStatus();
    this.pollSizes();
    setInterval(() => this.pollStatus(), node.feed ? STATUS_EVERY_MS.live : STATUS_EVERY_MS.polling);
    setInterval(() => this.pollSizes(), SIZES_EVERY_MS);
  }

  show() {
    this.visible = true;
    this.render();
  }

  hide() {
    this.visible = false;
  }

  async pollStatus() {
    try {
      const [info, tips, extended] = await Promise.all([
        getJson('/api/core/v2/info'),
        getJson('/api/core/v2/tips').catch(() => ({ tips: [] })),
        this.node.routes.has('dashboard-metrics/v1') ? getJson('/api/dashboard-metrics/v1/info') : null,
      ]);
      this.node.info = info;
      this.noteMilestone('latest', info.status.latestMilestone);
      this.noteMilestone('confirmed', info.status.confirmedMilestone);
      this.infoMetrics = info.metrics;
      this.renderPruning(info.status);
      const healthy = info.status.isHealthy;
      fill($('health'), h('span', { class: healthy ? 'good' : 'bad' }, healthy ? 'healthy' : 'not healthy'));
      $('health-detail').textContent = healthy ? 'milestones are recent' : 'no recent milestone';
      $('version').textContent = `${info.name} ${info.version}`;
      $('network').textContent =
        `${info.protocol.networkName} · bech32 HRP ${info.protocol.bech32Hrp} · min PoW score ${info.protocol.minPowScore}`;
      if (extended) {
        $('uptime').textContent = formatDuration(extended.uptime);
        $('memory').textContent = formatBytes(extended.memUsage);
      }
      this.tips = tips.tips;
      if (this.visible) this.render();
    } catch (err) {
      fill($('health'), h('span', { class: 'bad' }, 'unreachable'));
      $('health-detail').textContent = err.message;
    }
  }

  async pollSizes() {
    if (!this.node.routes.has('dashboard-metrics/v1')) return;
    try {
      const sizes = await getJson('/api/dashboard-metrics/v1/database/sizes');
      $('db-size').textContent = formatBytes(sizes.total);
      $('db-detail').textContent = `blocks ${formatBytes(sizes.tangle)} · ledger ${formatBytes(sizes.utxo)}`;
      this.sizes.push({ at: sizes.ts * 1000, tangle: sizes.tangle, utxo: sizes.utxo });
      if (this.sizes.length > SIZES_KEPT) this.sizes.shift();
      const mib = (bytes) => Math.round((bytes / MIB) * 100) / 100;
      this.diskChart.set(
        this.sizes.map((s) => s.at),
        [
          this.sizes.map((s) => mib(s.tangle)),
          this.sizes.map((s) => mib(s.utxo)),
          this.sizes.map((s) => mib(s.tangle + s.utxo)),
        ],
      );
    } catch {
      // shown as stale; the next poll tries again
    }
  }

  /** The pruning index beside the disk chart: milestones at or below it are no longer stored. */
  renderPruning(status) {
    const pruned = status.pruningIndex ?? 0;
    const confirmed = status.confirmedMilestone?.index ?? 0;
    const el = $('pruning-index');
    el.dataset.pruningIndex = String(pruned);
    el.textContent =
      pruned === 0
        ? 'pruning index 0: every milestone stored'
        : `pruning index ${pruned}: milestones ${pruned + 1}–${confirmed} stored`;
  }

  /** Milestones come from REST polls and from events; the newer one wins. */
  noteMilestone(which, milestone) {
    const current = this.milestones[which];
    if (milestone && (current === null || milestone.index > current.index)) this.milestones[which] = milestone;
  }

  render() {
    const feed = this.node.feed;
    if (feed) {
      this.noteMilestone('latest', feed.latest);
      this.noteMilestone('confirmed', feed.confirmed);
    }
    const { latest, confirmed } = this.milestones;
    if (latest) {
      const a = $('latest-milestone-index');
      a.textContent = String(latest.index);
      a.href = `#/milestone/${latest.index}`;
      $('latest-milestone-time').textContent = latest.timestamp
        ? `${Math.max(0, Math.round(Date.now() / 1000 - latest.timestamp))} s ago`
        : '';
    }
    if (confirmed) {
      const a = $('confirmed-milestone-index');
      a.textContent = String(confirmed.index);
      a.href = `#/milestone/${confirmed.index}`;
      $('confirmed-milestone-id').textContent = confirmed.milestoneId ? shortId(confirmed.milestoneId) : '';
    }
    const m = this.infoMetrics;
    if (feed && feed.seconds.length > 0) {
      const last = feed.seconds.slice(-5);
      const avg = (key) => last.reduce((s, x) => s + x[key], 0) / last.length;
      $('bps').textContent = avg('blocks').toFixed(1);
      $('rbps').textContent = avg('referenced').toFixed(1);
      $('bps-detail').textContent = m ? `node: ${m.blocksPerSecond.toFixed(1)} in the last interval` : '';
      $('rbps-detail').textContent = m ? `node: ${m.referencedRate.toFixed(0)} % referenced` : '';
    } else if (m) {
      $('bps').textContent = m.blocksPerSecond.toFixed(1);
      $('rbps').textContent = m.referencedBlocksPerSecond.toFixed(1);
      $('bps-detail').textContent = 'in the last milestone interval';
      $('rbps-detail').textContent = `${m.referencedRate.toFixed(0)} % referenced`;
    }
    if (this.tips) {
      $('tips-count').textContent = String(this.tips.length);
      fill(
        $('tips'),
        this.tips.map((id) => h('li', {}, h('a', { class: 'mono grow', href: `#/block/${id}` }, id))),
      );
    }
    if (!feed) return;
    this.bpsChart.set(
      feed.seconds.map((s) => s.at),
      [feed.seconds.map((s) => s.blocks), feed.seconds.map((s) => s.referenced)],
    );
    const ms = feed.milestones;
    this.intervalChart.set(
      ms.map((x) => x.index),
      [ms.map((x) => x.interval)],
    );
    this.latencyChart.set(
      ms.map((x) => x.index),
      [ms.map((x) => roundOrNull(x.latencyAvg)), ms.map((x) => roundOrNull(x.latencyMax))],
    );
    renderBlocks($('live-blocks'), feed.recentBlocks);
    renderTransactions($('live-transactions'), feed.recentTransactions);
  }
}

const roundOrNull = (v) => (v === null ? null : Math.round(v));

const ago = (at) => `${Math.max(0, Math.round((Date.now() - at) / 1000))} s ago`;

function renderBlocks(list, blocks) {
  if (blocks.length === 0) return;
  fill(
    list,
    blocks.map((b) =>
      h(
        'li',
        { dataset: { blockId: b.blockId } },
        h('span', { class: `kind t${b.payloadType ?? 0}` }, PAYLOAD_NAMES[b.payloadType] ?? 'no payload'),
        h('a', { class: 'mono grow', href: `#/block/${b.blockId}` }, shortId(b.blockId)),
        b.milestoneIndex !== undefined ? h('span', { class: 'hint' }, `milestone ${b.milestoneIndex}`) : null,
        h('span', { class: 'when' }, ago(b.seenAt)),
      ),
    ),
  );
}

function renderTransactions(list, transactions) {
  if (transactions.length === 0) return;
  const stateClass = { included: 'good', conflicting: 'bad', pending: 'warn' };
  fill(
    list,
    transactions.map((t) =>
      h(
        'li',
        { dataset: { transactionId: t.transactionId } },
        h('a', { class: 'mono grow', href: `#/transaction/${t.transactionId}` }, shortId(t.transactionId)),
        h('span', { class: 'hint' }, `${t.inputs} in · ${t.outputs} out`),
        h('span', { class: `pill ${stateClass[t.state] ?? ''}` }, t.state),
        h('span', { class: 'when' }, ago(t.seenAt)),
      ),
    ),
  );
}
