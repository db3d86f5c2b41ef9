// The node's configuration: its shape and defaults (ledger.md §1). Loading and merging
// of the sources (file, environment, flags) lives in load.ts.

import type { ProtocolJson } from '../core/types';

export interface BaseTokenConfig {
  name: string;
  tickerSymbol: string;
  unit: string;
  subunit?: string;
  decimals: number;
  useMetricPrefix: boolean;
}

/** The built-in genesis styles of snapshot.md §5 (D41). */
export type GenesisStyle = 'ledger' | 'hornet';

export interface NodeConfig {
  dataDir: string;
  /**
   * `name`: the whole network name, for networks whose name does not end in the protocol
   * version (Hornet's `private_tangle1`); empty: `baseName` ‖ version (D4).
   */
  network: { baseName: string; name: string };
  /**
   * The protocol parameters (persisted), and whose milestones a follower accepts (D42,
   * Hornet's keys): `publicKeyRanges` (empty: `coordinator.publicKeys`, or the node's own
   * coordinator keys, from milestone 0 on) and `milestonePublicKeyCount`, the signatures a
   * milestone needs (0: every key applicable at its index).
   */
  protocol: Omit<ProtocolJson, 'networkName'> & { milestonePublicKeyCount: number; publicKeyRanges: PublicKeyRange[] };
  baseToken: BaseTokenConfig;
  /**
   * `file`: a JSON file {"outputs":[…]} whose outputs replace the single default output.
   * `style`: `ledger` or `hornet` (D41), fixed when the data directory is created.
   */
  genesis: { address: string; file: string; style: GenesisStyle };
  /**
   * `loadPath`: a Hornet full snapshot to build a new data directory from instead of the
   * built-in genesis (snapshot.md §4); ignored once the data directory exists.
   */
  snapshot: { loadPath: string };
  /** Snapshots with Hornet's keys (docs/snapshots.md, snapshot.md §8, §9). */
  snapshots: SnapshotsConfig;
  /**
   * `privateKeys`: seeds of the embedded coordinator (generated and kept in the data
   * directory when empty). `publicKeys`: with the coordinator disabled, the keys whose
   * milestones this node accepts (default: those of `privateKeys`).
   */
  coordinator: { enabled: boolean; privateKeys: string[]; publicKeys: string[]; interval: number /* seconds */ };
  /**
   * `syncWrites`: fsync every acknowledged write (survives power loss, not only crashes).
   * `blockCacheMiB`: RocksDB's block cache, shared by all column families (default 64).
   * `writeBuffersMiB`: all RocksDB memtables together (default 64). Both bound RocksDB's
   * memory however large the ledger grows.
   */
  storage: { syncWrites: boolean; blockCacheMiB: number; writeBuffersMiB: number };
  restApi: {
    bindAddress: string; // host:port
    publicRoutes: string[];
    jwtSecret: string;
    /**
     * Mining for submitted blocks without a nonce, on a pool of its own: `threads` per job
     * (0 = all cores), as many jobs at once as fit the cores, `queueSize` more waiting; one
     * more is answered 503 with Retry-After. `timeout` counts from submission.
     */
    pow: { enabled: boolean; timeout: number /* seconds */; threads: number /* 0 = all cores */; queueSize: number };
    maxBodyBytes: number;
    /** HTTP event loops serving the port: the main thread and workers − 1 worker threads (0 = one per core but one, at least one; docs/performance.md). */
    workers: number;
  };
  tips: { maxDeltaYcri: number; maxDeltaOcri: number };
  /** The event API, MQTT over WebSocket at /api/mqtt/v1 (events.md §6). */
  events: { enabled: boolean; maxClients: number; maxSubscriptionsPerClient: number; maxClientBufferBytes: number };
  /** The UTXO indexer (indexer.md): `maxPageSize` 1..10000 is the page size when none is asked. */
  indexer: { enabled: boolean; maxPageSize: number };
  /** The web dashboard at /dashboard (docs/dashboard.md). */
  dashboard: { enabled: boolean };
  /**
   * The development faucet (docs/faucet.md) at /api/faucet/v1 and /faucet. `privateKey`
   * empty = the dev genesis key (D23), which the faucet uses only on the dev network (the
   * default genesis address, no genesis file or snapshot); any other network needs its own key here.
   * `amount` base-token units per request; an address may ask again after `cooldown`
   * seconds; at most `maxOutputs` recipients per transaction (1..127, with the remainder
   * within the protocol's 128 outputs), `maxQueueSize` requests waiting; per client IP
   * `rateLimit.maxRequests` per `rateLimit.period` seconds, bursts up to `maxBurst`.
   */
  faucet: {
    enabled: boolean;
    privateKey: string;
    amount: number;
    cooldown: number;
    maxOutputs: number;
    maxQueueSize: number;
    rateLimit: { maxRequests: number; period: number; maxBurst: number };
  };
  /** Gossip with other nodes (gossip.md §1, docs/gossip.md): off = a single-node network. */
  gossip: { enabled: boolean };
  p2p: P2pConfig;
  /** Milestones requested per warp-sync window (gossip.md §7). */
  warpsync: { advancementRange: number };
  pruning: PruningConfig;
  /**
   * The INX server for Hornet's extensions (gRPC, inx.proto v1.0.0-rc.2; docs/inx.md), with
   * Hornet's keys and defaults: off, and on `localhost:9029` when on.
   */
  inx: { enabled: boolean; bindAddress: string };
  logLevel: string;
}

/**
 * Pruning of the history (Hornet 2.0.1's `pruning.*`, names and defaults; docs/configuration.md):
 * after each confirmed milestone, by milestones keep `maxMilestonesToKeep` below it; by size,
 * when the data directory reaches `targetSize` ("30GB": decimal units, "GiB" binary), prune
 * to `thresholdPercentage` % below it, at most once per `cooldownTime` (a Go duration, "5m").
 * `pruneReceipts`: also receipts (this node stores none; kept for Hornet's configuration).
 */
export interface PruningConfig {
  milestones: { enabled: boolean; maxMilestonesToKeep: number };
  size: { enabled: boolean; targetSize: string; thresholdPercentage: number; cooldownTime: string };
  pruneReceipts: boolean;
}

/**
 * Hornet's `snapshots.*` (config_defaults.json of Hornet 2.0.1). `enabled`: periodic
 * snapshots, every `interval` milestones, `depth` milestones behind the confirmed one
 * (at least belowMaxDepth + 5), full or delta by the size thresholds. `fullPath`/`deltaPath`:
 * where they go, and what a new data directory starts from when the files exist (empty:
 * `<dataDir>/snapshots/full_snapshot.bin` and `delta_snapshot.bin`). `downloadURLs`: where
 * a new data directory fetches them when neither file exists.
 */
export interface SnapshotsConfig {
  enabled: boolean;
  depth: number;
  interval: number;
  fullPath: string;
  deltaPath: string;
  /** 0: always a delta; otherwise a full snapshot once the delta is larger than this share of the full one. */
  deltaSizeThresholdPercentage: number;
  /** A delta up to this size is always extended: bytes, or "50M", "1GB", "512MiB" (Hornet's units). */
  deltaSizeThresholdMinSize: string | number;
  downloadURLs: SnapshotDownloadTarget[];
}

/** One `snapshots.downloadURLs` entry, Hornet's `DownloadTarget` (`delta` may be empty). */
export interface SnapshotDownloadTarget {
  full: string;
  delta?: string;
}

/** A coordinator public key (hex) and the milestone indexes it signs: start ≤ index, and index ≤ end unless end is 0. */
export interface PublicKeyRange {
  key: string;
  start: number;
  end: number;
}

/** A static peer, Hornet's `peering.json` entry. */
export interface PeerConfig {
  multiAddress: string;
  alias?: string;
}

/** The p2p host (gossip.md §1): listen addresses, identity, static peers, limits. */
export interface P2pConfig {
  bindMultiAddresses: string[];
  /** Hex of a 64-byte Ed25519 private key (or its 32-byte seed); empty: generated. */
  identityPrivateKey: string;
  /** Where the identity is persisted; empty: `<dataDir>/p2p-identity.key`. */
  identityFile: string;
  peers: PeerConfig[];
  unknownPeersLimit: number;
  /** Seconds between redials of a disconnected known peer. */
  reconnectInterval: number;
  connectionManager: { lowWatermark: number; highWatermark: number };
}

export const DEFAULT_PUBLIC_ROUTES = [
  '/health',
  '/api/routes',
  '/api/core/v2/info',
  '/api/core/v2/tips',
  '/api/core/v2/blocks*',
  '/api/core/v2/transactions*',
  '/api/core/v2/milestones*',
  '/api/core/v2/outputs*',
  '/api/core/v2/treasury',
  '/api/core/v2/receipts*',
  '/api/indexer/v1/*',
  '/api/mqtt/v1',
  '/api/dashboard-metrics/v1/*',
  '/dashboard',
  '/dashboard/*',
  '/api/faucet/v1/*',
  '/faucet',
  '/faucet/*',
];

export function defaultConfig(): NodeConfig {
  return {
    dataDir: './data',
    network: { baseName: 'ledger-devnet-v', name: '' },
    protocol: {
      version: 2,
      bech32Hrp: 'tst',
      minPowScore: 1500,
      belowMaxDepth: 15,
      rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
      tokenSupply: '4600000000000000',
      milestonePublicKeyCount: 0,
      publicKeyRanges: [],
    },
    baseToken: {
      name: 'Ledger Dev Token',
      tickerSymbol: 'TST',
      unit: 'TST',
      subunit: 'microTST',
      decimals: 6,
      useMetricPrefix: false,
    },
    genesis: { address: 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc', file: '', style: 'ledger' },
    snapshot: { loadPath: '' },
    snapshots: {
      enabled: false,
      depth: 50,
      interval: 200,
      fullPath: '',
      deltaPath: '',
      deltaSizeThresholdPercentage: 50,
      deltaSizeThresholdMinSize: '50M',
      downloadURLs: [],
    },
    coordinator: { enabled: true, privateKeys: [], publicKeys: [], interval: 5 },
    storage: { syncWrites: false, blockCacheMiB: 64, writeBuffersMiB: 64 },
    restApi: {
      bindAddress: '0.0.0.0:14265',
      publicRoutes: [...DEFAULT_PUBLIC_ROUTES],
      jwtSecret: '',
      pow: { enabled: true, timeout: 60, threads: 0, queueSize: 16 },
      maxBodyBytes: 1024 * 1024,
      workers: 0,
    },
    tips: { maxDeltaYcri: 8, maxDeltaOcri: 13 },
    events: { enabled: true, maxClients: 1000, maxSubscriptionsPerClient: 1000, maxClientBufferBytes: 8 * 1024 * 1024 },
    indexer: { enabled: true, maxPageSize: 1000 },
    dashboard: { enabled: true },
    faucet: {
      enabled: true,
      privateKey: '',
      amount: 1_000_000_000,
      cooldown: 300,
      maxOutputs: 127,
      maxQueueSize: 10_000,
      rateLimit: { maxRequests: 10, period: 300, maxBurst: 20 },
    },
    gossip: { enabled: false },
    p2p: {
      bindMultiAddresses: ['/ip4/0.0.0.0/tcp/15600', '/ip6/::/tcp/15600'],
      identityPrivateKey: '',
      identityFile: '',
      peers: [],
      unknownPeersLimit: 4,
      reconnectInterval: 30,
      connectionManager: { lowWatermark: 5, highWatermark: 10 },
    },
    warpsync: { advancementRange: 150 },
    pruning: {
      milestones: { enabled: false, maxMilestonesToKeep: 60480 },
      size: { enabled: true, targetSize: '30GB', thresholdPercentage: 10, cooldownTime: '5m' },
      pruneReceipts: false,
    },
    inx: { enabled: false, bindAddress: 'localhost:9029' },
    logLevel: 'info',
  };
}

/** The protocol object as the API and the store see it (networkName = baseName ‖ version, D4). */
export function protocolOf(config: NodeConfig): ProtocolJson {
  const { milestonePublicKeyCount: _count, publicKeyRanges: _ranges, ...protocol } = config.protocol;
  return { ...protocol, networkName: config.network.name || `${config.network.baseName}${config.protocol.version}` };
}
