// A network of nodes on one machine: `npm run bench:network [-- --nodes 30 --rate 20 …]`
// (issue 24; docs/benchmarks.md "npm run bench:network"). Documented, not run in CI. Linux
// only (/proc, `ss`).
//
// --nodes bin/ledger-node.js processes on loopback (node 0 runs the coordinator, the others
// follow its key), each with a temporary data directory and HTTP, p2p and proxy ports in
// --port-base … 39999. They are peered in a random connected graph in which every node has
// --degree-min … --degree-max peers (Hornet's connection-manager watermarks 4–8); both ends of
// a link list each other as static peers (Hornet-style peering: a peer is "known" on both
// sides, so the unknown-peer limit never applies), and each dials the other through a
// Toxiproxy proxy of its own (one proxy per directed link: node a dials 127.0.0.1:<proxy a→b>,
// whose upstream is b's p2p port). Every proxy has a `latency` toxic on both streams (the
// link's one-way delay, drawn once per link uniformly in --latency-min … --latency-max ms,
// jitter --jitter % of it) and a `bandwidth` toxic on both streams (--bandwidth KB/s). Of the
// two connections of a link, gossip keeps one stream (docs/gossip.md "Simultaneous dials").
// Toxiproxy (v2.12; TOXIPROXY_SERVER, default /work/interop/bin/toxiproxy-server) is driven
// over its HTTP API on a port of the range.
//
// Load: tagged-data blocks and value transfers (--transfers share of them, default 0.5)
// submitted as JSON without parents (the node selects tips, mines at --pow) at --submitters
// nodes (not the coordinator), round robin, --rate blocks a second in all (by the clock,
// checked ten times a second); at most 256 submissions in flight (what did not fit is
// counted as "skipped").
// Transfers spend a pool of outputs fanned out from the genesis output; an output is spent
// again once the coordinator's milestone has confirmed the transfer that made it (its
// utxo-changes, read once a milestone).
//
// Phases (the load runs in all but idle):
//   idle      --idle s before the load starts (what the network costs by itself);
//   steady    --steady s;
//   partition --cut s: the links between a connected third of the nodes (--minority share,
//             not the coordinator; at least one and, where the graph allows, at most a
//             third of the submitters among them) and the rest are cut (both
//             proxies of each link disabled: connections closed, dials refused), then healed.
//             Printed: /health and `isHealthy` of the smaller side during the cut, whether it
//             confirmed a milestone on its own, the catch-up time (heal → every node's
//             confirmed milestone ≥ the coordinator's at the heal), and what became of the
//             blocks submitted on the smaller side during the cut (201 and referenced later,
//             201 and never referenced, answered with an error);
//   churn     --churn s: --kills nodes (not the coordinator nor a submitter) are killed with
//             SIGKILL at random moments and restarted 5–15 s later on their data directory;
//   joiners   --joiners fresh nodes started 10 s apart, each peered with 4 random nodes (it
//             lists them; they get it over POST /api/core/v2/peers), then --settle s.
// For a restarted or new node: the time from its process start to synced (/health 200 and
// confirmed ≥ the coordinator's confirmed at its start). At the end (after --settle s without
// load): every node's confirmed milestone, milestone payloads compared across nodes (a fork
// would differ or stop a node), and `included-block` of up to 40 confirmed transfers asked of
// every node and compared with the coordinator's answer.
//
// Measured per phase (blocks = the blocks the coordinator stored in the phase, milestones
// included): propagation submit → stored at 50 %, 90 %, 100 % of the nodes (p50/p99 over the
// phase's blocks; "stored" = the node's event API published the block on
// `blocks/tagged-data/<tag>` or `blocks/transaction`; the nodes counted for a block are those
// running when it was sent, less those killed within 10 s of it or not synced again yet), submit → referenced at every node
// (`block-metadata/referenced`), the share of acknowledged blocks the coordinator saw
// referenced, duplicate block messages per block per node (gossip's `knownBlocks`), bytes sent
// per block per node (the kernel's byte counts of the proxies' sockets to the nodes' p2p ports
// ÷ nodes ÷ blocks: each byte is sent by one node; libp2p framing, heartbeats and requests
// included; connections closed in the phase are missing), CPU per block per node (/proc),
// RSS per node, the load average, and the cores the probe, Toxiproxy and this process took.
// The probe is a child process with one MQTT-over-WebSocket client per node; both processes
// read the same clock (performance.timeOrigin + now()).
//
// Options (defaults in brackets): --nodes [30] --rate [20] blocks/s in all (the issue's 200 is
// possible, not carried by 2 cores with 30 nodes) --transfers [0.5] --submitters [5] --pow [0]
// --interval [2] s between milestones --idle [20] --steady [60] --cut [60] --minority [0.33] --churn [90]
// --kills [5] --joiners [3] --settle [30] --degree-min [4] --degree-max [8]
// --latency-min [20] --latency-max [200] ms --jitter [10] % --bandwidth [1000] KB/s per
// direction and link --port-base [30000] --seed [1] --phases [steady,partition,churn,joiners]
// --hornets [0] --hornet-mqtt [1].
// Prints figures, asserts nothing — except with --hornets.
//
// Hornet in the crowd (--hornets n, issue 24 item 5; an interop check, not CI): n Hornet 2.0.1
// followers (HORNET_BIN, HORNET_INTEROP: hornet.mjs startHornetFollower, each with a p2p
// identity of its own) join the network as ordinary members: each peered with --degree-min …
// --degree-max of our nodes (those below --degree-max first; drawn from a random stream of
// its own, so the graph, latencies and submitters are those of the same --seed without
// Hornets), both ends listing each other, every link a pair of Toxiproxy proxies with a latency
// and bandwidth drawn as ours. All nodes then use genesis style `hornet`; the Hornets start
// from the genesis snapshot our coordinator writes (`ledger-node snapshot write`) and follow
// through these links. The partition cuts a Hornet's links to the smaller side too (meant to
// keep it with the larger side); churn and joiners leave it alone. Caveat (2026-11-28 run): at
// its next redial (p2p.reconnectInterval, 30 s) Hornet reaches a cut peer at the p2p address
// it learnt through libp2p identify, not through the proxy, and so bridges the partition
// (and a redialled link has no latency or bandwidth toxic).
// With --hornet-mqtt 1 (INX_MQTT, default $HORNET_BIN/inx-mqtt) each Hornet runs with INX and
// an inx-mqtt whose WebSocket the probe subscribes to as to ours: its propagation and time to
// referenced are printed beside ours, per phase. Under the load, each Hornet's confirmed
// milestone is polled against the coordinator's every 2 s. At the end (after --settle):
// each Hornet's confirmed milestone reaches the coordinator's (waited up to 120 s); for every
// index up to it, the milestone payload and id and `utxo-changes` equal the coordinator's;
// every output those milestones created (spent or not) equals ours, `output` and metadata
// (less `ledgerIndex`); `included-block` and its metadata of the sampled transfers equal the
// coordinator's. Every difference is printed; the exit code is 1 if there is any.

import { execFileSync, fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect as tcpConnect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { hornetFollowerUnavailable, startHornetFollower, writeGenesisSnapshot } from './hornet.mjs';
import { arg, cpuSeconds, loadAverage, rssMiB, table } from './measure.mjs';
import {
  BenchNode,
  benchKey,
  core,
  genesisKey,
  GENESIS_OUTPUT_ID,
  percentile,
  pool,
  sleep,
  split,
  transfer,
} from './ledger-load.mjs';

const require = createRequire(import.meta.url);

const NODES = arg('nodes', 30);
const RATE = arg('rate', 20);
const TRANSFER_SHARE = arg('transfers', 0.5);
const SUBMITTERS = arg('submitters', 5);
const POW = arg('pow', 0);
const INTERVAL = arg('interval', 2);
const STEADY = arg('steady', 60);
const CUT = arg('cut', 60);
const MINORITY = arg('minority', 0.33);
const CHURN = arg('churn', 90);
const KILLS = arg('kills', 5);
const JOINERS = arg('joiners', 3);
const SETTLE = arg('settle', 30);
const IDLE = arg('idle', 20);
const DEGREE_MIN = arg('degree-min', 4);
const DEGREE_MAX = arg('degree-max', 8);
const LATENCY_MIN = arg('latency-min', 20);
const LATENCY_MAX = arg('latency-max', 200);
const JITTER = arg('jitter', 10);
const BANDWIDTH = arg('bandwidth', 1000);
const PORT_BASE = arg('port-base', 30000);
const SEED = arg('seed', 1);
const PHASES = (() => {
  const at = process.argv.indexOf('--phases');
  return at > 0 ? process.argv[at + 1].split(',') : ['steady', 'partition', 'churn', 'joiners'];
})();
const HORNETS = arg('hornets', 0);
const HORNET_MQTT = arg('hornet-mqtt', 1) !== 0;
const INX_MQTT = process.env.INX_MQTT ?? join(process.env.HORNET_BIN ?? '/work/interop/bin', 'inx-mqtt');
/** Hornets' indexes in the probe's tables (ours are 0 … nodes + joiners − 1). */
const HORNET_INDEX = 10_000;
const TOXIPROXY = process.env.TOXIPROXY_SERVER ?? '/work/interop/bin/toxiproxy-server';
const JWT_SECRET = 'ledger-node bench:network';
const COORDINATOR_SEED = '0x' + createHash('sha256').update('ledger-node bench:network coordinator').digest('hex');
const TAG = '0x' + Buffer.from('bench:network').toString('hex');
const MAX_IN_FLIGHT = 256;
const now = () => performance.timeOrigin + performance.now();
const load = loadAverage;
const started = now();
const log = (line) => console.log(`[${((now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

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
const random = seeded(SEED);
/** The Hornets' placement draws from a stream of its own: the rest is drawn as in a run without them. */
const hornetRandom = seeded(SEED ^ 0x5bd1e995);
const randomInt = (lo, hi, rng = random) => lo + Math.floor(rng() * (hi - lo + 1));
const shuffle = (items, rng = random) => {
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
async function takePort() {
  for (;;) {
    const port = nextPort++;
    if (port > 39_999) throw new Error('no free port left below 40000');
    if (await isFree(port)) return port;
  }
}

// ---- Toxiproxy -------------------------------------------------------------------------------

class Toxiproxy {
  static async start() {
    const port = await takePort();
    const child = spawn(TOXIPROXY, ['-host', '127.0.0.1', '-port', String(port)], {
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const proxy = new Toxiproxy(child, `http://127.0.0.1:${port}`);
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${proxy.api}/version`)).ok) return proxy;
      } catch {
        // not up yet
      }
      await sleep(100);
    }
    throw new Error(`toxiproxy-server (${TOXIPROXY}) did not answer`);
  }

  constructor(child, api) {
    this.child = child;
    this.api = api;
  }

  async call(method, path, body) {
    const res = await fetch(`${this.api}${path}`, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${text}`);
    return text;
  }

  /** A proxy `name` listening on `listen`, to `upstream`, with the link's latency and bandwidth on both streams. */
  async create(name, listen, upstream, latency) {
    await this.call('POST', '/proxies', { name, listen, upstream, enabled: true });
    for (const stream of ['upstream', 'downstream']) {
      await this.call('POST', `/proxies/${name}/toxics`, {
        name: `latency_${stream}`,
        type: 'latency',
        stream,
        attributes: { latency, jitter: Math.round((latency * JITTER) / 100) },
      });
      await this.call('POST', `/proxies/${name}/toxics`, {
        name: `bandwidth_${stream}`,
        type: 'bandwidth',
        stream,
        attributes: { rate: BANDWIDTH },
      });
    }
  }

  /** Disabling closes the proxy's connections and its listener; enabling listens again. */
  enable(name, enabled) {
    return this.call('POST', `/proxies/${name}`, { enabled });
  }

  stop() {
    return new Promise((r) => (this.child.exitCode !== null ? r() : (this.child.once('exit', r), this.child.kill())));
  }
}

/**
 * Gossip bytes so far on the open connections: the kernel's tcp_info (`ss -ti`) of every
 * socket between Toxiproxy and a node's p2p port (each link's second leg carries all its
 * bytes, both ways), bytes sent plus bytes received. A connection that closed takes its
 * counts with it: phases that close connections (partition, churn) count low.
 * (Toxiproxy's own -proxy-metrics byte counters are added only when a connection ends.)
 */
function gossipBytes(p2pPorts) {
  const text = execFileSync('ss', ['-tinH', 'state', 'established'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const lines = text.split('\n');
  let sum = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i].trim().split(/\s+/);
    if (head.length < 4 || lines[i].startsWith('\t') || lines[i].startsWith(' ')) continue;
    const peerPort = Number(head[3].slice(head[3].lastIndexOf(':') + 1));
    if (!p2pPorts.has(peerPort)) continue;
    const detail = lines[i + 1];
    const sent = /bytes_sent:(\d+)/.exec(detail) ?? /bytes_acked:(\d+)/.exec(detail);
    const received = /bytes_received:(\d+)/.exec(detail);
    sum += Number(sent?.[1] ?? 0) + Number(received?.[1] ?? 0);
  }
  return sum;
}

// ---- nodes -----------------------------------------------------------------------------------

const native = require('../dist/native.js').default;
const { issueToken } = require('../dist/jwt-secret.js');
const BIN = fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url));
const COORDINATOR_PUBLIC_KEY = core.publicKey(COORDINATOR_SEED);

/** A node's identity, data directory and ports, fixed before it starts so that peers can name it. */
async function plan(index) {
  const dataDir = mkdtempSync(join(tmpdir(), `ledger-node-bench-network-${index}-`));
  const peerId = native.identityPeerId(join(dataDir, 'p2p-identity.key'), undefined);
  return {
    index,
    name: index === 0 ? 'coo' : `n${index}`,
    dataDir,
    peerId,
    restPort: await takePort(),
    p2pPort: await takePort(),
    /** index of the peer → the multiaddress this node dials it at (its proxy). */
    dials: new Map(),
    process: undefined,
    http: undefined,
    up: false,
    /** CPU seconds and gossip counters of the processes that were killed. */
    deadCpu: 0,
    deadKnown: 0,
    startedAt: 0,
    /** From SIGKILL to synced again: the node is not expected to see blocks sent then. */
    downs: [],
  };
}

/** Flags for the node's start; the same at a restart. */
function nodeArgs(n) {
  const role =
    n.index === 0
      ? ['--coordinator-key', COORDINATOR_SEED]
      : ['--no-coordinator', '--coordinator-public-key', COORDINATOR_PUBLIC_KEY];
  return [
    BIN,
    '--port',
    String(n.restPort),
    '--bind',
    '127.0.0.1',
    '--data-dir',
    n.dataDir,
    '--min-pow-score',
    String(POW),
    '--milestone-interval',
    String(INTERVAL),
    '--log-level',
    'warn',
    '--jwt-secret',
    JWT_SECRET,
    '--no-dashboard',
    '--no-faucet',
    '--rest-workers',
    '1',
    '--block-cache-mib',
    '8',
    '--write-buffers-mib',
    '8',
    ...role,
    // Hornet can follow only a network whose milestone 1 is made Hornet's way (docs/snapshots.md).
    ...(HORNETS > 0 ? ['--genesis-style', 'hornet'] : []),
    '--gossip',
    '--p2p-bind',
    `/ip4/127.0.0.1/tcp/${n.p2pPort}`,
    ...[...n.dials.values()].flatMap((address) => ['--peer', address]),
  ];
}

async function startNode(n) {
  const child = spawn(process.execPath, nodeArgs(n), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (n.process === child && !n.killing) log(`${n.name} exited (${code ?? signal}): ${stderr.trim().slice(-500)}`);
  });
  n.process = child;
  n.startedAt = now();
  n.http = new BenchNode(child, n.dataDir, `http://127.0.0.1:${n.restPort}`, POW);
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${n.name} exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await n.http.http('GET', '/api/core/v2/info')).status === 200) {
        n.up = true;
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${n.name} did not answer within 120 s`);
}

/** SIGKILL; its CPU and counters so far are kept for the phase figures. */
async function killNode(n) {
  n.deadCpu += cpuSeconds(n.process.pid) || 0;
  n.deadKnown += (await metrics(n).catch(() => undefined))?.known ?? 0;
  n.killing = true;
  n.up = false;
  n.downs.push({ from: now(), to: Infinity });
  const exited = new Promise((r) => n.process.once('exit', r));
  n.process.kill('SIGKILL');
  await exited;
  n.http.agent.destroy();
  n.killing = false;
}

async function stopNode(n) {
  if (n.process && n.process.exitCode === null) {
    n.killing = true;
    const exited = new Promise((r) => n.process.once('exit', r));
    n.process.kill('SIGTERM');
    const timer = setTimeout(() => n.process.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  n.http?.agent.destroy();
  rmSync(n.dataDir, { recursive: true, force: true });
}

async function info(n) {
  return (await n.http.getJson('/api/core/v2/info')).status;
}

async function healthStatus(n) {
  try {
    return (await n.http.http('GET', '/health')).status;
  } catch {
    return 0;
  }
}

/** The node's gossip counters and stored blocks from /metrics (JWT). */
async function metrics(n) {
  const token = await issueToken(JWT_SECRET);
  const res = await fetch(`${n.http.base}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await res.text();
  const value = (prefix) => {
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return {
    known: value('ledger_node_gossip_messages{counter="knownBlocks"}'),
    stored: value('ledger_node_blocks_stored'),
  };
}

/** Wait until `n` is synced: /health 200 and confirmed ≥ `target`. The time from its process start (ms), or NaN. */
async function timeToSynced(n, target, limitMs) {
  const deadline = now() + limitMs;
  while (now() < deadline) {
    try {
      if ((await healthStatus(n)) === 200 && (await info(n)).confirmedMilestone.index >= target)
        return now() - n.startedAt;
    } catch {
      // starting
    }
    await sleep(250);
  }
  return NaN;
}

// ---- the graph -------------------------------------------------------------------------------

/** A connected random graph of `n` nodes, each with a degree in [min, max] where possible. */
function randomGraph(n, min, max) {
  const adjacent = Array.from({ length: n }, () => new Set());
  const link = (a, b) => (adjacent[a].add(b), adjacent[b].add(a));
  const ring = shuffle([...Array(n).keys()]);
  for (let i = 0; i < n && n > 1; i++) if (ring[i] !== ring[(i + 1) % n]) link(ring[i], ring[(i + 1) % n]);
  const target = Array.from({ length: n }, () => randomInt(min, max));
  for (let round = 0; round < 20; round++) {
    for (const a of shuffle([...Array(n).keys()])) {
      while (adjacent[a].size < Math.min(target[a], n - 1)) {
        const wanting = shuffle([...Array(n).keys()]).filter(
          (b) => b !== a && !adjacent[a].has(b) && adjacent[b].size < target[b],
        );
        const fallback = shuffle([...Array(n).keys()]).filter(
          (b) => b !== a && !adjacent[a].has(b) && adjacent[b].size < max,
        );
        const b = wanting[0] ?? (adjacent[a].size < min ? fallback[0] : undefined);
        if (b === undefined) break;
        link(a, b);
      }
    }
  }
  return adjacent;
}

const edges = [];

/** Both proxies of a link and both dial addresses (`rng` draws its latency). */
async function connect(toxiproxy, a, b, rng = random) {
  const latency = randomInt(LATENCY_MIN, LATENCY_MAX, rng);
  const proxies = [];
  for (const [from, to] of [
    [a, b],
    [b, a],
  ]) {
    const port = await takePort();
    const name = `${from.name}-${to.name}`;
    await toxiproxy.create(name, `127.0.0.1:${port}`, `127.0.0.1:${to.p2pPort}`, latency);
    from.dials.set(to.index, `/ip4/127.0.0.1/tcp/${port}/p2p/${to.peerId}`);
    proxies.push(name);
  }
  const edge = { a: a.index, b: b.index, latency, proxies };
  edges.push(edge);
  return edge;
}

// ---- the probe: one MQTT client per node, in a process of its own ------------------------------

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

function startProbe() {
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

// ---- the load --------------------------------------------------------------------------------

class Load {
  constructor(coordinator, submitters, networkId, outputs) {
    this.coordinator = coordinator;
    this.submitters = submitters;
    this.networkId = networkId;
    this.spendable = [...outputs];
    /** transaction ID → the output its confirmation frees. */
    this.pending = new Map();
    this.records = [];
    this.confirmedTransfers = [];
    this.phase = 'start';
    this.inFlight = 0;
    this.skipped = 0;
    this.next = 0;
    this.running = false;
  }

  start() {
    this.running = true;
    this.loop = (async () => {
      // By the clock, not by the slices: a late timer (a loaded machine) does not lower the rate.
      const start = now();
      let issued = 0;
      while (this.running) {
        const due = Math.floor(((now() - start) / 1000) * RATE);
        for (; issued < due; issued++) {
          if (this.inFlight >= MAX_IN_FLIGHT) this.skipped++;
          else this.submitOne();
        }
        await sleep(100);
      }
    })();
    this.watch = (async () => {
      let confirmed = (await info(this.coordinator)).confirmedMilestone.index;
      while (this.running) {
        try {
          const latest = (await info(this.coordinator)).confirmedMilestone.index;
          for (let index = confirmed + 1; index <= latest; index++) {
            const changes = await this.coordinator.http.getJson(
              `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
            );
            for (const outputId of changes.createdOutputs) {
              const made = this.pending.get(outputId.slice(0, 66));
              if (made === undefined) continue;
              this.pending.delete(outputId.slice(0, 66));
              this.spendable.push(made);
              this.confirmedTransfers.push(outputId.slice(0, 66));
            }
          }
          confirmed = latest;
        } catch {
          // the coordinator is busy: next round
        }
        await sleep(500);
      }
    })();
  }

  async stop() {
    this.running = false;
    await this.loop;
    await this.watch;
    while (this.inFlight > 0) await sleep(50);
  }

  submitOne() {
    const live = this.submitters.filter((n) => n.up);
    if (live.length === 0) return void this.skipped++;
    const node = live[this.next++ % live.length];
    const record = { node: node.index, phase: this.phase, minority: node.minority === true, sentAt: now() };
    let body;
    if (random() < TRANSFER_SHARE && this.spendable.length > 0) {
      const input = this.spendable.shift();
      const t = transfer(this.networkId, input, benchKey, [BigInt(input.output.amount)]);
      this.pending.set(t.transactionId, t.outputs[0]);
      record.transactionId = t.transactionId;
      body = { protocolVersion: 2, payload: t.payload };
    } else {
      const data = `bench:network ${this.records.length} at ${Date.now()}`;
      body = { protocolVersion: 2, payload: { type: 5, tag: TAG, data: '0x' + Buffer.from(data).toString('hex') } };
    }
    this.records.push(record);
    this.inFlight++;
    node.http
      .http('POST', '/api/core/v2/blocks', Buffer.from(JSON.stringify(body)))
      .then(({ status, text }) => {
        record.status = status;
        record.ackAt = now();
        if (status === 201) record.blockId = JSON.parse(text).blockId;
        else record.error = text.slice(0, 200);
      })
      .catch((err) => {
        record.status = 0;
        record.error = err.message;
      })
      .finally(() => this.inFlight--);
  }
}

/** Genesis → 128 outputs (→ k each when more are needed): the transfers' pool. */
async function fanOut(coordinator, size) {
  const { protocol } = await coordinator.http.getJson('/api/core/v2/info');
  const networkId = core.networkId(protocol.networkName);
  const genesis = {
    outputId: GENESIS_OUTPUT_ID,
    output: (await coordinator.http.getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).output,
  };
  const first = transfer(networkId, genesis, genesisKey, split(BigInt(protocol.tokenSupply), 128));
  await coordinator.http.fanOut([first], 'fan-out 1');
  let outputs = first.outputs;
  const each = Math.ceil(size / 128);
  if (each > 1) {
    const second = outputs.map((o) => transfer(networkId, o, benchKey, split(BigInt(o.output.amount), each)));
    await coordinator.http.fanOut(second, 'fan-out 2');
    outputs = second.flatMap((t) => t.outputs);
  }
  return { networkId, outputs };
}

// ---- phase figures ---------------------------------------------------------------------------

async function snapshot(ctx) {
  const nodes = ctx.nodes.filter((n) => n.up);
  const m = await Promise.all(nodes.map((n) => metrics(n).catch(() => undefined)));
  return {
    at: now(),
    stored: (await metrics(ctx.coordinator)).stored,
    cpu: new Map(ctx.nodes.map((n) => [n.index, n.deadCpu + (n.up ? cpuSeconds(n.process.pid) || 0 : 0)])),
    known: new Map(nodes.map((n, i) => [n.index, n.deadKnown + (m[i]?.known ?? 0)])),
    bytes: gossipBytes(new Set([...ctx.nodes, ...ctx.hornets].map((n) => n.p2pPort))),
    hornets: new Map(
      ctx.hornets
        .filter((h) => h.up)
        .map((h) => [h.name, { cpu: cpuSeconds(h.pid), mqtt: h.mqtt ? cpuSeconds(h.mqtt.pid) : NaN }]),
    ),
    probe: cpuSeconds(ctx.probe.pid),
    toxiproxy: cpuSeconds(ctx.toxiproxy.child.pid),
    self: process.cpuUsage(),
  };
}

/** The phase's figures from two snapshots; the blocks' arrivals are added at the end. */
function phaseFigures(name, before, after, ctx) {
  const seconds = (after.at - before.at) / 1000;
  const blocks = Math.max(1, after.stored - before.stored);
  const nodes = ctx.nodes.filter((n) => before.cpu.has(n.index) && after.cpu.has(n.index));
  const cpu = nodes.map((n) => after.cpu.get(n.index) - before.cpu.get(n.index));
  const known = nodes
    .filter((n) => before.known.has(n.index) && after.known.has(n.index))
    .map((n) => after.known.get(n.index) - before.known.get(n.index));
  const rss = ctx.nodes.filter((n) => n.up).map((n) => rssMiB(n.process.pid));
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  return {
    name,
    seconds,
    blocks,
    nodes: ctx.nodes.filter((n) => n.up).length,
    duplicates: mean(known) / blocks,
    bytesPerNode: (after.bytes - before.bytes) / (ctx.nodes.length + ctx.hornets.length) / blocks,
    cpuMsPerBlockPerNode: (mean(cpu) * 1000) / blocks,
    nodeCores: cpu.reduce((s, x) => s + x, 0) / seconds,
    probeCores: (after.probe - before.probe) / seconds,
    toxiproxyCores: (after.toxiproxy - before.toxiproxy) / seconds,
    selfCores: (after.self.user - before.self.user + after.self.system - before.self.system) / 1e6 / seconds,
    rssMean: mean(rss),
    rssMax: Math.max(...rss),
    rssTotal: rss.reduce((s, x) => s + x, 0),
    hornets: ctx.hornets
      .filter((h) => before.hornets.has(h.name) && after.hornets.has(h.name))
      .map((h) => {
        const cpu = after.hornets.get(h.name).cpu - before.hornets.get(h.name).cpu;
        const mqtt = after.hornets.get(h.name).mqtt - before.hornets.get(h.name).mqtt;
        return {
          name: h.name,
          cpuMsPerBlock: (cpu * 1000) / blocks,
          cores: cpu / seconds,
          mqttCores: mqtt / seconds,
          rss: rssMiB(h.pid),
        };
      }),
    load: load(),
    from: before.at,
    to: after.at,
  };
}

async function runPhase(ctx, name, body) {
  ctx.load.phase = name;
  const before = await snapshot(ctx);
  log(`phase ${name}: start; load ${load()}`);
  const extra = await body();
  const after = await snapshot(ctx);
  const figures = { ...phaseFigures(name, before, after, ctx), ...extra };
  ctx.phases.push(figures);
  log(
    `phase ${name}: ${figures.blocks} blocks in ${figures.seconds.toFixed(0)} s; nodes ${figures.nodeCores.toFixed(2)} cores, ` +
      `RSS per node ${figures.rssMean.toFixed(0)} MiB (max ${figures.rssMax.toFixed(0)}); load ${load()}`,
  );
  if (ctx.hornets.length > 0) {
    const coo = (await info(ctx.coordinator).catch(() => undefined))?.confirmedMilestone.index;
    const at = await Promise.all(
      ctx.hornets.map(async (h) => (await info(h).catch(() => undefined))?.confirmedMilestone.index),
    );
    log(
      `phase ${name}: coordinator at milestone ${coo}; ` +
        ctx.hornets
          .map((h, i) => {
            const f = figures.hornets.find((x) => x.name === h.name);
            return `${h.name} at ${at[i]}${f ? `, ${f.cores.toFixed(2)} cores, RSS ${f.rss.toFixed(0)} MiB` : ''}`;
          })
          .join('; '),
    );
  }
}

// ---- phases ----------------------------------------------------------------------------------

/**
 * A connected set of about MINORITY × nodes, from a submitter, without the coordinator, whose
 * rest is connected too; with at most a third of the submitters where such a set is found.
 */
function pickMinority(ctx) {
  const size = Math.max(1, Math.round(ctx.nodes.length * MINORITY));
  let fallback;
  for (let attempt = 0; attempt < 200; attempt++) {
    const start = ctx.submitters[attempt % ctx.submitters.length].index;
    const side = new Set([start]);
    const frontier = [start];
    while (side.size < size && frontier.length > 0) {
      const at = frontier.splice(Math.floor(random() * frontier.length), 1)[0];
      for (const b of shuffle([...ctx.graph[at]])) {
        if (side.size >= size) break;
        if (b === 0 || side.has(b)) continue;
        side.add(b);
        frontier.push(b);
      }
    }
    if (side.size < size) continue;
    // The rest must hold together without the minority.
    const rest = ctx.nodes.map((n) => n.index).filter((i) => !side.has(i));
    const seen = new Set([0]);
    const queue = [0];
    while (queue.length > 0) {
      const at = queue.pop();
      for (const b of ctx.graph[at]) if (!side.has(b) && !seen.has(b)) seen.add(b), queue.push(b);
    }
    if (seen.size !== rest.length) continue;
    fallback ??= side;
    // Most of the load stays on the larger side.
    const submitters = ctx.submitters.filter((n) => side.has(n.index)).length;
    if (submitters <= Math.ceil(ctx.submitters.length / 3)) return side;
  }
  if (fallback) return fallback;
  throw new Error('no connected minority with a connected majority found (another --seed?)');
}

async function partition(ctx) {
  const side = pickMinority(ctx);
  const minority = ctx.nodes.filter((n) => side.has(n.index));
  for (const n of minority) n.minority = true;
  const crossing = edges.filter((e) => side.has(e.a) !== side.has(e.b));
  const cmiAtCut = (await info(ctx.coordinator)).confirmedMilestone.index;
  const minorityCmiAtCut = Math.max(
    ...(await Promise.all(minority.map(async (n) => (await info(n)).confirmedMilestone.index))),
  );
  log(
    `partition: ${minority.length} nodes (${minority.map((n) => n.name).join(' ')}) cut off over ${crossing.length} links; ` +
      `coordinator at milestone ${cmiAtCut}`,
  );
  await pool(
    crossing.flatMap((e) => e.proxies),
    8,
    (name) => ctx.toxiproxy.enable(name, false),
  );
  const cutAt = now();
  // /health and isHealthy of the smaller side every 5 s.
  const polls = { health200: 0, health503: 0, other: 0, infoHealthy: 0, infoUnhealthy: 0, maxCmi: minorityCmiAtCut };
  const timeline = [];
  while (now() - cutAt < CUT * 1000) {
    const t = (now() - cutAt) / 1000;
    const answers = await Promise.all(
      minority.map(async (n) => {
        const status = await healthStatus(n);
        const s = await info(n).catch(() => undefined);
        return { status, healthy: s?.isHealthy, cmi: s?.confirmedMilestone.index ?? 0 };
      }),
    );
    let healthy = 0;
    for (const a of answers) {
      if (a.status === 200) polls.health200++, healthy++;
      else if (a.status === 503) polls.health503++;
      else polls.other++;
      if (a.healthy === true) polls.infoHealthy++;
      else polls.infoUnhealthy++;
      polls.maxCmi = Math.max(polls.maxCmi, a.cmi);
    }
    timeline.push(`${t.toFixed(0)} s: ${healthy}/${minority.length} /health 200`);
    await sleep(5000);
  }
  log(`partition: smaller side over the cut: ${timeline.join(', ')}`);
  const cmiAtHeal = (await info(ctx.coordinator)).confirmedMilestone.index;
  await pool(
    crossing.flatMap((e) => e.proxies),
    8,
    (name) => ctx.toxiproxy.enable(name, true),
  );
  const healAt = now();
  log(`partition: healed at coordinator milestone ${cmiAtHeal}`);
  // Catch-up: every node's confirmed milestone ≥ the coordinator's at the heal.
  const caughtUp = new Map();
  while (caughtUp.size < ctx.nodes.length && now() - healAt < 300_000) {
    await Promise.all(
      ctx.nodes
        .filter((n) => !caughtUp.has(n.index))
        .map(async (n) => {
          const s = await info(n).catch(() => undefined);
          if (s && s.confirmedMilestone.index >= cmiAtHeal) caughtUp.set(n.index, now() - healAt);
        }),
    );
    await sleep(500);
  }
  const catchUp = Math.max(...caughtUp.values());
  const notCaughtUp = ctx.nodes.filter((n) => !caughtUp.has(n.index)).map((n) => n.name);
  log(
    `partition: catch-up ${caughtUp.size === ctx.nodes.length ? `${(catchUp / 1000).toFixed(1)} s` : `not within 300 s (${notCaughtUp.join(' ')})`}; ` +
      `smaller side: /health 200 ${polls.health200}×, 503 ${polls.health503}×, isHealthy true ${polls.infoHealthy}×; ` +
      `its highest confirmed milestone during the cut ${polls.maxCmi} (at the cut ${minorityCmiAtCut})`,
  );
  for (const n of minority) n.minority = false;
  return {
    minority: minority.length,
    crossing: crossing.length,
    polls,
    minorityCmiAtCut,
    cmiAtCut,
    cmiAtHeal,
    catchUpMs: caughtUp.size === ctx.nodes.length ? catchUp : NaN,
    cutAt,
    healAt,
  };
}

async function churn(ctx) {
  const candidates = shuffle(ctx.nodes.filter((n) => n.index !== 0 && !ctx.submitters.includes(n)));
  const victims = candidates.slice(0, KILLS);
  const start = now();
  const results = [];
  await Promise.all(
    victims.map(async (n) => {
      await sleep(random() * Math.max(1, CHURN - 30) * 1000);
      await killNode(n);
      const down = randomInt(5, 15);
      log(`churn: ${n.name} killed (SIGKILL), restarting in ${down} s`);
      await sleep(down * 1000);
      const target = (await info(ctx.coordinator)).confirmedMilestone.index;
      try {
        await startNode(n);
      } catch (err) {
        log(`churn: ${n.name} did not start again: ${err.message.slice(0, 300)}`);
        results.push({ name: n.name, down, ms: NaN, failed: true });
        return;
      }
      const ms = await timeToSynced(n, target, 180_000);
      n.downs.at(-1).to = now();
      log(
        `churn: ${n.name} synced ${Number.isNaN(ms) ? 'NOT within 180 s' : `${(ms / 1000).toFixed(1)} s after its start`}`,
      );
      results.push({ name: n.name, down, ms });
    }),
  );
  await sleep(Math.max(0, CHURN * 1000 - (now() - start)));
  return { restarts: results };
}

async function joiners(ctx) {
  const results = [];
  const jobs = [];
  for (let j = 0; j < JOINERS; j++) {
    const n = await plan(ctx.nodes.length);
    n.name = `new${j + 1}`;
    const peers = shuffle(ctx.nodes.filter((x) => x.up)).slice(0, 4);
    for (const p of peers) {
      const edge = await connect(ctx.toxiproxy, n, p);
      ctx.graph[p.index].add(n.index);
      (ctx.graph[n.index] ??= new Set()).add(p.index);
      void edge;
    }
    ctx.nodes.push(n);
    const target = (await info(ctx.coordinator)).confirmedMilestone.index;
    await startNode(n);
    ctx.probe.add(n);
    const token = await issueToken(JWT_SECRET);
    await Promise.all(
      peers.map(async (p) => {
        const res = await fetch(`${p.http.base}/api/core/v2/peers`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ multiAddress: p.dials.get(n.index), alias: n.name }),
        });
        if (res.status !== 201 && res.status !== 200)
          log(`joiners: POST peer at ${p.name}: ${res.status} ${await res.text()}`);
      }),
    );
    log(`joiners: ${n.name} started, peered with ${peers.map((p) => p.name).join(' ')}`);
    jobs.push(
      timeToSynced(n, target, 300_000).then((ms) => {
        n.startedFirst = now(); // from here on, it is expected to store every new block
        log(
          `joiners: ${n.name} synced ${Number.isNaN(ms) ? 'NOT within 300 s' : `${(ms / 1000).toFixed(1)} s after its start`}`,
        );
        results.push({ name: n.name, ms });
      }),
    );
    await sleep(10_000);
  }
  await Promise.all(jobs);
  await sleep(SETTLE * 1000);
  return { joined: results };
}

// ---- Hornet 2.0.1 in the crowd (--hornets) ---------------------------------------------------

/** A Hornet's identity and ports, fixed before our nodes start (they list it as a static peer). */
async function planHornet(i) {
  const seed = createHash('sha256').update(`ledger-node bench:network hornet ${i}`).digest('hex');
  const identityPrivateKey = seed + core.publicKey(`0x${seed}`).slice(2);
  const keyDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-network-hornet-key-'));
  const peerId = native.identityPeerId(join(keyDir, 'identity.key'), identityPrivateKey);
  rmSync(keyDir, { recursive: true, force: true });
  return {
    index: HORNET_INDEX + i,
    name: `hornet${i + 1}`,
    identityPrivateKey,
    peerId,
    restPort: await takePort(),
    p2pPort: await takePort(),
    inxPort: HORNET_MQTT ? await takePort() : 0,
    mqttPort: HORNET_MQTT ? await takePort() : 0,
    dials: new Map(),
    peers: [],
    up: false,
    /** From when the probe hears it (inx-mqtt up): the blocks sent since count for its figures. */
    startedFirst: Infinity,
  };
}

/**
 * Each Hornet's peers: --degree-min … --degree-max of our nodes (drawn as ours are), those
 * still below --degree-max first, so that our nodes keep their degree where the graph allows.
 */
function placeHornets(graph, count) {
  const degree = graph.map((s) => s.size);
  return Array.from({ length: count }, () => {
    const k = Math.min(degree.length, randomInt(DEGREE_MIN, DEGREE_MAX, hornetRandom));
    const order = shuffle([...degree.keys()], hornetRandom);
    const picked = [
      ...order.filter((i) => degree[i] < DEGREE_MAX),
      ...order.filter((i) => degree[i] >= DEGREE_MAX),
    ].slice(0, k);
    for (const i of picked) degree[i]++;
    return picked;
  });
}

/** Hornet from our coordinator's genesis snapshot, dialing its peers through its own proxies. */
async function startHornet(h, genesisFile) {
  h.startedAt = now();
  h.follower = await startHornetFollower({
    snapshotFile: genesisFile,
    coordinatorPublicKey: COORDINATOR_PUBLIC_KEY,
    peers: [...h.dials.values()],
    identityPrivateKey: h.identityPrivateKey,
    flags: HORNET_MQTT ? ['--inx.enabled=true', `--inx.bindAddress=127.0.0.1:${h.inxPort}`] : [],
    restPort: h.restPort,
    p2pPort: h.p2pPort,
  });
  h.pid = h.follower.pid;
  h.http = new BenchNode(undefined, undefined, h.follower.url, POW);
  h.up = true;
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Hornet's inx-mqtt (the event API Hornet has not by itself), its WebSocket added to the
 * probe: then a Hornet's propagation and time to referenced are read as ours are. Started
 * once Hornet is synced.
 */
async function startInxMqtt(h, probe) {
  h.mqttDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-network-inx-mqtt-'));
  h.mqtt = spawn(
    INX_MQTT,
    [
      '--app.checkForUpdates=false',
      `--inx.address=127.0.0.1:${h.inxPort}`,
      `--mqtt.websocket.bindAddress=127.0.0.1:${h.mqttPort}`,
    ],
    { cwd: h.mqttDir, stdio: ['ignore', 'ignore', 'ignore'] },
  );
  for (let i = 0; i < 300 && !(await portOpen(h.mqttPort)); i++) {
    if (h.mqtt.exitCode !== null) throw new Error(`inx-mqtt of ${h.name} exited with ${h.mqtt.exitCode}`);
    await sleep(100);
  }
  probe.add(h, `ws://127.0.0.1:${h.mqttPort}`);
  await sleep(2000); // the probe's client connects and subscribes
  h.startedFirst = now();
}

async function stopHornet(h) {
  if (h.mqtt && h.mqtt.exitCode === null) {
    const exited = new Promise((r) => h.mqtt.once('exit', r));
    h.mqtt.kill('SIGTERM');
    await exited;
  }
  if (h.mqttDir) rmSync(h.mqttDir, { recursive: true, force: true });
  h.http?.agent.destroy();
  if (h.follower) {
    await h.follower.stop();
    if (process.env.KEEP_HORNET) log(`${h.name}: kept ${h.follower.state}`);
    else h.follower.remove();
  }
  h.up = false;
}

/** Every 2 s under the load: how far each Hornet's confirmed milestone is behind the coordinator's. */
function watchHornets(ctx) {
  const lags = new Map(ctx.hornets.map((h) => [h.name, []]));
  let running = true;
  const loop = (async () => {
    while (running) {
      const coo = await info(ctx.coordinator).catch(() => undefined);
      if (coo)
        await Promise.all(
          ctx.hornets.map(async (h) => {
            const s = await info(h).catch(() => undefined);
            if (s) lags.get(h.name).push(coo.confirmedMilestone.index - s.confirmedMilestone.index);
            else if (!alive(h.pid) && !h.exitLogged) {
              h.exitLogged = true;
              log(`${h.name}: Hornet exited; see ${h.follower.state}/hornet.log (kept with KEEP_HORNET=1)`);
            }
          }),
        );
      await sleep(2000);
    }
  })();
  return {
    lags,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The first difference between two JSON values, as `path: a ≠ b`, or undefined when equal. */
function difference(a, b, path = '') {
  if (a === b) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return `${path || '.'}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = difference(a[key], b[key], `${path}.${key}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function getJson(n, path) {
  const { status, text } = await n.http.http('GET', path);
  return { status, json: status === 200 ? JSON.parse(text) : undefined, text };
}

/**
 * Each Hornet against our nodes once the load has stopped and the network settled: its
 * confirmed milestone reaches the coordinator's (read once, waited for up to 120 s); for
 * every milestone index up to there, the payload (and its id) and `utxo-changes` equal the
 * coordinator's, and Hornet finds the milestone by that id; every output those milestones
 * created (the genesis output too) equals ours — `output` and its metadata (less
 * `ledgerIndex`, the answering node's own confirmed index) at the coordinator, at one of our
 * followers in turn, and at each Hornet; `included-block` and its metadata of the sampled
 * transfers equal the coordinator's. Every difference is a mismatch.
 */
async function hornetAgreement(ctx) {
  const coo = ctx.coordinator;
  const mismatches = [];
  const mismatch = (line) => mismatches.push(line);
  const target = (await info(coo)).confirmedMilestone.index;
  const figures = {};
  const start = now();
  await Promise.all(
    ctx.hornets.map(async (h) => {
      if (!alive(h.pid)) {
        const tail = readFileSync(join(h.follower.state, 'hornet.log'), 'utf8').trim().split('\n').slice(-5);
        mismatch(`${h.name}: Hornet is not running any more; the end of its log:\n    ${tail.join('\n    ')}`);
      }
      let cmi = -1;
      while (now() - start < 120_000) {
        cmi = (await info(h).catch(() => undefined))?.confirmedMilestone.index ?? -1;
        if (cmi >= target) break;
        await sleep(500);
      }
      figures[h.name] = {
        cmi,
        waitedMs: now() - start,
        milestones: 0,
        changes: 0,
        outputs: 0,
        included: 0,
        differing: 0,
      };
      if (cmi < target) mismatch(`${h.name}: confirmed milestone ${cmi} < the coordinator's ${target} after 120 s`);
    }),
  );
  const count = (h, what) => figures[h.name][what]++;
  const differ = (h, line) => (figures[h.name].differing++, mismatch(`${h.name}: ${line}`));
  // Milestones and their ledger changes, every index.
  const created = new Set([GENESIS_OUTPUT_ID]);
  const consumed = new Set();
  const sorted = (xs) => [...xs].sort();
  await pool(
    Array.from({ length: target }, (_, i) => i + 1),
    4,
    async (index) => {
      const path = `/api/core/v2/milestones/by-index/${index}`;
      const [ref, refChanges] = [await getJson(coo, path), await getJson(coo, `${path}/utxo-changes`)];
      if (ref.status !== 200 || refChanges.status !== 200) {
        mismatch(`coordinator: milestone ${index}: ${ref.status}, utxo-changes ${refChanges.status}`);
        return;
      }
      const id = core.milestoneId(ref.json);
      for (const o of refChanges.json.createdOutputs) created.add(o);
      for (const o of refChanges.json.consumedOutputs) consumed.add(o);
      for (const h of ctx.hornets) {
        if (index > figures[h.name].cmi) continue;
        const m = await getJson(h, path);
        count(h, 'milestones');
        if (m.status !== 200) differ(h, `milestone ${index}: status ${m.status}`);
        else if (core.milestoneId(m.json) !== id)
          differ(h, `milestone ${index}: id ${core.milestoneId(m.json)} ≠ ours ${id}`);
        else {
          const d = difference(m.json, ref.json);
          if (d) differ(h, `milestone ${index} payload: ${d}`);
          const byId = await getJson(h, `/api/core/v2/milestones/${id}`);
          if (byId.status !== 200 || byId.json.index !== index)
            differ(h, `milestone ${id} (index ${index}) by id: status ${byId.status}, index ${byId.json?.index}`);
        }
        const c = await getJson(h, `${path}/utxo-changes`);
        count(h, 'changes');
        if (c.status !== 200) differ(h, `utxo-changes ${index}: status ${c.status}`);
        else {
          const d = difference(
            {
              ...c.json,
              createdOutputs: sorted(c.json.createdOutputs),
              consumedOutputs: sorted(c.json.consumedOutputs),
            },
            {
              ...refChanges.json,
              createdOutputs: sorted(refChanges.json.createdOutputs),
              consumedOutputs: sorted(refChanges.json.consumedOutputs),
            },
          );
          if (d) differ(h, `utxo-changes ${index}: ${d}`);
        }
      }
    },
  );
  // Every output created up to there: unspent (the ledger) and spent.
  const followers = ctx.nodes.filter((n) => n.up && n.index !== 0);
  const outputs = [...created];
  const unspent = outputs.filter((o) => !consumed.has(o)).length;
  let turn = 0;
  let oursCompared = 0;
  let oursDiffering = 0;
  const comparable = (answer) =>
    answer.status === 200
      ? { output: answer.json.output, metadata: { ...answer.json.metadata, ledgerIndex: undefined } }
      : { status: answer.status };
  await pool(outputs, 8, async (outputId) => {
    const path = `/api/core/v2/outputs/${outputId}`;
    const ref = comparable(await getJson(coo, path));
    if (ref.status !== undefined) return void mismatch(`coordinator: output ${outputId}: status ${ref.status}`);
    if (ref.metadata.isSpent !== consumed.has(outputId))
      mismatch(`coordinator: output ${outputId}: isSpent ${ref.metadata.isSpent}, utxo-changes say the opposite`);
    const follower = followers[turn++ % followers.length];
    if (follower) {
      oursCompared++;
      const d = difference(comparable(await getJson(follower, path)), ref);
      if (d) oursDiffering++, mismatch(`${follower.name}: output ${outputId}: ${d}`);
    }
    for (const h of ctx.hornets) {
      count(h, 'outputs');
      const d = difference(comparable(await getJson(h, path)), ref);
      if (d) differ(h, `output ${outputId}: ${d}`);
    }
  });
  // included-block (and its metadata) of the sampled confirmed transfers.
  for (const transactionId of ctx.sample ?? []) {
    for (const suffix of ['', '/metadata']) {
      const path = `/api/core/v2/transactions/${transactionId}/included-block${suffix}`;
      const ref = await getJson(coo, path);
      for (const h of ctx.hornets) {
        count(h, 'included');
        const answer = await getJson(h, path);
        const d = difference(answer.json ?? { status: answer.status }, ref.json ?? { status: ref.status });
        if (d) differ(h, `included-block${suffix} of ${transactionId}: ${d}`);
      }
    }
  }
  return { target, figures, mismatches, outputs: outputs.length, unspent, oursCompared, oursDiffering };
}

// ---- the end: agreement and figures ------------------------------------------------------------

async function agreement(ctx) {
  const up = ctx.nodes.filter((n) => n.up);
  const statuses = await Promise.all(up.map((n) => info(n).catch(() => undefined)));
  const cmis = statuses.map((s) => s?.confirmedMilestone.index ?? -1);
  const common = Math.min(...cmis);
  // Milestone payloads at up to 20 indexes below the common one, compared with the coordinator's.
  const indexes = Array.from({ length: Math.min(20, common) }, (_, i) =>
    Math.max(1, common - i * Math.ceil(common / 20)),
  );
  let differing = 0;
  for (const index of indexes) {
    const reference = (await ctx.coordinator.http.http('GET', `/api/core/v2/milestones/by-index/${index}`)).text;
    await pool(up, 8, async (n) => {
      if ((await n.http.http('GET', `/api/core/v2/milestones/by-index/${index}`)).text !== reference) differing++;
    });
  }
  // included-block of confirmed transfers, each node against the coordinator.
  const sample = shuffle(ctx.load.confirmedTransfers).slice(0, 40);
  ctx.sample = sample;
  const mismatches = new Map();
  for (const id of sample) {
    const path = `/api/core/v2/transactions/${id}/included-block/metadata`;
    const reference = await ctx.coordinator.http.http('GET', path);
    const referenceId = reference.status === 200 ? JSON.parse(reference.text).blockId : `status ${reference.status}`;
    await pool(up, 8, async (n) => {
      const answer = await n.http.http('GET', path);
      const blockId = answer.status === 200 ? JSON.parse(answer.text).blockId : `status ${answer.status}`;
      if (blockId !== referenceId) mismatches.set(n.name, (mismatches.get(n.name) ?? 0) + 1);
    });
  }
  const health = await Promise.all(up.map((n) => healthStatus(n)));
  return {
    cmis: Object.fromEntries(up.map((n, i) => [n.name, cmis[i]])),
    spread: Math.max(...cmis) - common,
    halted: up.filter((_, i) => statuses[i]?.isHealthy === false).map((n) => n.name),
    unhealthy: up.filter((_, i) => health[i] !== 200).map((n) => n.name),
    milestonesCompared: indexes.length * up.length,
    differing,
    includedCompared: sample.length * up.length,
    mismatches: Object.fromEntries(mismatches),
  };
}

/** Per block: the times to reach 50/90/100 % of the nodes that existed when it was sent, and to be referenced at all of them. */
function blockFigures(ctx, records, observed) {
  const out = {
    to50: [],
    to90: [],
    to100: [],
    referencedAll: [],
    referencedCoo: 0,
    incomplete: 0,
    acknowledged: 0,
    /** Every (block, counted node): submit → stored there, submit → referenced there (beside a Hornet's). */
    storedEach: [],
    referencedEach: [],
  };
  for (const r of records) {
    if (r.status !== 201) continue;
    out.acknowledged++;
    const seen = observed[r.blockId];
    // The nodes there when it was sent, less those killed within 10 s of it (or down then).
    const expected = ctx.nodes
      .filter((n) => n.startedFirst <= r.sentAt)
      .filter((n) => !n.downs.some((d) => d.from <= r.sentAt + 10_000 && d.to >= r.sentAt))
      .map((n) => n.index);
    const stored = expected
      .map((i) => seen?.stored[i])
      .filter((t) => t !== undefined)
      .map((t) => t - r.sentAt)
      .sort((x, y) => x - y);
    const reach = (share) => {
      const k = Math.ceil(share * expected.length);
      return stored.length >= k ? stored[k - 1] : undefined;
    };
    for (const [share, list] of [
      [0.5, out.to50],
      [0.9, out.to90],
      [1, out.to100],
    ]) {
      const t = reach(share);
      if (t !== undefined) list.push(t);
    }
    if (stored.length < expected.length) out.incomplete++;
    if (seen?.referenced[0] !== undefined) out.referencedCoo++;
    const referenced = expected.map((i) => seen?.referenced[i]).filter((t) => t !== undefined);
    if (referenced.length === expected.length) out.referencedAll.push(Math.max(...referenced) - r.sentAt);
    out.storedEach.push(...stored);
    out.referencedEach.push(...referenced.map((t) => t - r.sentAt));
  }
  for (const k of ['to50', 'to90', 'to100', 'referencedAll', 'storedEach', 'referencedEach'])
    out[k].sort((x, y) => x - y);
  return out;
}

const ms = (sorted, p) => (sorted.length === 0 ? '—' : `${Math.round(percentile(sorted, p))}`);

/** A Hornet's submit → stored and submit → referenced (its inx-mqtt) for the blocks sent once the probe heard it. */
function hornetBlockFigures(h, records, observed) {
  const out = { stored: [], referenced: [], counted: 0, missing: 0 };
  for (const r of records) {
    if (r.status !== 201 || r.sentAt < h.startedFirst) continue;
    out.counted++;
    const seen = observed[r.blockId];
    if (seen?.stored[h.index] === undefined) out.missing++;
    else out.stored.push(seen.stored[h.index] - r.sentAt);
    if (seen?.referenced[h.index] !== undefined) out.referenced.push(seen.referenced[h.index] - r.sentAt);
  }
  out.stored.sort((x, y) => x - y);
  out.referenced.sort((x, y) => x - y);
  return out;
}

/** The Hornets beside ours; any mismatch sets the exit code to 1 (an interop check). */
function reportHornets(ctx, result, lags, records, observed) {
  const names = ctx.hornets.map((h) => h.name);
  const each = (fn) => ctx.hornets.map((h) => fn(h, result.figures[h.name]));
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  table(
    ['Hornet 2.0.1 in the crowd', ...names],
    [
      [
        'peers (our nodes, each through its proxy pair)',
        ...each((h) => `${h.peers.length}: ${h.peers.map((p) => p.name).join(' ')}`),
      ],
      [
        'synced from genesis after its start',
        ...each((h) => (Number.isNaN(h.syncedMs) ? 'not within 180 s' : `${(h.syncedMs / 1000).toFixed(1)} s`)),
      ],
      [
        "under the load: milestones behind the coordinator's, max / mean (polls every 2 s)",
        ...each((h) => {
          const l = lags.get(h.name);
          return l.length === 0 ? '—' : `${Math.max(...l)} / ${mean(l).toFixed(2)} (${l.length} polls)`;
        }),
      ],
      [
        `at the end: confirmed milestone (the coordinator's ${result.target})`,
        ...each((_h, f) => `${f.cmi} after ${(f.waitedMs / 1000).toFixed(1)} s`),
      ],
      ['milestones compared (payload, id, found by id)', ...each((_h, f) => `${f.milestones}`)],
      ['utxo-changes compared', ...each((_h, f) => `${f.changes}`)],
      [
        `outputs compared (output + metadata; ${result.unspent} unspent, ${result.outputs - result.unspent} spent)`,
        ...each((_h, f) => `${f.outputs}`),
      ],
      ['included-block and its metadata compared (sampled transfers)', ...each((_h, f) => `${f.included}`)],
      ['**differing from ours**', ...each((_h, f) => `${f.differing}`)],
    ],
  );
  console.log(
    `our followers against the coordinator on the same outputs (one follower per output, in turn): ` +
      `${result.oursCompared} compared, ${result.oursDiffering} differing`,
  );
  // Propagation and time to referenced, and CPU and RSS, per phase, beside ours.
  if (HORNET_MQTT) {
    const rows = [];
    for (const f of ctx.phases) {
      if (f.name === 'idle') continue;
      const inPhase = records.filter((r) => r.phase === f.name);
      const b = blockFigures(ctx, inPhase, observed);
      rows.push([
        f.name,
        `ours: ${ms(b.storedEach, 50)} / ${ms(b.storedEach, 99)}`,
        `${ms(b.referencedEach, 50)} / ${ms(b.referencedEach, 99)}`,
        '',
      ]);
      for (const h of ctx.hornets) {
        const x = hornetBlockFigures(h, inPhase, observed);
        rows.push([
          '',
          `${h.name}: ${ms(x.stored, 50)} / ${ms(x.stored, 99)}`,
          `${ms(x.referenced, 50)} / ${ms(x.referenced, 99)}`,
          `${x.counted} (${x.missing} never seen)`,
        ]);
      }
    }
    table(
      [
        'phase',
        'submit → stored at a node p50 / p99 ms',
        'submit → referenced at a node p50 / p99 ms',
        "blocks counted (Hornet's inx-mqtt)",
      ],
      rows,
    );
  }
  const costRows = [];
  for (const f of ctx.phases) {
    costRows.push([f.name, `ours: ${f.cpuMsPerBlockPerNode.toFixed(2)}`, '—', `${f.rssMean.toFixed(0)} (mean)`]);
    for (const x of f.hornets)
      costRows.push([
        '',
        `${x.name}: ${x.cpuMsPerBlock.toFixed(2)}`,
        `${x.cores.toFixed(2)}${HORNET_MQTT ? ` + inx-mqtt ${x.mqttCores.toFixed(2)}` : ''}`,
        `${x.rss.toFixed(0)}`,
      ]);
  }
  table(['phase', 'CPU ms / block / node', 'Hornet cores', 'RSS MiB at the end of the phase'], costRows);
  if (result.mismatches.length > 0) {
    console.log(`MISMATCH: ${result.mismatches.length} differences between Hornet and ours (first 40):`);
    for (const line of result.mismatches.slice(0, 40)) console.log(`  ${line}`);
    process.exitCode = 1;
  } else
    console.log(
      `ok: ${ctx.hornets.length} Hornet 2.0.1 nodes reached milestone ${result.target} and agree with ours on every milestone, ` +
        `utxo-changes, output and included block compared`,
    );
}

async function main() {
  if (HORNETS > 0) {
    const why =
      hornetFollowerUnavailable() ??
      (HORNET_MQTT && !existsSync(INX_MQTT) ? `no inx-mqtt at ${INX_MQTT} (INX_MQTT, or --hornet-mqtt 0)` : undefined);
    if (why) {
      console.error(`--hornets ${HORNETS}: ${why}`);
      process.exit(2);
    }
  }
  console.log(
    `bench:network — ${NODES} nodes, degree ${DEGREE_MIN}–${DEGREE_MAX}, links ${LATENCY_MIN}–${LATENCY_MAX} ms ±${JITTER} %, ` +
      `${BANDWIDTH} KB/s; load ${RATE} blocks/s (${Math.round(TRANSFER_SHARE * 100)} % transfers) at ${SUBMITTERS} nodes, ` +
      `minPowScore ${POW}, a milestone every ${INTERVAL} s; phases ${IDLE > 0 ? 'idle, ' : ''}${PHASES.join(', ')}; seed ${SEED}; ` +
      `${HORNETS > 0 ? `${HORNETS} Hornet 2.0.1 followers${HORNET_MQTT ? ' with inx-mqtt' : ''}; ` : ''}load average ${load()}`,
  );
  const toxiproxy = await Toxiproxy.start();
  const probe = startProbe();
  await probe.ready;
  const nodes = [];
  const hornets = [];
  const ctx = { nodes, hornets, toxiproxy, probe, phases: [] };
  let genesis;
  // Interrupted: no node, proxy or data directory is left behind.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      for (const n of nodes) {
        n.killing = true;
        n.process?.kill('SIGKILL');
        rmSync(n.dataDir, { recursive: true, force: true });
      }
      for (const h of hornets) {
        h.mqtt?.kill('SIGKILL');
        if (h.pid) process.kill(h.pid, 'SIGKILL');
        if (h.mqttDir) rmSync(h.mqttDir, { recursive: true, force: true });
        h.follower?.remove();
      }
      genesis?.remove();
      toxiproxy.child.kill('SIGKILL');
      process.exit(130);
    });
  try {
    for (let i = 0; i < NODES; i++) nodes.push(await plan(i));
    const graph = randomGraph(NODES, DEGREE_MIN, DEGREE_MAX);
    ctx.graph = graph;
    for (let a = 0; a < NODES; a++) for (const b of graph[a]) if (a < b) await connect(toxiproxy, nodes[a], nodes[b]);
    const degrees = graph.map((s) => s.size);
    log(
      `graph: ${edges.length} links (${edges.length * 2} proxies), degree ${Math.min(...degrees)}–${Math.max(...degrees)}, ` +
        `mean ${(degrees.reduce((s, d) => s + d, 0) / NODES).toFixed(1)}`,
    );
    // Hornets: each peered with 4–8 of our nodes through proxies like ours.
    const placement = placeHornets(graph, HORNETS);
    for (let i = 0; i < HORNETS; i++) {
      const h = await planHornet(i);
      hornets.push(h);
      for (const b of placement[i]) {
        await connect(toxiproxy, h, nodes[b], hornetRandom);
        h.peers.push(nodes[b]);
      }
      log(`${h.name} (${h.peerId}) peered with ${h.peers.map((p) => p.name).join(' ')}`);
    }
    if (HORNETS > 0) {
      const withHornets = nodes.map((n) => graph[n.index].size + hornets.filter((h) => h.peers.includes(n)).length);
      log(`degree of our nodes with the Hornets' links ${Math.min(...withHornets)}–${Math.max(...withHornets)}`);
    }
    // The coordinator first, then the followers four at a time (and the Hornets, from the
    // genesis snapshot the coordinator writes, one at a time).
    await startNode(nodes[0]);
    if (HORNETS > 0) genesis = await writeGenesisSnapshot(nodes[0].dataDir);
    await Promise.all([
      pool(nodes.slice(1), 4, (n) => startNode(n)),
      pool(hornets, 1, (h) => startHornet(h, genesis.file)),
    ]);
    for (const n of nodes) {
      n.startedFirst = now();
      probe.add(n);
    }
    ctx.coordinator = nodes[0];
    const firstTarget = (await info(nodes[0])).confirmedMilestone.index;
    const startSync = await Promise.all(
      [...nodes.slice(1), ...hornets].map(async (n) => (n.syncedMs = await timeToSynced(n, firstTarget, 180_000))),
    );
    const unsynced = startSync.slice(0, NODES - 1).filter(Number.isNaN).length;
    log(`${NODES} nodes up${unsynced ? `, ${unsynced} NOT synced within 180 s` : ', all synced'}; load ${load()}`);
    for (const h of hornets) {
      log(
        `${h.name}: ${Number.isNaN(h.syncedMs) ? 'NOT synced within 180 s' : `synced ${(h.syncedMs / 1000).toFixed(1)} s after its start`} ` +
          `(milestone ${firstTarget}); RSS ${rssMiB(h.pid).toFixed(0)} MiB`,
      );
      if (HORNET_MQTT) await startInxMqtt(h, probe);
    }

    ctx.submitters = shuffle(nodes.slice(1)).slice(0, Math.min(SUBMITTERS, NODES - 1));
    const poolSize = Math.max(256, Math.ceil(RATE * TRANSFER_SHARE * (INTERVAL * 4 + 6)));
    const { networkId, outputs } = await fanOut(nodes[0], poolSize);
    log(`fan-out: ${outputs.length} outputs; submitters ${ctx.submitters.map((n) => n.name).join(' ')}`);
    ctx.load = new Load(nodes[0], ctx.submitters, networkId, outputs);
    // No load: what the network costs by itself (milestones, heartbeats, the probe's clients).
    if (IDLE > 0) await runPhase(ctx, 'idle', async () => (await sleep(IDLE * 1000), {}));
    ctx.load.phase = 'warm-up';
    ctx.load.start();
    const hornetWatch = HORNETS > 0 ? watchHornets(ctx) : undefined;
    await sleep(5000); // warm-up, not measured

    const results = {};
    if (PHASES.includes('steady')) await runPhase(ctx, 'steady', async () => (await sleep(STEADY * 1000), {}));
    if (PHASES.includes('partition'))
      await runPhase(ctx, 'partition', async () => (results.partition = await partition(ctx)));
    if (PHASES.includes('churn')) await runPhase(ctx, 'churn', async () => (results.churn = await churn(ctx)));
    if (PHASES.includes('joiners')) await runPhase(ctx, 'joiners', async () => (results.joiners = await joiners(ctx)));
    await ctx.load.stop();
    await hornetWatch?.stop();
    log(`load stopped; settling ${SETTLE} s`);
    await sleep(SETTLE * 1000);
    const agreed = await agreement(ctx);
    const withHornet = HORNETS > 0 ? await hornetAgreement(ctx) : undefined;

    // ---- report ----
    const records = ctx.load.records;
    const observed = await probe.report(records.filter((r) => r.status === 201).map((r) => r.blockId));
    console.log(
      `\nbench:network — ${NODES} nodes (+${nodes.length - NODES} joiners), ${edges.length} links, ${RATE} blocks/s asked, ` +
        `minPowScore ${POW}, milestone every ${INTERVAL} s; load average at the end ${load()}\n`,
    );
    const rows = [];
    const costRows = [];
    for (const f of ctx.phases) {
      const inPhase = records.filter((r) => r.phase === f.name);
      const b = blockFigures(ctx, inPhase, observed);
      const errors = inPhase.filter((r) => r.status !== 201).length;
      rows.push([
        f.name,
        `${(inPhase.length / f.seconds).toFixed(1)}`,
        `${b.acknowledged} / ${errors}`,
        `${ms(b.to50, 50)} / ${ms(b.to50, 99)}`,
        `${ms(b.to90, 50)} / ${ms(b.to90, 99)}`,
        `${ms(b.to100, 50)} / ${ms(b.to100, 99)} (${b.incomplete} not at all)`,
        `${ms(b.referencedAll, 50)} / ${ms(b.referencedAll, 99)}`,
        `${((100 * b.referencedCoo) / Math.max(1, b.acknowledged)).toFixed(1)} %`,
      ]);
      costRows.push([
        f.name,
        `${f.nodes}`,
        `${f.blocks}`,
        f.duplicates.toFixed(2),
        `${Math.round(f.bytesPerNode)}${f.name === 'partition' || f.name === 'churn' ? ' (low: closed connections)' : ''}`,
        f.cpuMsPerBlockPerNode.toFixed(2),
        f.nodeCores.toFixed(2),
        `${f.probeCores.toFixed(2)} / ${f.toxiproxyCores.toFixed(2)} / ${f.selfCores.toFixed(2)}`,
        `${f.rssMean.toFixed(0)} / ${f.rssMax.toFixed(0)} / ${(f.rssTotal / 1024).toFixed(1)} GiB`,
        f.load,
      ]);
    }
    table(
      [
        'phase',
        'submitted /s',
        '201 / errors',
        'to 50 % p50 / p99 ms',
        'to 90 % p50 / p99 ms',
        'to 100 % p50 / p99 ms',
        'referenced at every node p50 / p99 ms',
        'referenced (coordinator)',
      ],
      rows,
    );
    table(
      [
        'phase',
        'nodes up',
        'blocks',
        'duplicates / block / node',
        'bytes sent / block / node',
        'CPU ms / block / node',
        'nodes, cores',
        'probe / toxiproxy / bench, cores',
        'RSS per node mean / max MiB, total',
        'load average',
      ],
      costRows,
    );
    console.log(`skipped submissions (more than ${MAX_IN_FLIGHT} in flight): ${ctx.load.skipped}`);
    // Every distinct error answer, with how often it came.
    const errors = new Map();
    for (const r of records.filter((r) => r.status !== 201 && r.status !== undefined)) {
      const key = `${r.status || 'no answer'} ${r.error ?? ''}`.slice(0, 200);
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
    for (const [key, count] of errors) console.log(`  ${count}× ${key}`);
    if (results.partition) {
      const p = results.partition;
      const cut = records.filter((r) => r.minority && r.sentAt >= p.cutAt && r.sentAt < p.healAt);
      const acked = cut.filter((r) => r.status === 201);
      const referencedLater = [];
      const lost = [];
      await pool(acked, 8, async (r) => {
        const res = await ctx.coordinator.http.http('GET', `/api/core/v2/blocks/${r.blockId}/metadata`);
        const meta = res.status === 200 ? JSON.parse(res.text) : undefined;
        if (meta?.referencedByMilestoneIndex !== undefined) referencedLater.push(r);
        else lost.push(r);
      });
      const errors = new Map();
      for (const r of cut.filter((r) => r.status !== 201)) errors.set(r.status, (errors.get(r.status) ?? 0) + 1);
      table(
        ['partition', 'value'],
        [
          ['smaller side', `${p.minority} of ${NODES} nodes, ${p.crossing} links cut for ${CUT} s`],
          [
            'smaller side /health during the cut (polls every 5 s)',
            `200: ${p.polls.health200}, 503: ${p.polls.health503}, no answer: ${p.polls.other}`,
          ],
          ['smaller side isHealthy during the cut', `true: ${p.polls.infoHealthy}, false: ${p.polls.infoUnhealthy}`],
          [
            'smaller side confirmed a milestone on its own',
            p.polls.maxCmi > p.cmiAtHeal ? `yes (${p.polls.maxCmi})` : `no (highest ${p.polls.maxCmi})`,
          ],
          [
            "catch-up after the heal (every node ≥ the coordinator's milestone at the heal)",
            Number.isNaN(p.catchUpMs) ? 'not within 300 s' : `${(p.catchUpMs / 1000).toFixed(1)} s`,
          ],
          ['submitted on the smaller side during the cut', `${cut.length}`],
          ['… 201, referenced after the heal', `${referencedLater.length}`],
          ['… 201, never referenced (silently lost)', `${lost.length}`],
          ['… answered with an error', [...errors].map(([s, c]) => `${c}× ${s || 'no answer'}`).join(', ') || '0'],
        ],
      );
    }
    if (results.churn)
      table(
        ['restarted after SIGKILL', 'down s', 'synced after its start'],
        results.churn.restarts.map((r) => [
          r.name,
          `${r.down}`,
          r.failed ? 'did not start' : Number.isNaN(r.ms) ? 'not within 180 s' : `${(r.ms / 1000).toFixed(1)} s`,
        ]),
      );
    if (results.joiners)
      table(
        ['late joiner (fresh, from genesis)', 'synced after its start'],
        results.joiners.joined.map((r) => [
          r.name,
          Number.isNaN(r.ms) ? 'not within 300 s' : `${(r.ms / 1000).toFixed(1)} s`,
        ]),
      );
    table(
      ['at the end', 'value'],
      [
        [
          'confirmed milestones (spread max − min)',
          `${agreed.spread} (${Math.min(...Object.values(agreed.cmis))}–${Math.max(...Object.values(agreed.cmis))})`,
        ],
        ['nodes not healthy', agreed.unhealthy.join(' ') || 'none'],
        ['milestone payloads compared / differing', `${agreed.milestonesCompared} / ${agreed.differing}`],
        [
          'included-block answers compared / differing from the coordinator',
          `${agreed.includedCompared} / ${Object.values(agreed.mismatches).reduce((s, x) => s + x, 0)} ${JSON.stringify(agreed.mismatches)}`,
        ],
      ],
    );
    if (withHornet) reportHornets(ctx, withHornet, hornetWatch.lags, records, observed);
  } finally {
    await ctx.load?.stop().catch(() => {});
    await probe.stop().catch(() => {});
    await pool(hornets, 2, (h) => stopHornet(h));
    await pool(nodes, 8, (n) => stopNode(n));
    genesis?.remove();
    await toxiproxy.stop();
  }
}

if (process.argv[2] === '--probe') await probe();
else
  await main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
