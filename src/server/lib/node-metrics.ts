// The node's Prometheus metrics (prom-client), in a registry of their own so tests and
// several nodes in one process do not share counters. With HTTP worker threads
// (server/http-workers.ts) each thread counts its own requests in its own registry; the
// process-wide figures (default metrics, store, mining pool) live in the main thread's
// only, and `/metrics` adds every thread's registry up.

import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import type { MiningPoolStatus } from '../../core/mining-pool';
import type { SnapshotStatus } from '../../core/snapshot';
import type { StoreStatus } from '../../store-contract';

export interface StoreFigures {
  status(): StoreStatus;
  storageFull(): boolean;
  sizeBytes(): number;
  approximateSizes(): { name: string; bytes: number }[];
  memoryBytes(): number;
  /** The store's snapshots (process-wide: any thread's writes). */
  snapshots?(): SnapshotStatus;
}

export class NodeMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly requestSeconds: Histogram<'route'>;
  readonly powSeconds: Histogram;
  readonly submitted: Counter<'outcome'>;
  readonly powJobs: Counter<'outcome'>;
  readonly milestoneSeconds: Histogram<'phase'>;
  readonly intakeSeconds: Histogram;
  /** The other threads' metrics (as `registry.getMetricsAsJSON()` gives them), when there are any. */
  otherThreads: (() => Promise<ThreadMetrics[]>) | undefined;
  private readonly registers: Registry[];

  /** Without `store`: the per-thread metrics of an HTTP worker only. */
  constructor(store: StoreFigures | undefined, mining?: () => MiningPoolStatus) {
    const registers = [this.registry];
    this.registers = registers;
    if (store !== undefined) collectDefaultMetrics({ register: this.registry, prefix: 'ledger_node_' });
    this.requests = new Counter({
      name: 'ledger_node_http_requests_total',
      help: 'HTTP requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'ledger_node_http_request_duration_seconds',
      help: 'HTTP request duration by route pattern',
      labelNames: ['route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    });
    this.powSeconds = new Histogram({
      name: 'ledger_node_pow_duration_seconds',
      help: 'time spent mining nonces for submitted blocks',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.milestoneSeconds = new Histogram({
      name: 'ledger_node_milestone_duration_seconds',
      help: 'issuing a milestone: white flag (confirm) and the atomic commit',
      labelNames: ['phase'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    });
    this.intakeSeconds = new Histogram({
      name: 'ledger_node_store_intake_duration_seconds',
      help: 'submitted blocks in the store: from handing one over until it is stored (batching, validation, the RocksDB write)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
      registers,
    });
    this.submitted = new Counter({
      name: 'ledger_node_blocks_submitted_total',
      help: 'accepted block submissions (stored = newly written, known = already stored)',
      labelNames: ['outcome'],
      registers,
    });
    this.powJobs = new Counter({
      name: 'ledger_node_pow_jobs_total',
      help: 'mining jobs of submitted blocks by outcome (mined, timeout, disconnected, shutdown, queue-full)',
      labelNames: ['outcome'],
      registers,
    });
    if (mining) {
      new Gauge({
        name: 'ledger_node_pow_jobs',
        help: 'mining jobs in the pool: queued (waiting for a slot) or running',
        labelNames: ['state'],
        registers,
        collect() {
          const status = mining();
          this.set({ state: 'queued' }, status.queued);
          this.set({ state: 'running' }, status.running);
        },
      });
    }
    if (store === undefined) return;
    new Gauge({
      name: 'ledger_node_blocks_stored',
      help: 'blocks in the store',
      registers,
      collect() {
        this.set(store.status().blocksStored);
      },
    });
    new Gauge({
      name: 'ledger_node_pending_blocks',
      help: 'blocks in the in-memory pending graph (unreferenced, not below max depth)',
      registers,
      collect() {
        this.set(store.status().pendingBlocks);
      },
    });
    new Gauge({
      name: 'ledger_node_blocks_below_max_depth',
      help: 'blocks found below max depth since the node started (dropped from memory, kept on disk)',
      registers,
      collect() {
        this.set(store.status().blocksBelowMaxDepth);
      },
    });
    new Gauge({
      name: 'ledger_node_rocksdb_size_bytes',
      help: 'approximate RocksDB size on disk',
      registers,
      collect() {
        this.set(store.sizeBytes());
      },
    });
    new Gauge({
      name: 'ledger_node_rocksdb_family_size_bytes',
      help: 'approximate RocksDB size on disk of each column family',
      labelNames: ['family'],
      registers,
      collect() {
        for (const { name, bytes } of store.approximateSizes()) this.set({ family: name }, bytes);
      },
    });
    new Gauge({
      name: 'ledger_node_pruning_index',
      help: 'the pruning index: nothing at or below it is served (a snapshot target or the last pruning)',
      registers,
      collect() {
        this.set(store.status().pruningIndex);
      },
    });
    new Gauge({
      name: 'ledger_node_storage_full',
      help: '1 while the last write failed because the data directory file system is full, else 0',
      registers,
      collect() {
        this.set(store.storageFull() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'ledger_node_rocksdb_memory_bytes',
      help: 'memory RocksDB holds: block cache contents and memtables',
      registers,
      collect() {
        this.set(store.memoryBytes());
      },
    });
    if (store.snapshots !== undefined) this.addSnapshots(store.snapshots.bind(store));
  }

  /** The last snapshot written since start (docs/snapshots.md): what, when, how long, how big. */
  private addSnapshots(snapshots: () => SnapshotStatus): void {
    const registers = this.registers;
    const last = (read: (w: NonNullable<SnapshotStatus['last']>) => number) =>
      function (this: Gauge<'kind'>) {
        this.reset();
        const w = snapshots().last;
        if (w !== undefined) this.set({ kind: w.kind }, read(w));
      };
    new Gauge({
      name: 'ledger_node_snapshot_last_index',
      help: 'target milestone index of the last snapshot written since start (full or delta)',
      labelNames: ['kind'],
      registers,
      collect: last((w) => w.index),
    });
    new Gauge({
      name: 'ledger_node_snapshot_last_timestamp_seconds',
      help: 'when the last snapshot written since start was complete (Unix seconds)',
      labelNames: ['kind'],
      registers,
      collect: last((w) => w.finishedAtMs / 1000),
    });
    new Gauge({
      name: 'ledger_node_snapshot_last_duration_seconds',
      help: 'how long writing the last snapshot took',
      labelNames: ['kind'],
      registers,
      collect: last((w) => w.micros / 1e6),
    });
    new Gauge({
      name: 'ledger_node_snapshot_last_bytes',
      help: 'size of the last snapshot file written since start',
      labelNames: ['kind'],
      registers,
      collect: last((w) => w.bytes),
    });
    new Gauge({
      name: 'ledger_node_snapshot_index',
      help: 'the last snapshot written to the snapshot paths, or loaded (Hornet snapshotIndex)',
      registers,
      collect() {
        this.set(snapshots().snapshotIndex);
      },
    });
    new Gauge({
      name: 'ledger_node_history_busy',
      help: '1 while a snapshot or a pruning run is in progress',
      registers,
      collect() {
        this.set(snapshots().busy ? 1 : 0);
      },
    });
  }

  /** The Prometheus text of this thread's metrics and every other thread's, added up. */
  async text(): Promise<string> {
    if (this.otherThreads === undefined) return this.registry.metrics();
    const all = [await this.registry.getMetricsAsJSON(), ...(await this.otherThreads())];
    return AggregatorRegistry.aggregate(all).metrics();
  }
  /** Gossip's figures (gossip.md §9): peers by state, and the node's message counters. */
  addGossip(gossip: GossipFigures): void {
    const registers = this.registers;
    new Gauge({
      name: 'ledger_node_gossip_peers',
      help: 'peers the node knows of: all, connected, with a gossip stream',
      labelNames: ['state'],
      registers,
      collect() {
        const peers = gossip.peersSnapshot();
        this.set({ state: 'known' }, peers.length);
        this.set({ state: 'connected' }, peers.filter((p) => p.connected).length);
        this.set({ state: 'streaming' }, peers.filter((p) => p.gossip !== undefined).length);
      },
    });
    new Gauge({
      name: 'ledger_node_gossip_messages',
      help: 'gossip counters since start (received/sent blocks, requests, heartbeats; new, known and invalid blocks; dropped packets)',
      labelNames: ['counter'],
      registers,
      collect() {
        for (const [name, value] of Object.entries(gossip.metrics())) this.set({ counter: name }, value as number);
      },
    });
    new Gauge({
      name: 'ledger_node_gossip_held_blocks',
      help: 'gossiped blocks held until their parents arrive, and milestones held for their predecessor',
      labelNames: ['kind'],
      registers,
      collect() {
        const status = gossip.status();
        this.set({ kind: 'blocks' }, status.heldBlocks);
        this.set({ kind: 'milestones' }, status.heldMilestones);
      },
    });
  }
}

/** What the gossip metrics read (GossipService). */
export interface GossipFigures {
  peersSnapshot(): { connected: boolean; gossip?: unknown }[];
  metrics(): object;
  status(): { heldBlocks: number; heldMilestones: number };
}

export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];
