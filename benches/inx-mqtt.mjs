// bench:inx, phase `mqtt`: the built-in event API (TIP-28 over WebSocket, /api/mqtt/v1)
// against Hornet's inx-mqtt 1.0.0, with N subscribers on `blocks` and
// `milestone-info/latest` and tagged-data blocks submitted at a fixed rate.
//
// The subscribers are bench:events' cheap clients (mqtt-subscribers.mjs), all in one
// process of their own (events.bench.mjs in its `--subscribers` mode); --probes of them keep
// each `blocks` message with its time of receipt. Three targets, each on a fresh node
// (minPowScore 1, a milestone every second):
// - built-in: the node's own event API;
// - inx-mqtt direct: a node with --no-events --inx and inx-mqtt attached (its WebSocket on,
//   as scripts/interop/inx-mqtt.sh part b runs it), the clients on inx-mqtt's own port;
// - inx-mqtt via proxy: the same, the clients on ws://<node>/api/mqtt/v1, which the node
//   forwards to inx-mqtt (the proxy's cost).
// The load: --rate tagged-data blocks a second for --seconds, posted as JSON without
// parents and nonce (the node selects tips and mines to score 1), the same for all three.
// Figures: messages delivered a second to all clients (from the first submission to the last
// message), `blocks` messages received of those expected, latency from a block's submission
// (the POST sent) to a probe's receipt p50/p99, and the CPU seconds of the broker side over
// that time: the node, and inx-mqtt.

import { fork } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load, sleep, startInxMqtt } from './inx-extensions.mjs';
import { BenchNode, percentile } from './ledger-load.mjs';
import { cpuSeconds } from './measure.mjs';
import { freePort } from './node-process.mjs';

const EVENTS_BENCH = fileURLToPath(new URL('./events.bench.mjs', import.meta.url));
/** Wall-clock milliseconds comparable between processes (as the subscribers' process uses). */
const now = () => performance.timeOrigin + performance.now();

/** bench:events' subscribers' process on `wsUrl`: `clients` clients, `probes` of them probes. */
function subscribers(wsUrl, clients, probes) {
  const child = fork(EVENTS_BENCH, ['--subscribers', wsUrl, String(clients), String(probes)], { stdio: 'inherit' });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m[key] !== undefined) {
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(m);
        }
      };
      const onExit = (code) => reject(new Error(`subscribers exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ask = (message, key) => (child.send(message), next(key));
  return {
    pid: child.pid,
    ready: next('ready'),
    reset: () => ask({ reset: true }, 'reset'),
    report: () => ask({ report: true }, 'delivered'),
    receipts: async () => (await ask({ receipts: true }, 'receipts')).receipts,
    stop: () => child.kill(),
  };
}

/** Tagged-data blocks at `rate` a second for `seconds`; returns blockId → submission time. */
async function sendLoad(node, rate, seconds) {
  const submitted = new Map();
  const pending = [];
  const start = performance.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const body = Buffer.from(
      JSON.stringify({
        protocolVersion: 2,
        payload: { type: 5, tag: '0x696e782d62656e6368', data: `0x${i.toString(16).padStart(8, '0')}` },
      }),
    );
    const at = now();
    pending.push(node.post(body).then((id) => submitted.set(id, at)));
  }
  await Promise.all(pending);
  return { submitted, seconds: (performance.now() - start) / 1000 };
}

/** One measured window: `clients` subscribers on `wsUrl`, the load, until delivery ends. */
async function measure(node, wsUrl, brokerPids, { clients, probes, rate, seconds }) {
  const subs = subscribers(wsUrl, clients, probes);
  try {
    const connectStart = performance.now();
    await subs.ready;
    const connectSeconds = (performance.now() - connectStart) / 1000;
    await sleep(1500); // a milestone or two: every client past its first messages
    await subs.reset();
    const pids = [...brokerPids, subs.pid];
    const cpuBefore = pids.map(cpuSeconds);
    const loadBefore = load();
    const startedAt = now();
    const { submitted, seconds: sendSeconds } = await sendLoad(node, rate, seconds);
    const expected = clients * submitted.size;
    // Until every probe has every submitted block, or none arrived for 3 s (milestone
    // messages keep coming every second, so the counts alone never settle).
    const received = (receipts) => receipts.filter(([id]) => submitted.has(id));
    let report = await subs.report();
    let latencies = [];
    let lastChange = performance.now();
    let cpuToLast = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
    for (;;) {
      await sleep(250);
      const cpuNow = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
      const reportNow = await subs.report();
      const found = received(await subs.receipts());
      if (found.length !== latencies.length) {
        latencies = found;
        lastChange = performance.now();
        cpuToLast = cpuNow;
        report = reportNow;
      }
      if (latencies.length >= probes * submitted.size || performance.now() - lastChange > 3_000) break;
    }
    const lastAt = Math.max(...latencies.map(([, at]) => at));
    latencies = latencies.map(([id, at]) => Math.max(0, at - submitted.get(id))).sort((a, b) => a - b);
    const windowSeconds = (lastAt - startedAt) / 1000;
    return {
      connectSeconds,
      sendSeconds,
      sent: submitted.size,
      delivered: report.delivered,
      deliveredPerSecond: report.delivered / windowSeconds,
      blocksToAll: report.blocks,
      expected,
      closed: report.closed,
      probeReceipts: latencies.length,
      probeExpected: probes * submitted.size,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      windowSeconds,
      brokerCpu: cpuToLast.slice(0, brokerPids.length),
      subscriberCpu: cpuToLast.at(-1),
      load: `${loadBefore} → ${load()}`,
    };
  } finally {
    subs.stop();
  }
}

export async function mqttPhase({ clientCounts, probes, rate, seconds, work }) {
  const results = [];
  for (const clients of clientCounts) {
    const options = { clients, probes: Math.min(probes, clients), rate, seconds };
    // Built-in.
    let node = await BenchNode.start({ pow: 1 });
    try {
      const r = await measure(node, `${node.base.replace(/^http/, 'ws')}/api/mqtt/v1`, [node.child.pid], options);
      results.push({ clients, target: 'built-in', ...r });
      console.log(`mqtt ${clients} clients, built-in: ${Math.round(r.deliveredPerSecond)} messages/s (load ${r.load})`);
    } finally {
      await node.stop();
    }
    // inx-mqtt, on its own port and through the node's proxy.
    const inxPort = await freePort();
    node = await BenchNode.start({ pow: 1, args: ['--no-events', '--inx', '--inx-bind', `127.0.0.1:${inxPort}`] });
    const inxMqtt = await startInxMqtt(join(work, `inx-mqtt-${clients}`), `127.0.0.1:${inxPort}`);
    try {
      await inxMqtt.waitForLog(/Registering API route \.\.\. done/, 60_000);
      for (const [target, wsUrl] of [
        ['inx-mqtt direct', inxMqtt.wsUrl],
        ['inx-mqtt via proxy', `${node.base.replace(/^http/, 'ws')}/api/mqtt/v1`],
      ]) {
        const r = await measure(node, wsUrl, [node.child.pid, inxMqtt.pid], options);
        results.push({ clients, target, ...r });
        console.log(
          `mqtt ${clients} clients, ${target}: ${Math.round(r.deliveredPerSecond)} messages/s (load ${r.load})`,
        );
      }
    } finally {
      await inxMqtt.stop();
      await node.stop();
    }
  }
  return results;
}
