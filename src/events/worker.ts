// The event API's thread (thread.ts starts it): the broker (server.ts) with every event API
// connection, over its own handle on the store the main thread opened. The store's event
// feed arrives here, and a thousand subscribers are written to here, so neither the
// publishing nor the writing takes turns from the loops that take blocks in. Upgrade
// requests come from the main thread (through this thread's parent port) and from each
// HTTP worker (through a port of its own).

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { LedgerStore } from '../core/store';
import { createLogger } from '../terminal/logger';
import type { Handoff } from './handoff';
import { EventServer } from './server';
import type { EventWorkerData, FromEvents, ToEvents } from './thread';

const data = workerData as EventWorkerData;
const parent = parentPort!;
const send = (message: FromEvents) => parent.postMessage(message);

function start(): void {
  const { config } = data;
  const logger = createLogger(data.logLevel, { isTTY: data.tty });
  const store = LedgerStore.attach(config.dataDir);
  const server = new EventServer({ config, store, logger, jwtSecret: data.jwtSecret });
  const ports: MessagePort[] = [];
  const take = (message: Handoff) => {
    if (message.type === 'upgrade') server.take(message);
  };
  parent.on('message', (message: ToEvents) => {
    if (message.type === 'upgrade') take(message);
    else if (message.type === 'port') {
      ports.push(message.port);
      message.port.on('message', take);
    } else if (message.type === 'stop') {
      // Every connection closes; upgrades that still arrive are refused (503).
      server.stop();
      send({ type: 'stopped' });
    } else if (message.type === 'close') {
      for (const port of ports) port.close();
      store.close();
      send({ type: 'closed' });
    }
  });
  send({ type: 'ready' });
}

try {
  start();
} catch (err) {
  send({ type: 'failed', message: (err as Error).message });
}
