// The event API under the ledger benchmark's load: `npm run bench:events [-- --clients 1000
// --probes 10 --transactions 5120 --chains 7 --pow 1 --rounds 1]`.
//
// Two runs on fresh nodes (bin/ledger-node.js in a child process), the same load in both
// (ledger-load.mjs: fan-out, one signed transfer per output in chains of pre-mined blocks,
// submitted as bytes): first without subscribers, then with --clients WebSocket MQTT
// clients subscribed to `blocks` and `milestone-info/latest`. The clients live in other
// processes, so the load generator and the node each keep their own event loop.
//
// --probes of the clients are mqtt.js clients (the library wallets and explorers use), in
// a process of their own: they decode every message and take the latency of each
// benchmark block's `blocks` message, from the 201 the load generator received for it
// (both follow the same store write) to the probe's receipt. The other clients do what any
// client must — WebSocket handshake with subprotocol `mqtt`, CONNECT, SUBSCRIBE (packets
// written by mqtt-packet) — and then only walk the MQTT framing of what arrives to count
// PUBLISH packets, so that the figures are the node's and not a thousand copies of a
// client library's decoder.
//
// Prints: submitted blocks/s without and with the subscribers and their ratio (target
// ≥ 85 %), messages delivered per second to all clients, `blocks` messages delivered of
// those expected, clients disconnected, latency p50/p99 (target p99 < 100 ms), and the CPU
// time of the node, the load generator and the subscribers during the submissions (on a
// two-core machine the subscribers compete with the node for the same cores). Asserts
// nothing.

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { arg, fmt, table } from './measure.mjs';
import { BenchNode, core, percentile, prepareLoad, sleep, submitLoad } from './ledger-load.mjs';

const require = createRequire(import.meta.url);
const CLIENTS = arg('clients', 1000);
const PROBES = Math.min(arg('probes', 10), CLIENTS);
const TRANSACTIONS = arg('transactions', 5120);
const CHAINS = arg('chains', 7);
const POW = arg('pow', 1);
const ROUNDS = arg('rounds', 1);
const TOPICS = ['blocks', 'milestone-info/latest'];
/** Wall-clock milliseconds comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

// ---- the subscribers' process ----------------------------------------------------------

/** PUBLISH packets in a stream of MQTT bytes (framing only: type nibble, remaining length). */
class PacketCounter {
  carry = null;
  publishes = 0;
  subacks = 0;
  push(chunk) {
    const data = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
    let at = 0;
    for (;;) {
      if (at + 2 > data.length) break;
      let length = 0;
      let multiplier = 1;
      let next = at + 1;
      let byte;
      do {
        if (next >= data.length) break;
        byte = data[next++];
        length += (byte & 127) * multiplier;
        multiplier *= 128;
      } while (byte & 128);
      if (byte & 128 || next + length > data.length) break;
      const type = data[at] >> 4;
      if (type === 3) this.publishes++;
      else if (type === 9) this.subacks++;
      at = next + length;
    }
    this.carry = at < data.length ? data.subarray(at) : null;
  }
}

async function subscribers(url, clients, probes) {
  const WebSocket = require('ws');
  const mqtt = require('mqtt');
  const { generate } = require('mqtt-packet');
  const counters = [];
  const receipts = [];
  let probeMessages = 0;
  let closed = 0;
  const connectPacket = (i) => generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: `bench-${process.pid}-${i}`, keepalive: 0 });
  const subscribePacket = generate({ cmd: 'subscribe', messageId: 1, subscriptions: TOPICS.map((topic) => ({ topic, qos: 0 })) });

  const light = (i) =>
    new Promise((resolve, reject) => {
      const counter = new PacketCounter();
      counters.push(counter);
      const ws = new WebSocket(url, 'mqtt', { perMessageDeflate: false });
      ws.on('open', () => {
        ws.send(connectPacket(i));
        ws.send(subscribePacket);
      });
      ws.on('message', (data) => {
        counter.push(data);
        if (counter.subacks > 0) resolve();
      });
      ws.on('close', () => {
        closed++;
        reject(new Error(`client ${i} closed`));
      });
      ws.on('error', reject);
    });

  const probe = (i) =>
    new Promise((resolve, reject) => {
      const client = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, clientId: `bench-probe-${process.pid}-${i}` });
      client.on('message', (topic, payload) => {
        probeMessages++;
        if (topic === 'blocks') receipts.push([core.blockId(payload), now()]);
      });
      client.on('close', () => closed++);
      client.once('connect', () => client.subscribe(TOPICS, (err) => (err ? reject(err) : resolve())));
      client.once('error', reject);
    });

  for (let i = 0; i < clients; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, clients - i) }, (_, k) => (i + k < probes ? probe(i + k) : light(i + k))));
  }
  process.send({ ready: true });
  process.on('message', (message) => {
    if (message.reset) {
      for (const c of counters) c.publishes = 0;
      probeMessages = 0;
      receipts.length = 0;
      closed = 0;
      process.send({ reset: true });
    } else if (message.report) {
      const delivered = counters.reduce((s, c) => s + c.publishes, 0) + probeMessages;
      process.send({ delivered, closed, receipts, at: now() });
    }
  });
}

// ---- the benchmark ---------------------------------------------------------------------

/** CPU seconds (user + system) of a process so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** A process of `light` counting clients and `probes` mqtt.js clients. */
function subscriberProcess(wsUrl, light, probes) {
  const child = fork(fileURLToPath(import.meta.url), ['--subscribers', wsUrl, String(light + probes), String(probes)], { stdio: 'inherit' });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m[key] !== undefined) {
          child.off('message', onMessage);
          resolve(m);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`subscribers exited with ${code}`)));
    });
  return { child, next, ready: next('ready') };
}

/**
 * The clients, in two processes: the counting clients in one, the probes in another, so
 * that a busy counting process does not delay the probes' clocks.
 */
function startSubscribers(httpUrl) {
  const wsUrl = `${httpUrl.replace(/^http/, 'ws')}/api/mqtt/v1`;
  const processes = [subscriberProcess(wsUrl, CLIENTS - PROBES, 0), subscriberProcess(wsUrl, 0, PROBES)].filter((_, i) => (i === 0 ? CLIENTS > PROBES : PROBES > 0));
  const all = (message, key) => Promise.all(processes.map((p) => (p.child.send(message), p.next(key))));
  return {
    pids: processes.map((p) => p.child.pid),
    ready: Promise.all(processes.map((p) => p.ready)),
    reset: () => all({ reset: true }, 'reset'),
    report: async () => {
      const parts = await all({ report: true }, 'delivered');
      return { delivered: parts.reduce((s, p) => s + p.delivered, 0), closed: parts.reduce((s, p) => s + p.closed, 0), receipts: parts.flatMap((p) => p.receipts) };
    },
    stop: () => processes.forEach((p) => p.child.kill()),
  };
}

async function run(withSubscribers) {
  const node = await BenchNode.start({ pow: POW });
  let subs;
  try {
    if (withSubscribers) {
      const connectStart = performance.now();
      subs = startSubscribers(node.base);
      await subs.ready;
      console.log(`${CLIENTS} clients subscribed to ${TOPICS.join(' and ')} in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`);
    }
    const { chains } = await prepareLoad(node, { transactions: TRANSACTIONS, chains: CHAINS });
    const all = chains.flat();
    await subs?.reset();
    const pids = [node.child.pid, process.pid, ...(subs?.pids ?? [])];
    const cpuBefore = pids.map(cpuSeconds);
    const startedAt = now();
    const { submitStart, submitEnd } = await submitLoad(node, chains);
    const [cpu, generatorCpu, ...subscriberCpu] = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
    const result = { blocksPerSecond: all.length / ((submitEnd - submitStart) / 1000), seconds: (submitEnd - submitStart) / 1000, cpu, generatorCpu, subscriberCpu: subscriberCpu.reduce((a, b) => a + b, 0), blocks: all.length };
    if (subs) {
      // Wait until every client has every block, or nothing more arrives for 5 s.
      const expected = CLIENTS * all.length;
      let report = await subs.report();
      let lastChange = performance.now();
      for (;;) {
        await sleep(200);
        const next = await subs.report();
        if (next.delivered !== report.delivered) lastChange = performance.now();
        report = next;
        if (report.delivered >= expected || performance.now() - lastChange > 5_000) break;
      }
      const epochOf = (t) => performance.timeOrigin + t;
      const ackOf = new Map(all.map((t) => [t.blockId, epochOf(t.acknowledgedAt)]));
      const latencies = report.receipts.filter(([id]) => ackOf.has(id)).map(([id, at]) => Math.max(0, at - ackOf.get(id))).sort((a, b) => a - b);
      const lastReceipt = Math.max(...report.receipts.map(([, at]) => at), startedAt);
      Object.assign(result, {
        delivered: report.delivered,
        deliveredPerSecond: report.delivered / ((lastReceipt - startedAt) / 1000),
        blocksDelivered: latencies.length,
        blocksExpected: PROBES * all.length,
        closed: report.closed,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      });
    }
    return result;
  } finally {
    subs?.stop();
    await node.stop();
  }
}

async function main() {
  console.log(`${CLIENTS} clients (${PROBES} mqtt.js probes), ${TRANSACTIONS} transfers in ${CHAINS} chains, minPowScore ${POW}, ${ROUNDS} round(s)`);
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const without = await run(false);
    console.log(`round ${round} without subscribers: ${Math.round(without.blocksPerSecond)} blocks/s`);
    const withSubs = await run(true);
    console.log(`round ${round} with ${CLIENTS} subscribers: ${Math.round(withSubs.blocksPerSecond)} blocks/s`);
    rows.push([without, withSubs]);
  }
  for (const [round, [without, withSubs]] of rows.entries()) {
    console.log(`\nround ${round + 1}\n`);
    table(
      ['measure', 'value'],
      [
        ['submitted blocks/s without subscribers', Math.round(without.blocksPerSecond)],
        [`submitted blocks/s with ${CLIENTS} subscribers`, Math.round(withSubs.blocksPerSecond)],
        ['**with / without** (target ≥ 85 %)', `**${((withSubs.blocksPerSecond / without.blocksPerSecond) * 100).toFixed(0)} %**`],
        ['submission time s, without / with', `${without.seconds.toFixed(1)} / ${withSubs.seconds.toFixed(1)}`],
        ['CPU s during the submissions: node without / with', `${without.cpu.toFixed(1)} / ${withSubs.cpu.toFixed(1)}`],
        ['CPU s during the submissions: load generator without / with, subscriber processes', `${without.generatorCpu.toFixed(1)} / ${withSubs.generatorCpu.toFixed(1)}, ${withSubs.subscriberCpu.toFixed(1)}`],
        ['messages delivered to all clients per s', fmt(withSubs.deliveredPerSecond)],
        ['messages delivered (all topics, all clients)', withSubs.delivered],
        ['`blocks` messages of benchmark blocks at the probes', `${withSubs.blocksDelivered} of ${withSubs.blocksExpected}`],
        ['clients disconnected during the run', withSubs.closed],
        ['latency 201 → probe receipt p50 / p99 ms (target p99 < 100)', `${withSubs.p50.toFixed(1)} / ${withSubs.p99.toFixed(1)}`],
      ],
    );
  }
}

if (process.argv[2] === '--subscribers') {
  subscribers(process.argv[3], Number(process.argv[4]), Number(process.argv[5])).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
