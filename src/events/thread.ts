// The event API's thread, seen from the main thread (worker.ts is the thread itself). It
// starts once the store is open; every HTTP event loop then sends it its upgrade requests
// for /api/mqtt/v1: the main thread's server directly (`handoff`), each HTTP worker
// through a port of its own (`portForWorker`). On shutdown, `stop` closes every event API
// connection before the HTTP servers drain, and `close` lets go of the thread's store
// handle before the main thread closes the store.

import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import { eventsHandoff, type EventsUpgrade, type Handoff } from './handoff';

export interface EventWorkerData {
  config: NodeConfig;
  jwtSecret: string;
  logLevel: string;
  tty: boolean;
}

export type ToEvents = Handoff | { type: 'port'; port: MessagePort } | { type: 'stop' } | { type: 'close' };
export type FromEvents =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'stopped' }
  | { type: 'closed' };

/** How long the thread may take to close its connections or its store handle. */
const ANSWER_WAIT_MS = 5_000;

export class EventThread {
  private ended = false;

  private constructor(
    private readonly worker: Worker,
    private readonly logger: Logger,
  ) {
    worker.on('error', (err) => logger.error({ err }, 'the event API thread failed'));
    worker.on('exit', (code) => {
      if (!this.ended) logger.error({ code }, 'the event API thread exited: the event API is down');
      this.ended = true;
    });
  }

  /** Start the thread over the store open in `config.dataDir`; resolves once it takes upgrades. */
  static async start(options: { config: NodeConfig; jwtSecret: string; logger: Logger }): Promise<EventThread> {
    const data: EventWorkerData = {
      config: options.config,
      jwtSecret: options.jwtSecret,
      logLevel: options.logger.level,
      tty: process.stdout.isTTY === true,
    };
    const worker = new Worker(join(__dirname, 'worker.js'), { workerData: data });
    let onMessage: (message: FromEvents) => void = () => {};
    let onExit: (code: number) => void = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        onMessage = (message) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'failed')
            reject(new Error(`the event API thread could not start: ${message.message}`));
        };
        onExit = (code) => reject(new Error(`the event API thread exited with code ${code}`));
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.once('exit', onExit);
      });
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    worker.off('message', onMessage);
    worker.off('exit', onExit);
    return new EventThread(worker, options.logger);
  }

  /** What hands the main thread's event API upgrades to the thread (server/upgrades.ts). */
  handoff(): EventsUpgrade {
    return eventsHandoff({ postMessage: (handoff: Handoff) => this.post(handoff) });
  }

  /** A port for an HTTP worker's handoffs (transfer it to the worker; it calls `eventsHandoff` with it). */
  portForWorker(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ type: 'port', port: port1 } satisfies ToEvents, [port1]);
    return port2;
  }

  /** Close every event API connection; upgrades arriving later are refused with 503. */
  stop(): Promise<void> {
    return this.ask({ type: 'stop' }, 'stopped');
  }

  /** Let go of the store and end the thread. */
  async close(): Promise<void> {
    await this.ask({ type: 'close' }, 'closed');
    this.ended = true;
    await this.worker.terminate();
  }

  private post(message: ToEvents): void {
    if (!this.ended) return this.worker.postMessage(message);
    // Nobody will take the connection: close its descriptor, which ends it.
    if (message.type === 'upgrade') closeSync(message.fd);
  }

  /** Send `message` and wait for the answer `type` (or ANSWER_WAIT_MS, or the thread's end). */
  private ask(message: ToEvents, type: FromEvents['type']): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('exit', done);
        resolve();
      };
      const onMessage = (answer: FromEvents) => {
        if (answer.type === type) done();
      };
      const timer = setTimeout(done, ANSWER_WAIT_MS);
      this.worker.on('message', onMessage);
      this.worker.once('exit', done);
      this.post(message);
    });
  }
}
