// bench:network's links: the random peering graph and, for each link, a pair of Toxiproxy
// proxies (one per direction) that give it its latency and bandwidth and that the partition
// disables and enables again; and the gossip bytes read from the kernel's counts of the
// proxies' sockets. Apart from the nodes, because every peer, ours or a Hornet, is linked
// the same way.

import { execFileSync, spawn } from 'node:child_process';
import { sleep } from './ledger-load.mjs';
import {
  BANDWIDTH,
  JITTER,
  LATENCY_MAX,
  LATENCY_MIN,
  random,
  randomInt,
  shuffle,
  TOXIPROXY,
  takePort,
} from './network-options.mjs';

// ---- Toxiproxy -------------------------------------------------------------------------------

export class Toxiproxy {
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
export function gossipBytes(p2pPorts) {
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

// ---- the graph -------------------------------------------------------------------------------

/** A connected random graph of `n` nodes, each with a degree in [min, max] where possible. */
export function randomGraph(n, min, max) {
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

export const edges = [];

/** Both proxies of a link and both dial addresses (`rng` draws its latency). */
export async function connect(toxiproxy, a, b, rng = random) {
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
