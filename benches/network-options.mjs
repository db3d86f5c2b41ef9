// bench:network's command-line options and fixed values, its clock and log, its seeded random
// streams and its ports (the options themselves are described in network.bench.mjs's header).
// Kept in one module that every network-*.mjs imports, so that there is a single random stream:
// the graph, latencies, submitters, transfers and kill times then come out the same for the
// same --seed whichever module draws them, and every port is taken from one counter in
// --port-base … 39999.

import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { arg, loadAverage } from './measure.mjs';

export const NODES = arg('nodes', 30);
export const RATE = arg('rate', 20);
export const TRANSFER_SHARE = arg('transfers', 0.5);
export const SUBMITTERS = arg('submitters', 5);
export const POW = arg('pow', 0);
export const INTERVAL = arg('interval', 2);
export const STEADY = arg('steady', 60);
export const CUT = arg('cut', 60);
export const MINORITY = arg('minority', 0.33);
export const CHURN = arg('churn', 90);
export const KILLS = arg('kills', 5);
export const JOINERS = arg('joiners', 3);
export const SETTLE = arg('settle', 30);
export const IDLE = arg('idle', 20);
export const DEGREE_MIN = arg('degree-min', 4);
export const DEGREE_MAX = arg('degree-max', 8);
export const LATENCY_MIN = arg('latency-min', 20);
export const LATENCY_MAX = arg('latency-max', 200);
export const JITTER = arg('jitter', 10);
export const BANDWIDTH = arg('bandwidth', 1000);
export const PORT_BASE = arg('port-base', 30000);
export const SEED = arg('seed', 1);
export const PHASES = (() => {
  const at = process.argv.indexOf('--phases');
  return at > 0 ? process.argv[at + 1].split(',') : ['steady', 'partition', 'churn', 'joiners'];
})();
export const HORNETS = arg('hornets', 0);
export const HORNET_MQTT = arg('hornet-mqtt', 1) !== 0;
export const INX_MQTT = process.env.INX_MQTT ?? join(process.env.HORNET_BIN ?? '/work/interop/bin', 'inx-mqtt');
/** Hornets' indexes in the probe's tables (ours are 0 … nodes + joiners − 1). */
export const HORNET_INDEX = 10_000;
export const TOXIPROXY = process.env.TOXIPROXY_SERVER ?? '/work/interop/bin/toxiproxy-server';
export const JWT_SECRET = 'ledger-node bench:network';
export const COORDINATOR_SEED =
  '0x' + createHash('sha256').update('ledger-node bench:network coordinator').digest('hex');
export const TAG = '0x' + Buffer.from('bench:network').toString('hex');
export const MAX_IN_FLIGHT = 256;
export const now = () => performance.timeOrigin + performance.now();
export const load = loadAverage;
const started = now();
export const log = (line) => console.log(`[${((now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// ---- randomness (seeded: the same graph and latencies for the same --seed) -----------------

function seeded(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const random = seeded(SEED);
/** The Hornets' placement draws from a stream of its own: the rest is drawn as in a run without them. */
export const hornetRandom = seeded(SEED ^ 0x5bd1e995);
export const randomInt = (lo, hi, rng = random) => lo + Math.floor(rng() * (hi - lo + 1));
export const shuffle = (items, rng = random) => {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

// ---- ports in --port-base … 39999 ------------------------------------------------------------

let nextPort = PORT_BASE;
const isFree = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
export async function takePort() {
  for (;;) {
    const port = nextPort++;
    if (port > 39_999) throw new Error('no free port left below 40000');
    if (await isFree(port)) return port;
  }
}
