// A node of this checkout in a child process for a benchmark: on a free loopback port,
// ready once `readyPath` answers 200, stopped with SIGTERM. Also the free ports it takes
// (BENCH_PORTS) and `planNode`, a data directory whose gossip identity exists before the
// node starts, so that peers can name each other; `gossipCounters`, a node's gossip counters.

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A loopback TCP port nobody listens on: one the system picks, or with BENCH_PORTS=<from>-<to>
 * (a machine shared by several people, each with a range of their own) the next free one of
 * that range, taken in turn from a random start so that two runs rarely try the same one.
 */
export async function freePort() {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
  if (!range) return listenOnce(0);
  const [from, to] = [Number(range[1]), Number(range[2])];
  const size = to - from + 1;
  nextInRange ??= Math.floor(Math.random() * size);
  for (let tries = 0; tries < size; tries++) {
    const port = from + (nextInRange++ % size);
    try {
      return await listenOnce(port);
    } catch {
      // taken: the next one
    }
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

let nextInRange;

/**
 * A temporary data directory (`ledger-node-bench-<name>-…`; or `dataDir`, one that exists)
 * with its gossip identity made now (or read, when it has one) and a free p2p port:
 * `{ dataDir, peerId, bind, address }` (address = bind + /p2p/peerId). Needs the built addon
 * (dist/).
 */
export async function planNode(name, dataDir = mkdtempSync(join(tmpdir(), `ledger-node-bench-${name}-`))) {
  const native = createRequire(import.meta.url)('../dist/native.js').default;
  const peerId = native.identityPeerId(join(dataDir, 'p2p-identity.key'), undefined);
  const port = await freePort();
  return {
    dataDir,
    peerId,
    bind: `/ip4/127.0.0.1/tcp/${port}`,
    address: `/ip4/127.0.0.1/tcp/${port}/p2p/${peerId}`,
  };
}

async function listenOnce(port) {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address();
  await new Promise((r) => server.close(r));
  return bound;
}

/** The flags of a follower over gossip: it trusts the coordinator key `publicKey`, listens on `bind` and dials `coordinatorAddress`. */
export function followerFlags(publicKey, bind, coordinatorAddress) {
  return [
    '--no-coordinator',
    '--coordinator-public-key',
    publicKey,
    '--gossip',
    '--p2p-bind',
    bind,
    '--peer',
    coordinatorAddress,
  ];
}

/** `flags` come after the port, bind address and data directory. */
export async function startNodeProcess(dataDir, flags, { readyPath = '/api/core/v2/info', timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, ...flags];
  const child = spawn(process.execPath, [join(root, 'bin/ledger-node.js'), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () =>
    new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  return { url, stop, pid: child.pid };
}

/**
 * A node's gossip counters summed over its peers, from `GET /api/core/v2/peers` (ours with a
 * JWT `token`; Hornet's private-tangle config serves it without one): blocks sent, received,
 * received new (`fresh`), packets dropped, blocks asked for.
 */
export async function gossipCounters(base, token) {
  const res = await fetch(`${base}/api/core/v2/peers`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  const peers = res.status === 200 ? await res.json() : [];
  const sum = (k) => peers.reduce((s, p) => s + (p.gossip?.metrics?.[k] ?? 0), 0);
  return {
    sent: sum('sentBlocks'),
    received: sum('receivedBlocks'),
    fresh: sum('newBlocks'),
    dropped: sum('droppedPackets'),
    asked: sum('sentBlockRequests'),
  };
}
