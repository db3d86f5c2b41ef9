// A node under honest load and a hostile peer: `npm run bench:hostile [-- --seconds 30
// --messages 100000 --phases all --connections 8 --pow 1 --block-data 4096 --settle 130 --repeats 3
// --port-base 26600]` (issue 24, item 4; docs/benchmarks.md, docs/gossip.md §misbehaviour).
//
// One coordinator node (bin/ledger-node.js, a milestone every second, minPowScore --pow,
// gossip on, no peers) with HTTP on --port-base and p2p on the next port. The honest load:
// --connections keep-alive clients, each POSTing a tagged-data block (the node selects
// parents and mines) as soon as the previous one was answered. For each phase of the
// hostile peer (the `hostile_peer` example of ledger-sync, built here: truncated, oversized
// and mutated frames, invalid blocks, valid blocks with unknown parents, milestone requests
// for every index, lying heartbeats, a stream never read, a header without its body): first
// --seconds without an attacker, then the same load while the tool runs that phase for
// --seconds: rounds of up to --messages messages, each reconnecting with a fresh identity
// whenever the node drops it; --repeats times over, windows without and with the attacker
// alternating. After the last phase, --seconds without attacker again.
//
// Per phase: the attacker's messages, connections, how many the node closed and how fast;
// honest blocks submitted, accepted (201) and referenced by a milestone; referenced blocks/s
// over the phase and their ratio to the mean of the windows without attacker before and
// after it, and each phase's median ratio over its repeats (target ≥ 0.90: one window's
// ratio moves by up to ±0.15 with the honest rate's own spread); the node's CPU time per
// referenced honest block (its threads but RocksDB's background ones, /proc) and the same ratio of it, inverted
// (reference ÷ phase: what the attack takes from the node's capacity, which the honest
// load's own share of core 0 does not move); the node's RSS before and after; the node's held blocks
// (/metrics); whether the node stayed up. After
// the unknown-parents phase's last repeat the bench waits --settle seconds (the held blocks' maximum age
// is 120 s) and reads RSS and held blocks again: memory must come back down.
//
// --pin 1 (the default on a machine with 2 cores or more) stands for an attacker on a
// machine of its own: the node and the honest load are held on core 0 in every phase, the
// attacker and the node's RocksDB flushes and compactions on core 1, the attacker at nice 19
// so that it takes only what the flushes and compactions leave (on a machine of its own it
// would not delay them at all). The attacker's CPU seconds per phase are printed. --pin 0 runs everything on all cores (the attacker's CPU
// then counts against the node's rate). Asserts nothing; exits non-zero if the node died or an honest block was
// refused or never referenced.

import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { arg, cpuSeconds, fmt, median, table, threadCpuSeconds, threadIds } from './measure.mjs';
import { BenchNode, pool, sleep } from './ledger-load.mjs';

const require = createRequire(import.meta.url);
const SECONDS = arg('seconds', 30);
const MESSAGES = arg('messages', 100_000);
const CONNECTIONS = arg('connections', 8);
const POW = arg('pow', 1);
const BLOCK_DATA = arg('block-data', 4096);
const SETTLE = arg('settle', 130);
const REPEATS = Math.max(1, arg('repeats', 3));
const PORT_BASE = arg('port-base', 26600);
const PIN = arg('pin', availableParallelism() >= 2 ? 1 : 0) !== 0;
const PHASES = (() => {
  const at = process.argv.indexOf('--phases');
  const all = [
    'truncated',
    'oversized',
    'mutated',
    'invalid-blocks',
    'unknown-parents',
    'milestone-requests',
    'lying-heartbeats',
    'never-read',
    'header-without-body',
  ];
  return at > 0 && process.argv[at + 1] !== 'all' ? process.argv[at + 1].split(',') : all;
})();
const JWT_SECRET = 'ledger-node bench';
const COORDINATOR_SEED = '0x' + '5e'.repeat(32);
/**
 * Run one phase of the tool again and again until --seconds have passed (a flood may send
 * its --messages in a second: the honest rate is read over the whole window); resolves with
 * the rounds' reports added up.
 */
async function attack(tool, phase, p2pPort) {
  const until = Date.now() + SECONDS * 1000;
  let sum;
  do {
    const left = Math.max(1, (until - Date.now()) / 1000);
    const r = await attackOnce(tool, phase, p2pPort, left);
    if (!sum) sum = { ...r, rounds: 1 };
    else {
      for (const k of [
        'messages',
        'bytes',
        'connections',
        'failedConnects',
        'closedByNode',
        'leftOpen',
        'received',
        'seconds',
        'attackerCpu',
      ])
        sum[k] += r[k];
      sum.meanCloseMs = Math.round(
        (sum.meanCloseMs * (sum.closedByNode - r.closedByNode) + r.meanCloseMs * r.closedByNode) /
          Math.max(1, sum.closedByNode),
      );
      sum.maxCloseMs = Math.max(sum.maxCloseMs, r.maxCloseMs);
      sum.rounds++;
    }
  } while (Date.now() < until);
  return sum;
}

/** Run one phase of the tool once, for at most `seconds`; resolves with its JSON report. */
function attackOnce(tool, phase, p2pPort, seconds) {
  return new Promise((resolve, reject) => {
    const args = [
      '--address',
      `/ip4/127.0.0.1/tcp/${p2pPort}`,
      '--phases',
      phase,
      '--messages',
      String(MESSAGES),
      '--seconds',
      String(seconds),
      '--close-wait',
      '70',
      '--pow',
      String(POW),
      '--block-data',
      String(BLOCK_DATA),
      '--json',
    ];
    // taskset and nice exec the tool: the child's pid is the tool's.
    const child = PIN
      ? spawn('taskset', ['-c', '1', 'nice', '-n', '19', tool, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(tool, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let attackerCpu = 0;
    const sampler = setInterval(() => {
      const cpu = cpuSeconds(child.pid);
      if (!Number.isNaN(cpu)) attackerCpu = cpu;
    }, 100);
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`hostile_peer ${phase} exited with ${code}`));
      else resolve({ ...JSON.parse(line), attackerCpu });
    });
  });
}

// ---- the node ----------------------------------------------------------------------------

const rssMiB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
};

const { issueToken } = require('../dist/jwt-secret.js');
const { hostilePeerBinary } = require('../scripts/hostile-peer.js');

/** Held blocks and milestones from the node's /metrics. */
async function held(node) {
  const token = await issueToken(JWT_SECRET);
  const res = await fetch(`${node.base}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  const text = res.status === 200 ? await res.text() : '';
  const read = (kind) =>
    Number(new RegExp(`ledger_node_gossip_held_blocks\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
  return { blocks: read('blocks'), milestones: read('milestones') };
}

async function up(node) {
  if (node.child.exitCode !== null) return false;
  try {
    return (await node.http('GET', '/api/core/v2/info')).status === 200;
  } catch {
    return false;
  }
}

/** RocksDB's flush and compaction threads (`rocksdb:low`, `rocksdb:high`). */
function isRocksDbBackground(threadName) {
  return threadName.startsWith('rocksdb:');
}

function isForeground(threadName) {
  return !isRocksDbBackground(threadName);
}

// ---- the honest load ---------------------------------------------------------------------

/** Submit tagged-data blocks over --connections clients until `done()`; ids and failures. */
async function honestLoad(node, label, done) {
  const tag = '0x' + Buffer.from('bench:hostile').toString('hex');
  const ids = [];
  let refused = 0;
  let n = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!done()) {
        const data = '0x' + Buffer.from(`${label} ${n++} ${Date.now()}`).toString('hex');
        const body = Buffer.from(JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag, data } }));
        try {
          ids.push(await node.post(body, 'application/json'));
        } catch {
          refused++;
        }
      }
    }),
  );
  return { ids, refused, seconds: (performance.now() - started) / 1000 };
}

/** Wait until every id is referenced by a milestone (at most 60 s); how many are. */
async function referenced(node, ids) {
  const pending = new Set(ids);
  const deadline = Date.now() + 60_000;
  while (pending.size > 0 && Date.now() < deadline) {
    await pool([...pending], 16, async (id) => {
      const res = await node.http('GET', `/api/core/v2/blocks/${id}/metadata`);
      if (res.status === 200 && JSON.parse(res.text).referencedByMilestoneIndex) pending.delete(id);
    });
    if (pending.size > 0) await sleep(500);
  }
  return ids.length - pending.size;
}

// ---- the run -----------------------------------------------------------------------------

async function main() {
  // HOSTILE_PEER_BIN: a hostile_peer binary built already (else it is built here).
  const tool = hostilePeerBinary();
  const p2pPort = PORT_BASE + 1;
  const node = await BenchNode.start({
    pow: POW,
    port: PORT_BASE,
    args: [
      '--jwt-secret',
      JWT_SECRET,
      '--no-dashboard',
      '--no-faucet',
      '--coordinator-key',
      COORDINATOR_SEED,
      '--gossip',
      '--p2p-bind',
      `/ip4/127.0.0.1/tcp/${p2pPort}`,
    ],
  });
  const pid = node.child.pid;
  if (PIN) {
    // Every thread the node and this process have now; threads started later inherit it.
    for (const p of [pid, process.pid])
      execFileSync('taskset', ['-a', '-p', '-c', '0', String(p)], { stdio: 'ignore' });
    // RocksDB's flushes and compactions come in bursts that some windows catch and others
    // do not (a window's CPU per block moved by ±15 % with them); on core 1 they no longer
    // take the foreground's core. Its pool's threads exist from the store's opening on.
    for (const tid of threadIds(pid, isRocksDbBackground))
      execFileSync('taskset', ['-p', '-c', '1', tid], { stdio: 'ignore' });
  }
  const rows = [];
  const windows = [];
  let failed = false;
  try {
    // Load first, unmeasured, as long as a window: the first submissions of a process cost
    // more, and a window on the empty database of the first seconds reads 10–30 % higher
    // than the next (the first phase's reference would be inflated by it).
    const warm = Date.now() + SECONDS * 1000;
    await honestLoad(node, 'warm-up', () => Date.now() > warm);

    // Each phase is measured against the windows without attacker right before and right
    // after it: the honest rate falls by itself as the database grows over the run
    // (flushes and compactions share the node's core), by up to a quarter over the first
    // phases, so a reference before the phase alone blames the attack for that fall, and
    // a single reference at the start more so. The mean of the two takes out a steady drift.
    const runs = [
      ...PHASES.flatMap((phase) =>
        Array.from({ length: REPEATS }, (_, k) => [{ phase: 'none' }, { phase, repeat: k + 1 }]).flat(),
      ),
      { phase: 'none' },
    ];
    for (const run of runs) {
      const rssBefore = rssMiB(pid);
      let report = null;
      let finished = false;
      const attacker =
        run.phase === 'none'
          ? sleep(SECONDS * 1000).then(() => null)
          : attack(tool, run.phase, p2pPort).catch((e) => ({ error: e.message }));
      attacker.then(() => (finished = true));
      const cpuBefore = threadCpuSeconds(pid, isForeground);
      const load = await honestLoad(node, run.phase, () => finished);
      const cpu = threadCpuSeconds(pid, isForeground) - cpuBefore;
      report = await attacker;
      const heldAfter = await held(node);
      const rssAfter = rssMiB(pid);
      const ok = await referenced(node, load.ids);
      const rate = ok / load.seconds;
      const row = {
        phase: run.phase,
        repeat: run.repeat,
        report,
        submitted: load.ids.length + load.refused,
        accepted: load.ids.length,
        referenced: ok,
        rate,
        // µs of the node's CPU per referenced honest block over the window (RocksDB's
        // background threads left out).
        cpuPerBlock: (cpu * 1e6) / Math.max(1, ok),
        rssBefore,
        rssAfter,
        held: heldAfter.blocks,
        up: await up(node),
      };
      if (run.phase === 'unknown-parents' && run.repeat === REPEATS && SETTLE > 0) {
        console.error(`waiting ${SETTLE} s for the held blocks to expire…`);
        await sleep(SETTLE * 1000);
        row.rssSettled = rssMiB(pid);
        row.heldSettled = (await held(node)).blocks;
      }
      console.error(JSON.stringify(row));
      windows.push(row);
      if (!row.up || load.refused > 0 || ok < load.ids.length) failed = true;
      if (!row.up) break;
    }
  } finally {
    await node.stop();
  }
  windows.forEach((row, i) => {
    if (row.phase === 'none') return;
    row.before = windows[i - 1].rate;
    row.after = windows[i + 1]?.rate;
    row.reference = row.after === undefined ? row.before : (row.before + row.after) / 2;
    row.ratio = row.rate / row.reference;
    const cpuBefore = windows[i - 1].cpuPerBlock;
    const cpuAfter = windows[i + 1]?.cpuPerBlock;
    row.cpuReference = cpuAfter === undefined ? cpuBefore : (cpuBefore + cpuAfter) / 2;
    row.capacity = row.cpuReference / row.cpuPerBlock;
    console.error(
      JSON.stringify({
        phase: row.phase,
        before: row.before,
        after: row.after,
        ratio: row.ratio,
        capacity: row.capacity,
      }),
    );
    rows.push(row);
  });
  const medians = PHASES.map((phase) => {
    const mine = rows.filter((r) => r.phase === phase);
    const ratios = mine.map((r) => r.ratio);
    const capacities = mine.map((r) => r.capacity);
    return { phase, ratios, median: median(ratios), capacities, capacity: median(capacities) };
  });

  console.log(
    `bench:hostile — ${SECONDS} s per phase, ≤ ${fmt(MESSAGES)} attacker messages a phase, ${CONNECTIONS} honest clients, minPowScore ${POW}, orphan data ${BLOCK_DATA} B; ${PIN ? 'node and load on core 0, attacker (nice 19) on core 1' : 'everything on all cores'}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  table(
    [
      'phase (repeat)',
      'attacker messages (rounds)',
      'attacker CPU-s',
      'connections (closed by node, left open)',
      'close after mean / max (ms)',
      'honest submitted / accepted / referenced',
      'referenced blocks/s',
      'without attacker, before / after',
      'ratio to their mean',
      'node CPU µs per referenced block (without attacker)',
      'capacity ratio',
      'RSS before → after (MiB)',
      'held blocks after',
      'node up',
    ],
    rows.map((r) => [
      `${r.phase} (${r.repeat})`,
      r.report ? (r.report.error ?? `${fmt(r.report.messages)} (${r.report.rounds} rounds)`) : '—',
      r.report && !r.report.error ? r.report.attackerCpu.toFixed(1) : '—',
      r.report && !r.report.error ? `${r.report.connections} (${r.report.closedByNode}, ${r.report.leftOpen})` : '—',
      r.report && !r.report.error && r.report.closedByNode > 0
        ? `${r.report.meanCloseMs} / ${r.report.maxCloseMs}`
        : '—',
      `${r.submitted} / ${r.accepted} / ${r.referenced}`,
      r.rate.toFixed(1),
      `${r.before.toFixed(1)} / ${r.after === undefined ? '—' : r.after.toFixed(1)}`,
      r.ratio.toFixed(2),
      `${r.cpuPerBlock.toFixed(0)} (${r.cpuReference.toFixed(0)})`,
      r.capacity.toFixed(2),
      `${r.rssBefore.toFixed(0)} → ${r.rssAfter.toFixed(0)}${r.rssSettled !== undefined ? ` → ${r.rssSettled.toFixed(0)} after ${SETTLE} s` : ''}`,
      `${r.held}${r.heldSettled !== undefined ? ` → ${r.heldSettled}` : ''}`,
      r.up ? 'yes' : 'NO',
    ]),
  );
  console.log(
    `\nPer phase, the median of its ${REPEATS} ratios (target ≥ 0.90): of the referenced rate, and of the node's capacity (CPU per block, reference ÷ phase):\n`,
  );
  const listed = (values) => values.map((v) => v.toFixed(2)).join(', ');
  table(
    ['phase', 'rate ratios, in order', 'median', 'capacity ratios, in order', 'median'],
    medians
      .filter((m) => m.ratios.length > 0)
      .map((m) => [m.phase, listed(m.ratios), m.median.toFixed(2), listed(m.capacities), m.capacity.toFixed(2)]),
  );
  if (failed) {
    console.log('FAILED: the node died, refused an honest block, or left one unreferenced');
    process.exitCode = 1;
  }
}

await main();
