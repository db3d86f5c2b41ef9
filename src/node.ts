// The node: opens the store (which checks persisted protocol values), bootstraps the
// coordinator (milestone 1 before listening, D12), serves HTTP and the event API on the
// same port, and shuts down in order: event API connections close → stop accepting and
// cancel mining → in-flight requests finish → coordinator stops → store closes.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { splitBind } from './config/load';
import { protocolOf, type NodeConfig } from './config/schema';
import { Coordinator } from './coordinator';
import { coordinatorKeys, CoordinatorKeysError } from './coordinator-keys';
import { publicKey } from './core/crypto';
import { LedgerError } from './core/errors';
import { MiningPool } from './core/mining-pool';
import type { ProtocolJson } from './core/types';
import { EventServer } from './events/server';
import { GossipService } from './gossip/service';
import { genesisOutputs, GenesisError } from './genesis';
import { withProgress } from './progress';
import { jwtSecret } from './jwt-secret';
import { createApp } from './server/app';
import { createLogger } from './terminal/logger';
import { NodeMetrics } from './server/lib/node-metrics';
import type { LedgerStoreApi, LedgerStoreClass } from './store-contract';
// eslint-disable-next-line @typescript-eslint/no-require-imports
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
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Defaults to the node's logger on stdout at config.logLevel (src/terminal/logger.ts). */
  logger?: Logger;
}

export async function startNode(config: NodeConfig, options: StartOptions = {}): Promise<RunningNode> {
  const startedAt = Date.now();
  const logger = options.logger ?? createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });
  const ledgerExisted = existsSync(join(config.dataDir, 'ledger', 'CURRENT'));
  const store = await openStore(config);
  if (config.snapshot.loadPath !== '' && ledgerExisted) logger.info({ loadPath: config.snapshot.loadPath }, 'snapshot.loadPath ignored: the data directory already holds a ledger');
  const shutdown = new AbortController();
  const miner = MiningPool.forThreads(config.restApi.pow.threads, config.restApi.pow.queueSize);
  let coordinator: Coordinator | undefined;
  let server: Server | undefined;
  let events: EventServer | undefined;
  let gossip: GossipService | undefined;
  try {
    // After the store: a snapshot that is refused leaves nothing new in the data directory.
    const secret = jwtSecret(config.restApi.jwtSecret, config.dataDir);
    const protocol = store.protocol();
    const metrics = new NodeMetrics({ status: () => store.status(), sizeBytes: () => store.approximateSizeBytes(), memoryBytes: () => store.storageMemoryBytes() }, () => miner.status());
    if (config.coordinator.enabled) {
      coordinator = new Coordinator(store, config.coordinator.interval, logger, (issued) => {
        metrics.milestoneSeconds.labels('confirm').observe(issued.confirmMicros / 1e6);
        metrics.milestoneSeconds.labels('commit').observe(issued.commitMicros / 1e6);
      });
      await coordinator.start();
    }
    if (config.gossip.enabled) {
      try {
        gossip = await GossipService.start(config, store, logger, followedKeys(config));
      } catch (err) {
        if (err instanceof LedgerError) throw new StartupError(`cannot start gossip: ${err.code}: ${err.detail}`);
        throw err;
      }
      metrics.addGossip(gossip);
    }
    const app = createApp({ config, protocol, store, coordinator, metrics, logger, version, miner, startedAt, shutdown: shutdown.signal, gossip }, secret);
    server = createServer(app.callback());
    server.keepAliveTimeout = 65_000;
    if (config.events.enabled) {
      events = new EventServer({ config, store, logger, jwtSecret: secret });
      events.attach(server);
    }
    const { host, port } = splitBind(config.restApi.bindAddress);
    await listen(server, host, port);
    const bound = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`;
    const dashboard = config.dashboard.enabled ? `${url}/dashboard/` : undefined;
    logger.info({ host, port: bound, url, dashboard, dataDir: config.dataDir, networkName: protocol.networkName, minPowScore: protocol.minPowScore }, 'listening');

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        logger.info('shutting down');
        events?.stop();
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        // Keep-alive connections become idle once their request is answered: close them as
        // they do, and cut whatever is still open after the grace period.
        const sweep = setInterval(() => server!.closeIdleConnections(), 50);
        const deadline = setTimeout(() => server!.closeAllConnections(), SHUTDOWN_GRACE_MS);
        server!.closeIdleConnections();
        shutdown.abort();
        miner.close();
        await closed;
        clearInterval(sweep);
        clearTimeout(deadline);
        await coordinator?.stop();
        gossip?.stop();
        store.close();
        logger.info('stopped');
        logger.flush();
      })());
    return { host, port: bound, url, protocol, store, logger, gossip, stop };
  } catch (err) {
    events?.stop();
    miner.close();
    await coordinator?.stop();
    gossip?.stop();
    server?.close();
    store.close();
    throw err;
  }
}

async function openStore(config: NodeConfig): Promise<LedgerStoreApi> {
  // The store is loaded at run time so that a missing native build is a clear message.
  let LedgerStore: LedgerStoreClass;
  try {
    ({ LedgerStore } = require('./core/store') as { LedgerStore: LedgerStoreClass });
  } catch (err) {
    throw new StartupError(`the ledger store is not available in this build (${(err as Error).message.split('\n')[0]})`);
  }
  try {
    const protocol = protocolOf(config);
    return await withProgress(`opening the ledger in ${config.dataDir}`, () => LedgerStore.open(config.dataDir, {
      protocol,
      genesisOutputs: config.snapshot.loadPath === '' ? genesisOutputs(config) : [],
      genesisStyle: config.genesis.style,
      snapshotPath: config.snapshot.loadPath || undefined,
      coordinator: { enabled: config.coordinator.enabled, privateKeys: signingKeys(config), publicKeys: config.coordinator.publicKeys },
      syncWrites: config.storage.syncWrites,
      blockCacheMiB: config.storage.blockCacheMiB,
      writeBuffersMiB: config.storage.writeBuffersMiB,
      tips: config.tips,
      indexer: { enabled: config.indexer.enabled },
    }));
  } catch (err) {
    if (err instanceof LedgerError) throw new StartupError(`cannot open the ledger in ${config.dataDir}: ${err.code}: ${err.path ? err.path + ': ' : ''}${err.detail}`);
    if (err instanceof CoordinatorKeysError || err instanceof GenesisError) throw new StartupError(err.message);
    throw err;
  }
}

/**
 * The coordinator's seeds: configured or kept in the data directory (generated on the
 * first start). With the coordinator disabled, a kept key still names whose milestones
 * this node accepts, unless public keys are configured.
 */
function signingKeys(config: NodeConfig): string[] {
  if (config.coordinator.enabled) return coordinatorKeys(config.coordinator.privateKeys, config.dataDir);
  if (config.coordinator.privateKeys.length > 0 || config.coordinator.publicKeys.length > 0) return config.coordinator.privateKeys;
  return existsSync(join(config.dataDir, 'coordinator-keys.json')) ? coordinatorKeys([], config.dataDir) : [];
}

/** The public keys of the coordinator a follower follows (none on a coordinator). */
function followedKeys(config: NodeConfig): string[] {
  if (config.coordinator.enabled) return [];
  if (config.coordinator.publicKeys.length > 0) return config.coordinator.publicKeys;
  return signingKeys(config).map((seed) => publicKey(seed));
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
