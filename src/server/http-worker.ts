// One HTTP event loop in a worker thread (docs/performance.md): the same two doors as the
// main thread's (the answers before Koa of before-koa/, then the Koa app of app.ts), over
// the store and the mining pool the main thread opened (shared through the native binding,
// one RocksDB per process), listening on a socket of its own bound to the node's port with
// SO_REUSEPORT so the kernel spreads connections over the threads. The coordinator stays
// on the main thread; event API upgrades go to the event API's thread through this
// worker's port to it (events/handoff.ts), other upgrades to this thread's app
// (upgrades.ts). Started and stopped by http-workers.ts.

import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { MiningPool } from '../core/mining-pool';
import { eventsHandoff } from '../events/handoff';
import { RemoteFaucet } from '../faucet/remote';
import { GossipService } from '../gossip/service';
import { InxRouteView } from '../inx/service';
import { LedgerStore } from '../core/store';
import native from '../native';
import { createLogger } from '../terminal/logger';
import { createApp } from './app';
import { beforeKoa } from './before-koa/listener';
import { NodeMetrics, type ThreadMetrics } from './lib/node-metrics';
import { routeUpgrades } from './upgrades';
import { drainAndClose, trackConnections, type WorkerData, type ToMain, type ToWorker } from './http-workers';

const data = workerData as WorkerData;
const port = parentPort!;
const send = (message: ToMain) => port.postMessage(message);

async function start(): Promise<void> {
  const { config } = data;
  const logger = createLogger(data.logLevel, { isTTY: data.tty });
  const store = LedgerStore.attach(config.dataDir);
  const miner = MiningPool.forThreads(config.restApi.pow.threads, config.restApi.pow.queueSize, data.minerKey);
  const metrics = new NodeMetrics(undefined);
  const asked = new Map<number, (metrics: ThreadMetrics[]) => void>();
  let nextAsk = 0;
  metrics.otherThreads = () =>
    new Promise((resolve) => {
      const id = nextAsk++;
      asked.set(id, resolve);
      send({ type: 'metrics-request', id });
    });
  const shutdown = new AbortController();
  const faucet = data.faucet ? new RemoteFaucet(send) : undefined;
  // The main thread started gossip before the workers: its peers, health and latest milestone.
  const gossip = config.gossip.enabled ? await GossipService.attach(config, logger) : undefined;
  // The main thread starts INX once the port is bound; its routes are found when it runs.
  const inx = config.inx.enabled ? new InxRouteView(config.dataDir) : undefined;
  const services = {
    config,
    protocol: data.protocol,
    store,
    coordinator: undefined,
    metrics,
    logger,
    version: data.version,
    miner,
    startedAt: data.startedAt,
    shutdown: shutdown.signal,
    faucet,
    gossip,
    inx,
  };
  const app = createApp(services, data.jwtSecret);
  const server = createServer(beforeKoa(app.callback(), services));
  trackConnections(server);
  server.keepAliveTimeout = 65_000;
  routeUpgrades(server, data.eventsPort === undefined ? undefined : eventsHandoff(data.eventsPort));

  port.on('message', (message: ToWorker) => {
    if (message.type === 'metrics') {
      void metrics.registry
        .getMetricsAsJSON()
        .then((json) => send({ type: 'metrics', id: message.id, metrics: json as ThreadMetrics }));
    } else if (message.type === 'faucet-answer') {
      faucet?.settle(message);
    } else if (message.type === 'metrics-answer') {
      asked.get(message.id)?.(message.metrics);
      asked.delete(message.id);
    } else if (message.type === 'stop') {
      void drainAndClose(server, message.graceMs, () => {
        shutdown.abort();
      }).then(() => {
        gossip?.stop();
        store.close();
        send({ type: 'stopped' });
      });
    }
  });

  // Bound now (the kernel queues connections for it); accepted from once the main thread
  // says so, right before it listens itself.
  const socket = native.listenReusePort(data.host, data.port, 511);
  port.on('message', (message: ToWorker) => {
    if (message.type !== 'listen') return;
    server.once('error', (err) => send({ type: 'failed', message: err.message }));
    server.listen({ fd: socket.fd }, () => send({ type: 'listening' }));
  });
  send({ type: 'ready' });
}

start().catch((err: unknown) => send({ type: 'failed', message: (err as Error).message }));
