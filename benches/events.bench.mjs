// The event API under the ledger benchmark's load: `npm run bench:events [-- --clients 1000
// --probes 10 --transactions 5120 --chains 7 --pow 1 --rounds 1]`.
//
// Two runs on fresh nodes (bin/ledger-node.js in a child process), the same load in both
// (ledger-load.mjs: fan-out, one signed transfer per output in chains of pre-mined blocks,
// submitted as bytes): first without subscribers, then with --clients WebSocket MQTT
// clients subscribed to `blocks` and `milestone-info/latest`. The clients live in one
// process of their own, so the load generator and the node each keep their own event loop.
//
// The clients are made cheap, because they share the machine's cores with the node
// (mqtt-subscribers.mjs): each does what any client must — WebSocket handshake with
// subprotocol `mqtt`, CONNECT, SUBSCRIBE (packets written by mqtt-packet) — and then only
// walks the WebSocket and MQTT framing of what arrives to count PUBLISH packets, with no
// decoding and no allocation per message. --probes of them also keep each `blocks`
// message with its time of receipt: the latency is from the 201 the load generator
// received for a benchmark block (both follow the same store write) to a probe's receipt
// of its `blocks` message (the block id is computed after the run).
//
// Prints: submitted blocks/s without and with the subscribers and their ratio (target
// ≥ 85 %), messages delivered per second to all clients, `blocks` messages delivered of
// those expected, clients disconnected, latency p50/p99 (target p99 < 100 ms), the load
// average, and the CPU time of the node, the load generator and the clients, during the
// submissions and until the last message arrived, also per message delivered (on a
// two-core machine the clients compete with the node for the same cores). Asserts
// nothing.

import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { arg, cpuSeconds, fmt, table } from './measure.mjs';
import { BenchNode, core, percentile, prepareLoad, sleep, submitLoad } from './ledger-load.mjs';
import { loopback, Subscriber } from './mqtt-subscribers.mjs';

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

async function subscribers(url, clients, probes) {
  const all = [];
  // Probes spread evenly over the connection order, which is the order of a flush's writes.
  const every = Math.max(1, Math.floor(clients / Math.max(1, probes)));
  const isProbe = (i) => i % every === every - 1 && Math.floor(i / every) < probes;
  for (let i = 0; i < clients; i += 50) {
    const batch = Array.from(
      { length: Math.min(50, clients - i) },
      (_, k) => new Subscriber(url, `bench-${process.pid}-${i + k}`, TOPICS, { probe: isProbe(i + k), now }),
    );
    all.push(...batch);
    await Promise.all(batch.map((s) => s.ready));
  }
  const probing = all.filter((s) => s.probe);
  process.send({ ready: true });
  process.on('message', (message) => {
    if (message.reset) {
      for (const s of all) s.publishes = s.blocks = 0;
      for (const s of probing) s.receipts.length = 0;
      process.send({ reset: true });
    } else if (message.report) {
      const sum = (key) => all.reduce((total, s) => total + s[key], 0);
      process.send({
        delivered: sum('publishes'),
        blocks: sum('blocks'),
        frames: sum('frames'),
        bytes: sum('bytes'),
        closed: all.filter((s) => s.closed).length,
      });
    } else if (message.receipts) {
      // Block ids only now, after the measured window.
      process.send({
        receipts: probing.flatMap((s) => s.receipts.map(([payload, at]) => [core.blockId(payload), at])),
      });
    }
  });
}

// ---- the benchmark ---------------------------------------------------------------------

/** A child process of this file in `mode`, and a way to wait for its next message with `key`. */
function child(mode, args) {
  const process_ = fork(fileURLToPath(import.meta.url), [mode, ...args.map(String)], { stdio: 'inherit' });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m[key] !== undefined) {
          process_.off('message', onMessage);
          resolve(m);
        }
      };
      process_.on('message', onMessage);
      process_.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
    });
  return { process: process_, next };
}

/**
 * The reference measured after the run with subscribers (mqtt-subscribers.mjs, `loopback`):
 * `perClient` bytes to each of CLIENTS loopback connections in writes of `chunkBytes`, from
 * one process to another, with nothing else. Returns the CPU seconds of each and the time.
 */
async function loopbackReference(chunkBytes, perClient) {
  const sender = child('--loopback-sender', [CLIENTS]);
  const { port } = await sender.next('port');
  const receivers = child('--loopback-receivers', [port, CLIENTS, perClient]);
  try {
    await receivers.next('connected');
    const pids = [sender.process.pid, receivers.process.pid];
    const before = pids.map(cpuSeconds);
    const started = performance.now();
    sender.process.send({ send: { chunkBytes, perClient } });
    await receivers.next('received');
    const [senderCpu, receiversCpu] = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
    return { senderCpu, receiversCpu, seconds: (performance.now() - started) / 1000 };
  } finally {
    sender.process.kill();
    receivers.process.kill();
  }
}

/** Every client in one process of `Subscriber`s, `PROBES` of them probes. */
function startSubscribers(httpUrl) {
  const wsUrl = `${httpUrl.replace(/^http/, 'ws')}/api/mqtt/v1`;
  const { process: subscribers, next } = child('--subscribers', [wsUrl, CLIENTS, PROBES]);
  const ask = (message, key) => (subscribers.send(message), next(key));
  return {
    pid: subscribers.pid,
    ready: next('ready'),
    reset: () => ask({ reset: true }, 'reset'),
    report: () => ask({ report: true }, 'delivered'),
    receipts: async () => (await ask({ receipts: true }, 'receipts')).receipts,
    stop: () => subscribers.kill(),
  };
}

/** The 1-minute load average, as the report gives it next to each figure. */
const load = () => loadavg()[0].toFixed(2);

async function run(withSubscribers) {
  const node = await BenchNode.start({ pow: POW });
  let subs;
  try {
    if (withSubscribers) {
      const connectStart = performance.now();
      subs = startSubscribers(node.base);
      await subs.ready;
      console.log(
        `${CLIENTS} clients subscribed to ${TOPICS.join(' and ')} in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`,
      );
    }
    const { chains } = await prepareLoad(node, { transactions: TRANSACTIONS, chains: CHAINS });
    const all = chains.flat();
    await subs?.reset();
    const pids = [node.child.pid, process.pid, subs?.pid];
    const cpuBefore = pids.map(cpuSeconds);
    const loadBefore = load();
    const startedAt = now();
    const { submitStart, submitEnd } = await submitLoad(node, chains);
    const [cpu, generatorCpu, subscriberCpu] = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
    const seconds = (submitEnd - submitStart) / 1000;
    const result = {
      blocksPerSecond: all.length / seconds,
      seconds,
      cpu,
      generatorCpu,
      subscriberCpu,
      blocks: all.length,
      load: `${loadBefore} → ${load()}`,
    };
    if (subs) {
      // Wait until every client has every block, or nothing more arrives for 5 s.
      const expected = CLIENTS * all.length;
      let report = await subs.report();
      let lastChange = performance.now();
      let lastAt = now();
      const cpuAtChange = () => pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
      let cpuToLast = cpuAtChange();
      for (;;) {
        await sleep(100);
        const next = await subs.report();
        if (next.delivered !== report.delivered) {
          lastChange = performance.now();
          lastAt = now();
          cpuToLast = cpuAtChange();
        }
        report = next;
        if (report.blocks >= expected || performance.now() - lastChange > 5_000) break;
      }
      const receipts = await subs.receipts();
      const epochOf = (t) => performance.timeOrigin + t;
      const ackOf = new Map(all.map((t) => [t.blockId, epochOf(t.acknowledgedAt)]));
      const latencies = receipts
        .filter(([id]) => ackOf.has(id))
        .map(([id, at]) => Math.max(0, at - ackOf.get(id)))
        .sort((a, b) => a - b);
      Object.assign(result, {
        delivered: report.delivered,
        blocksToAll: report.blocks,
        blocksToAllExpected: expected,
        bytes: report.bytes,
        frames: report.frames,
        deliveredPerSecond: report.delivered / ((lastAt - startedAt) / 1000),
        deliverySeconds: (lastAt - startedAt) / 1000,
        // CPU from the first submission to the last message received (about when delivery ended).
        cpuToLast,
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
  console.log(
    `${CLIENTS} clients (${PROBES} of them probes for latency), ${TRANSACTIONS} transfers in ${CHAINS} chains, minPowScore ${POW}, ${ROUNDS} round(s), ${cpus().length} cores`,
  );
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const without = await run(false);
    console.log(
      `round ${round} without subscribers: ${Math.round(without.blocksPerSecond)} blocks/s (load ${without.load})`,
    );
    const withSubs = await run(true);
    console.log(
      `round ${round} with ${CLIENTS} subscribers: ${Math.round(withSubs.blocksPerSecond)} blocks/s (load ${withSubs.load})`,
    );
    withSubs.reference = await loopbackReference(
      Math.round(withSubs.bytes / withSubs.frames),
      Math.round(withSubs.bytes / CLIENTS),
    );
    rows.push([without, withSubs]);
  }
  const cores = cpus().length;
  for (const [round, [without, withSubs]] of rows.entries()) {
    const [nodeToLast, , subscribersToLast] = withSubs.cpuToLast;
    const perMessage = (cpuSeconds) => `${((cpuSeconds * 1e6) / withSubs.delivered).toFixed(2)} µs`;
    console.log(`\nround ${round + 1}\n`);
    table(
      ['measure', 'value'],
      [
        ['submitted blocks/s without subscribers', Math.round(without.blocksPerSecond)],
        [`submitted blocks/s with ${CLIENTS} subscribers`, Math.round(withSubs.blocksPerSecond)],
        [
          '**with / without** (target ≥ 85 %)',
          `**${((withSubs.blocksPerSecond / without.blocksPerSecond) * 100).toFixed(0)} %**`,
        ],
        ['1-minute load average during the run, without / with', `${without.load} / ${withSubs.load}`],
        ['submission time s, without / with', `${without.seconds.toFixed(1)} / ${withSubs.seconds.toFixed(1)}`],
        [
          `CPU s during the submissions (the machine has ${cores} × the time): node without / with`,
          `${without.cpu.toFixed(1)} / ${withSubs.cpu.toFixed(1)}`,
        ],
        ['… load generator without / with', `${without.generatorCpu.toFixed(1)} / ${withSubs.generatorCpu.toFixed(1)}`],
        ["… the subscribers' process (all clients)", withSubs.subscriberCpu.toFixed(1)],
        [
          `CPU s from the first submission to the last message (${withSubs.deliverySeconds.toFixed(1)} s): node / subscribers`,
          `${nodeToLast.toFixed(1)} / ${subscribersToLast.toFixed(1)}`,
        ],
        [
          '… per message delivered: node beyond its run without subscribers / subscribers',
          `${perMessage(nodeToLast - without.cpu)} / ${perMessage(subscribersToLast)}`,
        ],
        [
          `reference: the same ${fmt(withSubs.bytes / 1e6, 0)} MB over loopback TCP to ${CLIENTS} connections in ${fmt(withSubs.bytes / withSubs.frames / 1e3, 1)} kB writes, nothing else: CPU s writer / readers, time s`,
          `${withSubs.reference.senderCpu.toFixed(1)} / ${withSubs.reference.receiversCpu.toFixed(1)}, ${withSubs.reference.seconds.toFixed(1)}`,
        ],
        ['messages delivered to all clients per s', fmt(withSubs.deliveredPerSecond)],
        ['messages delivered (all topics, all clients)', withSubs.delivered],
        [
          '`blocks` messages received by all clients, of those expected',
          `${withSubs.blocksToAll} of ${withSubs.blocksToAllExpected}`,
        ],
        [
          '`blocks` messages of benchmark blocks at the probes',
          `${withSubs.blocksDelivered} of ${withSubs.blocksExpected}`,
        ],
        ['clients disconnected during the run', withSubs.closed],
        [
          'latency 201 → probe receipt p50 / p99 ms (target p99 < 100)',
          `${withSubs.p50.toFixed(1)} / ${withSubs.p99.toFixed(1)}`,
        ],
      ],
    );
  }
}

const failed = (err) => {
  console.error(err);
  process.exit(1);
};
if (process.argv[2] === '--subscribers') {
  subscribers(process.argv[3], Number(process.argv[4]), Number(process.argv[5])).catch(failed);
} else if (process.argv[2] === '--loopback-sender') {
  loopback
    .sender(Number(process.argv[3]), (m) => process.send(m))
    .then(
      (send) =>
        process.on(
          'message',
          (m) => m.send && send(m.send.chunkBytes, m.send.perClient).then(() => process.send({ sent: true }), failed),
        ),
      failed,
    );
} else if (process.argv[2] === '--loopback-receivers') {
  const [port, clients, perClient] = process.argv.slice(3).map(Number);
  loopback.receivers(port, clients, perClient).then(({ finished }) => {
    process.send({ connected: true });
    return finished.then(() => process.send({ received: true }));
  }, failed);
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
