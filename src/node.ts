// The node: opens the store (which checks persisted protocol values), bootstraps the
// coordinator (milestone 1 before listening, D12), serves HTTP and the event API on the
// same port, and shuts down in order: event API connections close → stop accepting and
// cancel mining → in-flight requests finish → coordinator stops → store closes.

import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { splitBind } from './config/load';
import { protocolOf, type NodeConfig } from './config/schema';
import { Coordinator } from './coordinator';
import { coordinatorKeys, CoordinatorKeysError } from './coordinator-keys';
import { LedgerError } from './core/errors';
import { MiningPool } from './core/mining-pool';
import { storageDeposit } from './core/validate';
import type { ProtocolJson } from './core/types';
import type { EventThread } from './events/thread';
import { Faucet } from './faucet/faucet';
import { faucetKey } from './faucet/key';
import { restSubmitter } from './faucet/submit';
import { GossipService } from './gossip/service';
import { InxRouteView, InxService } from './inx/service';
import { genesisOutputs, GenesisError } from './genesis';
import { withProgress } from './progress';
import { issueToken, jwtSecret } from './jwt-secret';
import {
  drainAndClose,
  HttpWorkers,
  listenOn,
  sharedListenAddress,
  sharedSocket,
  trackConnections,
} from './server/http-workers';
import {
  discard as discardSnapshot,
  initialSnapshot,
  type InitialSnapshot,
  SnapshotSourceError,
} from './snapshots/sources';
import { effectiveDepth, PeriodicSnapshots } from './snapshots/periodic';
import { createLogger } from './terminal/logger';
import type { LedgerStoreApi, LedgerStoreClass, PruningRules } from './store-contract';
import { parseDuration, parseSize } from './core/sizes';
const { version } = require('../package.json') as { version: string };

export class StartupError extends Error {}

/** How long in-flight requests may take to finish on shutdown. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningNode {
  host: string;
  /** The bound port (useful with port 0). */
  port: number;
  url: string;
  /** The persisted protocol parameters. */
  protocol: ProtocolJson;
  store: LedgerStoreApi;
  logger: Logger;
  /** Gossip, when `gossip.enabled`. */
  gossip?: GossipService;
  /** The INX server, when `inx.enabled`. */
  inx?: InxService;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Defaults to the node's logger on stdout at config.logLevel (src/terminal/logger.ts). */
  logger?: Logger;
  /**
   * The pool that mines submitted blocks, instead of the one restApi.pow describes (tests:
   * a pool whose jobs run until they are cancelled). The node closes it when it stops. Only
   * with one HTTP event loop: worker threads mine on the pool they share by the data directory.
   */
  miner?: MiningPool;
}

/**
 * HTTP event loops when `restApi.workers` is 0: one per core but one, at least one. The core
 * left over is for what the node runs beside its loops (the store's intake and RocksDB, the
 * event API's thread, gossip, proof of work). With a loop on every core, any of that work
 * makes the loops take turns on the cores: on 2 cores, two loops cost 36–41 µs of CPU per
 * GET /info against 22–23 µs for one, and served fewer requests (docs/performance.md).
 */
export function defaultHttpLoops(cores: number): number {
  return Math.max(1, cores - 1);
}

export async function startNode(config: NodeConfig, options: StartOptions = {}): Promise<RunningNode> {
  const startedAt = Date.now();
  const logger = options.logger ?? createLogger(config.logLevel);
  const loops = config.restApi.workers === 0 ? defaultHttpLoops(availableParallelism()) : config.restApi.workers;
  if (options.miner !== undefined && loops > 1)
    throw new StartupError(`a mining pool of its own needs one HTTP event loop, not ${loops} (restApi.workers 1)`);
  mkdirSync(config.dataDir, { recursive: true });
  const ledgerExisted = existsSync(join(config.dataDir, 'ledger', 'CURRENT'));
  // A new data directory starts from snapshot files (given or downloaded) or the built-in
  // genesis (snapshots/sources.ts); what was downloaded for it goes again if it is refused.
  let initial: InitialSnapshot = { downloaded: [], createdDirs: [] };
  if (!ledgerExisted) {
    try {
      initial = await initialSnapshot(config, protocolOf(config).networkName, logger);
    } catch (err) {
      if (err instanceof SnapshotSourceError) throw new StartupError(err.message);
      throw err;
    }
  }
  let store: LedgerStoreApi;
  try {
    store = await openStore(config, initial);
  } catch (err) {
    discardSnapshot(initial);
    throw err;
  }
  if (initial.full !== undefined)
    logger.info({ full: initial.full, delta: initial.delta, status: store.status() }, 'started from snapshot files');
  const check = store.startCheck();
  if (check !== null)
    logger.warn(
      { dataDir: config.dataDir, ...check, ms: Math.round(check.micros / 1000) },
      'the last run did not shut down cleanly: the ledger was checked and is whole',
    );
  if (config.snapshot.loadPath !== '' && ledgerExisted)
    logger.info(
      { loadPath: config.snapshot.loadPath },
      'snapshot.loadPath ignored: the data directory already holds a ledger',
    );
  const shutdown = new AbortController();
  // With gossip, every thread's store handle announces through the one hook of the store
  // (crates/ledger-napi/src/store/registry.rs), and the workers attach to the main thread's gossip.
  const minerKey = `pow:${resolvePath(config.dataDir)}`;
  const miner =
    options.miner ??
    MiningPool.forThreads(config.restApi.pow.threads, config.restApi.pow.queueSize, loops > 1 ? minerKey : undefined);
  let coordinator: Coordinator | undefined;
  let server: Server | undefined;
  let events: EventThread | undefined;
  let faucet: Faucet | undefined;
  let workers: HttpWorkers | undefined;
  let gossip: GossipService | undefined;
  let periodic: PeriodicSnapshots | undefined;
  let inx: InxService | undefined;
  try {
    // After the store: a snapshot that is refused leaves nothing new in the data directory.
    const secret = jwtSecret(config.restApi.jwtSecret, config.dataDir);
    const protocol = store.protocol();
    // Gossip first, before the HTTP side is even loaded (about 0.4 s of modules, the block
    // schema's validator above all): a joining node's sync runs on the gossip's own threads
    // meanwhile, on a core the loading leaves idle.
    if (config.gossip.enabled) {
      try {
        gossip = await GossipService.start(config, store, logger);
      } catch (err) {
        if (err instanceof LedgerError) throw new StartupError(`cannot start gossip: ${err.code}: ${err.detail}`);
        throw err;
      }
    }
    const { NodeMetrics } = require('./server/lib/node-metrics') as typeof import('./server/lib/node-metrics');
    const metrics = new NodeMetrics(
      {
        status: () => store.status(),
        storageFull: () => store.storageFull(),
        sizeBytes: () => store.approximateSizeBytes(),
        approximateSizes: () => store.approximateSizes(),
        memoryBytes: () => store.storageMemoryBytes(),
        snapshots: () => store.snapshotStatus(),
      },
      () => miner.status(),
    );
    if (config.coordinator.enabled) {
      coordinator = new Coordinator(store, config.coordinator.interval, logger, (issued) => {
        metrics.milestoneSeconds.labels('confirm').observe(issued.confirmMicros / 1e6);
        metrics.milestoneSeconds.labels('commit').observe(issued.commitMicros / 1e6);
      });
    }
    if (gossip !== undefined) metrics.addGossip(gossip);
    store.startPruning(pruningRules(config, protocol.belowMaxDepth));
    faucet = createFaucet(config, protocol, store, logger);
    if (config.snapshots.enabled) {
      const follower = gossip;
      periodic = new PeriodicSnapshots(store, config, protocol.belowMaxDepth, logger, () => {
        if (follower === undefined || config.coordinator.enabled) return true;
        const sync = follower.status();
        return !sync.warpSyncing && store.latestMilestoneIndex() >= sync.latestMilestoneIndex;
      });
    }
    const services = {
      config,
      protocol,
      store,
      coordinator,
      metrics,
      logger,
      version,
      miner,
      startedAt,
      shutdown: shutdown.signal,
      faucet,
      gossip,
      inx: config.inx.enabled ? new InxRouteView(config.dataDir) : undefined,
    };
    const { createApp } = require('./server/app') as typeof import('./server/app');
    const { beforeKoa } = require('./server/before-koa/listener') as typeof import('./server/before-koa/listener');
    const { routeUpgrades } = require('./server/upgrades') as typeof import('./server/upgrades');
    const { EventThread } = require('./events/thread') as typeof import('./events/thread');
    const app = createApp(services, secret);
    server = createServer(beforeKoa(app.callback(), services));
    trackConnections(server);
    server.keepAliveTimeout = 65_000;
    if (config.events.enabled) {
      // The event API on a thread of its own (events/thread.ts); every HTTP loop hands it its upgrades.
      events = await EventThread.start({ config, jwtSecret: secret, logger });
    }
    // Upgrades to the event API go to its thread, the others (extensions' WebSockets) to the app.
    routeUpgrades(server, events?.handoff());
    const { host, port } = splitBind(config.restApi.bindAddress);
    // Several event loops share the port through SO_REUSEPORT (server/http-workers.ts).
    const sharedHost = loops > 1 ? await sharedListenAddress(host) : undefined;
    if (loops > 1 && sharedHost === undefined)
      logger.warn({ workers: loops }, 'this platform cannot share a port between threads: one HTTP event loop');
    if (sharedHost !== undefined) {
      // Every thread's socket is bound before any accepts; the workers accept first and the
      // main thread last, so that the node answers only once all of it is up.
      const socket = sharedSocket(sharedHost, port);
      workers = await HttpWorkers.start({
        count: loops - 1,
        data: {
          config,
          protocol,
          host: sharedHost,
          port: socket.port,
          jwtSecret: secret,
          version,
          startedAt,
          logLevel: logger.level,
          tty: process.stdout.isTTY === true,
          minerKey,
          faucet: faucet !== undefined,
        },
        faucet,
        metrics,
        logger,
        events,
      });
      // Milestone 1 before listening (D12), and the cadence from the moment the node answers.
      await coordinator?.start();
      await workers.listen();
      await listenOn(server, socket.fd);
    } else {
      await coordinator?.start();
      await listen(server, host, port);
    }
    const bound = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`;
    const dashboard = config.dashboard.enabled ? `${url}/dashboard/` : undefined;
    logger.info(
      {
        host,
        port: bound,
        url,
        dashboard,
        httpThreads: workers === undefined ? 1 : loops,
        dataDir: config.dataDir,
        networkName: protocol.networkName,
        minPowScore: protocol.minPowScore,
      },
      'listening',
    );
    faucet?.start(restSubmitter(url, await issueToken(secret)));
    periodic?.start();
    if (config.inx.enabled) {
      // Once the REST API answers: PerformAPIRequest goes to it.
      try {
        inx = InxService.start({
          config,
          store,
          miner,
          restAddress: new URL(url).host,
          restToken: await issueToken(secret),
          faucet: faucet !== undefined,
          logger,
        });
      } catch (err) {
        if (err instanceof LedgerError) throw new StartupError(`cannot start INX: ${err.code}: ${err.detail}`);
        throw err;
      }
      logger.info({ addresses: inx.localAddresses() }, 'inx listening');
    }

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        logger.info('shutting down');
        // Extensions lose their streams first (CANCELLED), before the API they call goes.
        inx?.stop();
        await events?.stop();
        // Keep-alive connections become idle once their request is answered: close them as
        // they do, and cut whatever is still open after the grace period. The worker
        // threads do the same and let go of the store.
        const workersStopped = workers?.stop(SHUTDOWN_GRACE_MS);
        await drainAndClose(server!, SHUTDOWN_GRACE_MS, () => {
          shutdown.abort();
          miner.close();
        });
        await workersStopped;
        await faucet?.stop();
        await coordinator?.stop();
        await periodic?.stop();
        gossip?.stop();
        await events?.close();
        store.close();
        logger.info('stopped');
        logger.flush();
      })());
    return { host, port: bound, url, protocol, store, logger, gossip, inx, stop };
  } catch (err) {
    inx?.stop();
    await events?.stop();
    await faucet?.stop();
    await workers?.stop(0);
    miner.close();
    await coordinator?.stop();
    await periodic?.stop();
    gossip?.stop();
    server?.close();
    await events?.close();
    store.close();
    throw err;
  }
}

/** The faucet when it is on (docs/faucet.md): on the dev network by default, elsewhere with its own key. */
function createFaucet(
  config: NodeConfig,
  protocol: ProtocolJson,
  store: LedgerStoreApi,
  logger: Logger,
): Faucet | undefined {
  const key = faucetKey(config, protocol.bech32Hrp);
  if ('off' in key) {
    if (config.faucet.enabled) logger.info({ reason: key.off }, 'faucet off');
    return undefined;
  }
  if (!config.indexer.enabled) {
    logger.warn('faucet off: it finds its outputs through the indexer, which is disabled');
    return undefined;
  }
  if (!config.restApi.pow.enabled && protocol.minPowScore > 0) {
    logger.warn('faucet off: its blocks need the proof of work the node mines, which --no-pow turns off');
    return undefined;
  }
  const deposit = BigInt(
    storageDeposit(
      { type: 3, amount: '0', unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: key.address } }] },
      protocol.rentStructure,
    ),
  );
  if (BigInt(config.faucet.amount) < deposit)
    throw new StartupError(
      `faucet.amount ${config.faucet.amount} is below the storage deposit of the output it creates (${deposit})`,
    );
  logger.info(
    { address: key.bech32, amount: config.faucet.amount, cooldown: config.faucet.cooldown },
    'faucet on: /faucet, /api/faucet/v1',
  );
  return new Faucet({ store, protocol, key, settings: config.faucet, tokenName: config.baseToken.name, logger });
}

/** `pruning.*` as the store's background pruning takes it (checked by config/load.ts). */
function pruningRules(config: NodeConfig, belowMaxDepth: number): PruningRules {
  const { milestones, size, pruneReceipts } = config.pruning;
  return {
    ...(config.snapshots.enabled ? { snapshotDepth: effectiveDepth(config.snapshots.depth, belowMaxDepth) } : {}),
    ...(milestones.enabled ? { maxMilestonesToKeep: milestones.maxMilestonesToKeep } : {}),
    ...(size.enabled ? { targetBytes: parseSize(size.targetSize) } : {}),
    thresholdPercentage: size.thresholdPercentage,
    cooldownSeconds: parseDuration(size.cooldownTime) / 1000,
    pruneReceipts,
  };
}

async function openStore(config: NodeConfig, initial: InitialSnapshot): Promise<LedgerStoreApi> {
  // The store is loaded at run time so that a missing native build is a clear message.
  let LedgerStore: LedgerStoreClass;
  try {
    ({ LedgerStore } = require('./core/store') as { LedgerStore: LedgerStoreClass });
  } catch (err) {
    throw new StartupError(
      `the ledger store is not available in this build (${(err as Error).message.split('\n')[0]})`,
    );
  }
  try {
    const protocol = protocolOf(config);
    return await withProgress(`opening the ledger in ${config.dataDir}`, () =>
      LedgerStore.open(config.dataDir, {
        protocol,
        genesisOutputs: initial.full === undefined ? genesisOutputs(config) : [],
        genesisStyle: config.genesis.style,
        snapshotPath: initial.full,
        snapshotDeltaPath: initial.delta,
        coordinator: {
          enabled: config.coordinator.enabled,
          privateKeys: signingKeys(config),
          publicKeys: config.coordinator.publicKeys,
        },
        milestoneKeys: { count: config.protocol.milestonePublicKeyCount, ranges: config.protocol.publicKeyRanges },
        syncWrites: config.storage.syncWrites,
        blockCacheMiB: config.storage.blockCacheMiB,
        writeBuffersMiB: config.storage.writeBuffersMiB,
        tips: config.tips,
        indexer: { enabled: config.indexer.enabled },
      }),
    );
  } catch (err) {
    if (err instanceof LedgerError)
      throw new StartupError(
        `cannot open the ledger in ${config.dataDir}: ${err.code}: ${err.path ? err.path + ': ' : ''}${err.detail}`,
      );
    if (err instanceof CoordinatorKeysError || err instanceof GenesisError) throw new StartupError(err.message);
    throw err;
  }
}

/**
 * The coordinator's seeds: configured or kept in the data directory (generated on the
 * first start). With the coordinator disabled, a kept key still names whose milestones
 * this node accepts, unless public keys or key ranges (D42) are configured.
 */
function signingKeys(config: NodeConfig): string[] {
  if (config.coordinator.enabled) return coordinatorKeys(config.coordinator.privateKeys, config.dataDir);
  if (
    config.coordinator.privateKeys.length > 0 ||
    config.coordinator.publicKeys.length > 0 ||
    config.protocol.publicKeyRanges.length > 0
  )
    return config.coordinator.privateKeys;
  return existsSync(join(config.dataDir, 'coordinator-keys.json')) ? coordinatorKeys([], config.dataDir) : [];
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
