// bench:network's node processes: each node's identity, data directory and ports planned
// before any starts (its peers must be able to name it), its flags, start, SIGKILL, stop,
// and the few HTTP questions the phases ask of it (info, /health, /metrics, synced yet).
// A killed node keeps its CPU time and gossip counters so that a phase's figures still
// count what it did before it died.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './measure.mjs';
import { BenchNode, core, sleep } from './ledger-load.mjs';
import { COORDINATOR_SEED, HORNETS, INTERVAL, JWT_SECRET, log, now, POW, takePort } from './network-options.mjs';

const require = createRequire(import.meta.url);

export const native = require('../dist/native.js').default;
export const { issueToken } = require('../dist/jwt-secret.js');
const BIN = fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url));
export const COORDINATOR_PUBLIC_KEY = core.publicKey(COORDINATOR_SEED);

/** A node's identity, data directory and ports, fixed before it starts so that peers can name it. */
export async function plan(index) {
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

export async function startNode(n) {
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
export async function killNode(n) {
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

export async function stopNode(n) {
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

export async function info(n) {
  return (await n.http.getJson('/api/core/v2/info')).status;
}

export async function healthStatus(n) {
  try {
    return (await n.http.http('GET', '/health')).status;
  } catch {
    return 0;
  }
}

/** The node's gossip counters and stored blocks from /metrics (JWT). */
export async function metrics(n) {
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
export async function timeToSynced(n, target, limitMs) {
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
