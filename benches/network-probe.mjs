// bench:network's probe: one MQTT-over-WebSocket client per node (ours, and a Hornet's
// inx-mqtt), noting when each node stored and referenced each block. It runs in a child
// process of its own (this file, forked with --probe) so that handling the messages of 30–50
// clients neither delays the load's clock nor counts as the bench's CPU; both processes read
// the same clock (performance.timeOrigin + now()), so the times it notes compare with the
// submissions' times.

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { core } from './ledger-load.mjs';
import { now, TAG } from './network-options.mjs';

const require = createRequire(import.meta.url);

async function probe() {
  const mqtt = require('mqtt');
  /** block ID → { stored: times by node index, referenced: times by node index } */
  const blocks = new Map();
  const entry = (id) => {
    let e = blocks.get(id);
    if (e === undefined) blocks.set(id, (e = { stored: {}, referenced: {} }));
    return e;
  };
  const clients = [];
  const add = (index, url) => {
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
      clientId: `bench-network-${process.pid}-${index}`,
    });
    client.on('connect', () =>
      client.subscribe([`blocks/tagged-data/${TAG}`, 'blocks/transaction', 'block-metadata/referenced']),
    );
    client.on('message', (topic, payload) => {
      const at = now();
      if (topic === 'block-metadata/referenced') {
        const e = entry(JSON.parse(payload.toString()).blockId);
        e.referenced[index] ??= at;
      } else {
        const e = entry(core.blockId(payload));
        e.stored[index] ??= at;
      }
    });
    client.on('error', () => {});
    clients.push(client);
  };
  process.on('disconnect', () => process.exit(0)); // the bench ended, however it ended
  process.on('message', (message) => {
    if (message.add) add(message.add.index, message.add.url);
    if (message.report) {
      const out = {};
      for (const id of message.report) out[id] = blocks.get(id) ?? { stored: {}, referenced: {} };
      process.send({ blocks: out });
    }
    if (message.stop) {
      for (const c of clients) c.end(true);
      process.exit(0);
    }
  });
  process.send({ ready: true });
}

export function startProbe() {
  const child = fork(fileURLToPath(import.meta.url), ['--probe', String(TAG)], { stdio: 'inherit' });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  return {
    ready: next(),
    pid: child.pid,
    add: (n, url = `ws://127.0.0.1:${n.restPort}/api/mqtt/v1`) => child.send({ add: { index: n.index, url } }),
    async report(ids) {
      const answer = next();
      child.send({ report: ids });
      return (await answer).blocks;
    },
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.send({ stop: true }))),
  };
}

if (process.argv[2] === '--probe') await probe();
