// Several event loops serving the node's one port (docs/performance.md). One JavaScript
// thread bounds the HTTP API at about one core, so `restApi.workers` loops serve it: the
// main thread and workers − 1 worker threads (http-worker.ts), each with the same request
// listener (before-koa/listener.ts in front of the Koa app).
// All of them run in this process over one store (RocksDB opens a directory once per
// process; the native binding lets the workers attach to the main thread's store) and one
// mining pool. Each listens on its own socket bound to the port with SO_REUSEPORT, and
// the kernel spreads new connections over them (Node 20's `listen()` has no `reusePort`).
//
// What stays on the main thread: the coordinator and the process-wide metrics (`/metrics`
// on any thread adds every thread's request counters up). The event API has a thread of
// its own; every loop hands it its WebSocket upgrades (events/handoff.ts).

import { lookup } from 'node:dns/promises';
import type { Server } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { join } from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import type { ProtocolJson } from '../core/types';
import type { EventThread } from '../events/thread';
import type { FaucetService } from '../faucet/faucet';
import { answerFaucetCall, type FaucetAnswer, type FaucetCall } from '../faucet/remote';
import native from '../native';
import type { NodeMetrics, ThreadMetrics } from './lib/node-metrics';

export interface WorkerData {
  config: NodeConfig;
  protocol: ProtocolJson;
  /** The IP address and the bound port every thread listens on. */
  host: string;
  port: number;
  /** Where this loop hands its event API upgrades (when the event API is on). */
  eventsPort: MessagePort | undefined;
  jwtSecret: string;
  version: string;
  startedAt: number;
  logLevel: string;
  tty: boolean;
  /** Under which key the threads share the mining pool. */
  minerKey: string;
  /** Whether the faucet runs (on the main thread; a worker's faucet routes ask it there). */
  faucet: boolean;
}

export type ToWorker =
  | { type: 'listen' }
  | { type: 'metrics'; id: number }
  | { type: 'metrics-answer'; id: number; metrics: ThreadMetrics[] }
  | { type: 'stop'; graceMs: number }
  | FaucetAnswer;
export type ToMain =
  | { type: 'ready' }
  | { type: 'listening' }
  | { type: 'failed'; message: string }
  | { type: 'metrics'; id: number; metrics: ThreadMetrics }
  | { type: 'metrics-request'; id: number }
  | { type: 'stopped' }
  | FaucetCall;

/** How long a thread may take to answer for its metrics before it is left out. */
const METRICS_WAIT_MS = 2_000;

/**
 * Stop accepting, let in-flight requests finish (idle keep-alive connections close as
 * their request is answered; whatever is still open is cut after `graceMs`), then resolve.
 * `closing` runs once accepting has stopped (cancel mining and the like).
 */
export async function drainAndClose(server: Server, graceMs: number, closing: () => void): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => cutUnanswered(server), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  cutUnanswered(server);
  closing();
  await closed;
  clearInterval(sweep);
  clearTimeout(deadline);
}

const connections = new WeakMap<Server, Set<Socket>>();

/** Keep the server's connections in view, for `drainAndClose`. Call before it listens. */
export function trackConnections(server: Server): void {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * Close the connections that no request is being answered on: idle keep-alive ones, and
 * ones that have not sent a whole request head yet (or whose client went quiet in it),
 * which Node does not count as idle. A request being answered has its response attached
 * to the socket (`_httpMessage`) until it is finished.
 */
function cutUnanswered(server: Server): void {
  server.closeIdleConnections();
  for (const socket of connections.get(server) ?? []) {
    if ((socket as Socket & { _httpMessage?: unknown })._httpMessage == null) socket.destroy();
  }
}

/** Whether this node can run more than one HTTP event loop here, and on which address. */
export async function sharedListenAddress(host: string): Promise<string | undefined> {
  if (!native.reusePortSupported()) return undefined;
  if (isIP(host) !== 0) return host;
  return (await lookup(host)).address;
}

/**
 * A socket bound to `host:port` with SO_REUSEPORT (port 0: the kernel picks one, which the
 * workers then share), listening in the kernel; `listenOn` makes the server accept on it.
 */
export function sharedSocket(host: string, port: number): { fd: number; port: number } {
  return native.listenReusePort(host, port, 511);
}

export function listenOn(server: Server, fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ fd }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

interface Options {
  count: number;
  data: Omit<WorkerData, 'eventsPort'>;
  metrics: NodeMetrics;
  logger: Logger;
  /** The event API's thread, when it runs: each worker gets a port to it for its upgrades. */
  events: EventThread | undefined;
  /** The faucet, when it runs: the workers' faucet routes ask it through their ports. */
  faucet?: FaucetService;
}

export class HttpWorkers {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<
    number,
    { remaining: number; collected: ThreadMetrics[]; done: (m: ThreadMetrics[]) => void }
  >();
  private nextId = 0;
  private stopping = false;
  private readonly listening = new Map<Worker, () => void>();

  private constructor(private readonly options: Options) {}

  /**
   * Start `count` worker threads for the port. Resolves once every worker is ready to
   * accept (`listen()` makes them); rejects (with every worker stopped) if one cannot start.
   */
  static async start(options: Options): Promise<HttpWorkers> {
    const workers = new HttpWorkers(options);
    try {
      await Promise.all(
        Array.from({ length: options.count }, () =>
          workers.spawn({ ...options.data, eventsPort: options.events?.portForWorker() }),
        ),
      );
    } catch (err) {
      await workers.stop(0);
      throw err;
    }
    options.metrics.otherThreads = () => workers.metricsOf(undefined);
    return workers;
  }

  private spawn(data: WorkerData): Promise<void> {
    const worker = new Worker(join(__dirname, 'http-worker.js'), {
      workerData: data,
      transferList: data.eventsPort === undefined ? [] : [data.eventsPort],
    });
    this.workers.push(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: ToMain) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'listening') this.listening.get(worker)?.();
        else if (message.type === 'failed') reject(new Error(`an HTTP worker could not start: ${message.message}`));
        else if (message.type === 'metrics') this.collected(message.id, message.metrics);
        else if (message.type === 'faucet-call') {
          const faucet = this.options.faucet;
          const answer: Promise<FaucetAnswer> =
            faucet === undefined
              ? Promise.resolve({ type: 'faucet-answer', id: message.id, error: 'the faucet is off' })
              : answerFaucetCall(faucet, message);
          void answer.then((a) => worker.postMessage(a satisfies ToWorker));
        } else if (message.type === 'metrics-request') {
          // Everyone's but the asker's: its own it adds itself.
          void this.metricsOf(worker).then((metrics) =>
            worker.postMessage({ type: 'metrics-answer', id: message.id, metrics } satisfies ToWorker),
          );
        }
      });
      worker.on('error', (err) => {
        this.options.logger.error({ err, threadId: worker.threadId }, 'an HTTP worker failed');
        reject(err);
      });
      worker.on('exit', (code) => {
        if (!this.stopping) this.options.logger.error({ code, threadId: worker.threadId }, 'an HTTP worker exited');
        const at = this.workers.indexOf(worker);
        if (at >= 0) this.workers.splice(at, 1);
        reject(new Error(`an HTTP worker exited with code ${code}`));
      });
    });
  }

  /** Every worker accepts connections from now on. */
  async listen(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            this.listening.set(worker, resolve);
            worker.postMessage({ type: 'listen' } satisfies ToWorker);
          }),
      ),
    );
  }

  /** The metrics of the main thread (when asked by a worker) and of every worker but `except`. */
  private async metricsOf(except: Worker | undefined): Promise<ThreadMetrics[]> {
    const own = except === undefined ? [] : [(await this.options.metrics.registry.getMetricsAsJSON()) as ThreadMetrics];
    const others = this.workers.filter((w) => w !== except);
    if (others.length === 0) return own;
    const id = this.nextId++;
    const fromWorkers = await new Promise<ThreadMetrics[]>((done) => {
      this.waiting.set(id, { remaining: others.length, collected: [], done });
      setTimeout(() => this.finish(id), METRICS_WAIT_MS).unref();
      for (const w of others) w.postMessage({ type: 'metrics', id } satisfies ToWorker);
    });
    return [...own, ...fromWorkers];
  }

  private collected(id: number, metrics: ThreadMetrics): void {
    const entry = this.waiting.get(id);
    if (entry === undefined) return;
    entry.collected.push(metrics);
    if (--entry.remaining === 0) this.finish(id);
  }

  private finish(id: number): void {
    const entry = this.waiting.get(id);
    if (entry === undefined) return;
    this.waiting.delete(id);
    entry.done(entry.collected);
  }

  /**
   * Stop every worker: each stops accepting, finishes its requests within `graceMs` and
   * lets go of the store, then ends; one that has not said so after that (and a second) is
   * ended all the same.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.workers].map(async (worker) => {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        // Once it has closed its server and its store handle, nothing of it is needed: timers
        // it still holds (a mining job's timeout) must not keep it alive.
        worker.on('message', (message: ToMain) => {
          if (message.type === 'stopped') void worker.terminate();
        });
        worker.postMessage({ type: 'stop', graceMs } satisfies ToWorker);
        const timer = setTimeout(() => void worker.terminate(), graceMs + 1_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}
