// A node that runs for a long time under mixed load: `npm run bench:soak [-- --minutes 10]`
// (docs/soak.md). Does memory stay flat, and does every honest block get referenced?
//
// Starts bin/ledger-node.js as a child process (temporary data directory, a milestone every
// --interval seconds, minPowScore --pow, RocksDB bounded to --cache-mib MiB of block cache
// and as much for memtables, so that the bounded structures fill during the warm-up) and
// alternates active phases with idle gaps longer than belowMaxDepth milestones. While
// active, at about --rate submissions per second in all:
//   • JSON without parents or nonce (the node selects tips and mines),
//   • JSON with parents from GET /tips and no nonce (the node mines),
//   • bytes with parents from GET /tips and a nonce mined here,
//   • a stream of lazy blocks whose parents are chosen old on purpose (old milestone
//     blocks, alone or next to a fresh tip), so that they are lazy or below max depth,
// and lookups (blocks, metadata, tips, info, milestones) at a quarter of that rate. Every
// non-lazy block is checked once it is 3 milestones old, again until it is referenced or
// 20 milestones old. At the start and every minute it prints the node's resident memory,
// open file descriptors, pending-graph size (/metrics), RocksDB memory and the share of
// non-lazy blocks referenced, the data directory's size on disk (a `du` of it) and the
// pruning index; then a summary with the growth after the warm-up (the first --warmup share
// of the run) and the data directory's growth over the second half of the run.
// `--keep N` runs the node with Hornet's milestone pruning (`pruning.milestones.enabled`,
// `maxMilestonesToKeep` N, through a --config file); the lookups and the lazy blocks then
// stay above the pruning index. Prints figures, asserts nothing.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { arg, dirBytes, mib, table } from './measure.mjs';
import { freePort } from './node-process.mjs';

const require = createRequire(import.meta.url);
const core = require('../dist/index.js');
const { issueToken } = require('../dist/jwt-secret.js');

const RUN_SECONDS = arg('seconds', arg('minutes', 10) * 60);
const INTERVAL = arg('interval', 1);
const POW = arg('pow', 10);
const RATE = arg('rate', 40);
const CACHE_MIB = arg('cache-mib', 8);
const WARMUP = arg('warmup', 0.3);
const KEEP = arg('keep', 0);
const BELOW_MAX_DEPTH = 15;
const IDLE_SECONDS = (BELOW_MAX_DEPTH + 3) * INTERVAL;
const ACTIVE_SECONDS = Math.max(30, 3 * IDLE_SECONDS);
const SAMPLE_MS = 1_000;
const SERIALIZER = 'application/vnd.ledger.serializer-v1';
const JWT_SECRET = 'soak-bench-secret';
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- HTTP ----

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let base;
let token;

function http(method, path, body, contentType = 'application/json', headers = {}) {
  return new Promise((resolve, reject) => {
    const all = { ...headers, ...(body ? { 'Content-Type': contentType, 'Content-Length': body.length } : {}) };
    const req = request(`${base}${path}`, { method, agent, headers: all }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
async function getJson(path) {
  const { status, text } = await http('GET', path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${text}`);
  return JSON.parse(text);
}
async function post(body, contentType = 'application/json') {
  const { status, text } = await http('POST', '/api/core/v2/blocks', body, contentType);
  if (status !== 201) throw new Error(`submit: ${status} ${text}`);
  return JSON.parse(text).blockId;
}

async function startNode(dataDir, configFile) {
  const port = await freePort();
  const args = [
    ...(configFile ? ['--config', configFile] : []),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--data-dir',
    dataDir,
    '--min-pow-score',
    String(POW),
    '--milestone-interval',
    String(INTERVAL),
    '--jwt-secret',
    JWT_SECRET,
    '--log-level',
    'warn',
    '--block-cache-mib',
    String(CACHE_MIB),
    '--write-buffers-mib',
    String(CACHE_MIB),
  ];
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url)), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}`);
    try {
      if ((await http('GET', '/api/core/v2/info')).status === 200) return child;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('node did not start within 30 s');
}

// ---- what the node looks like from outside ----

/** Resident memory (bytes) and open file descriptors of the node's process. */
function processFigures(pid, metrics) {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) {
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'))?.[1] ?? 0) * 1024;
    return { rss, fds: readdirSync(`/proc/${pid}/fd`).length };
  }
  return {
    rss: metrics.ledger_node_process_resident_memory_bytes ?? 0,
    fds: metrics.ledger_node_process_open_fds ?? 0,
  };
}

async function nodeMetrics() {
  const { status, text } = await http('GET', '/metrics', undefined, undefined, { Authorization: `Bearer ${token}` });
  if (status !== 200) throw new Error(`GET /metrics: ${status}`);
  const values = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+) ([0-9.e+-]+)$/.exec(line);
    if (m) values[m[1]] = Number(m[2]);
  }
  return values;
}

// ---- load ----

const tagged = (text) => ({ type: 5, tag: '0x736f616b', data: '0x' + Buffer.from(text).toString('hex') });
let latestIndex = 0;
let pruningIndex = 0;
/** Non-lazy blocks: id → { index: latest milestone when submitted, referenced?: number }. */
const honest = new Map();
const recentIds = [];
const counts = { noParents: 0, tipsNodeMines: 0, tipsMinedHere: 0, lazy: 0, lookups: 0, pruned: 0, errors: 0 };
let active = false;
let running = true;
let errorShown = 0;

function remember(id) {
  honest.set(id, { index: latestIndex });
  recentIds.push(id);
  if (recentIds.length > 2000) recentIds.splice(0, 1000);
}

async function mined(block) {
  const bytes = core.encodeBlock({ ...block, nonce: '0' });
  const { nonce } = await core.mine(bytes, { targetScore: POW, threads: 1 });
  bytes.writeBigUInt64LE(BigInt(nonce), bytes.length - 8);
  return bytes;
}

/** The block ID of milestone `index`'s block (milestone blocks have nonce 0). */
const milestoneBlocks = new Map();
async function milestoneBlock(index) {
  if (!milestoneBlocks.has(index)) {
    const payload = await getJson(`/api/core/v2/milestones/by-index/${index}`);
    milestoneBlocks.set(index, core.blockId({ protocolVersion: 2, parents: payload.parents, payload, nonce: '0' }));
  }
  return milestoneBlocks.get(index);
}

const kinds = [
  async (n) => {
    remember(await post(Buffer.from(JSON.stringify({ protocolVersion: 2, payload: tagged(`no parents ${n}`) }))));
    counts.noParents++;
  },
  async (n) => {
    const { tips } = await getJson('/api/core/v2/tips');
    remember(
      await post(
        Buffer.from(JSON.stringify({ protocolVersion: 2, parents: tips, payload: tagged(`tips, node mines ${n}`) })),
      ),
    );
    counts.tipsNodeMines++;
  },
  async (n) => {
    const { tips } = await getJson('/api/core/v2/tips');
    remember(
      await post(
        await mined({ protocolVersion: 2, parents: tips, payload: tagged(`tips, mined here ${n}`) }),
        SERIALIZER,
      ),
    );
    counts.tipsMinedHere++;
  },
  async (n) => {
    // Old on purpose: next to a fresh tip (semi-lazy, below max depth a milestone later),
    // two old milestone blocks (lazy), or very old ones (below max depth at once: milestones
    // 2 and 3, or with pruning the oldest two that pruning leaves, 19 and 18 back).
    const cmi = latestIndex;
    if (cmi < 20) return;
    const { tips } = await getJson('/api/core/v2/tips');
    const choice = n % 3;
    const parents =
      choice === 0
        ? [tips[0], await milestoneBlock(cmi - 16)]
        : choice === 1
          ? [await milestoneBlock(cmi - 12), await milestoneBlock(cmi - 11)]
          : KEEP > 0
            ? [await milestoneBlock(cmi - 19), await milestoneBlock(cmi - 18)]
            : [await milestoneBlock(2), await milestoneBlock(3)];
    await post(
      await mined({ protocolVersion: 2, parents: [...new Set(parents)].sort(), payload: tagged(`lazy ${n}`) }),
      SERIALIZER,
    );
    counts.lazy++;
  },
];

/** One submitter of `kind` at `rate` per second while a phase is active. */
async function submitter(kind, rate) {
  for (let n = 0; running; n++) {
    if (!active) {
      await sleep(100);
      continue;
    }
    const begun = performance.now();
    try {
      await kinds[kind](n);
    } catch (err) {
      counts.errors++;
      if (errorShown++ < 5) console.error(`submission failed: ${err.message}`);
    }
    await sleep(Math.max(0, 1000 / rate - (performance.now() - begun)));
  }
}

async function looker(rate) {
  const paths = [
    () =>
      recentIds.length
        ? `/api/core/v2/blocks/${recentIds[Math.floor(Math.random() * recentIds.length)]}`
        : '/api/core/v2/info',
    () =>
      recentIds.length
        ? `/api/core/v2/blocks/${recentIds[Math.floor(Math.random() * recentIds.length)]}/metadata`
        : '/api/core/v2/info',
    () => '/api/core/v2/info',
    () => '/api/core/v2/tips',
    () => {
      const lowest = pruningIndex + 1;
      return `/api/core/v2/milestones/by-index/${lowest + Math.floor(Math.random() * Math.max(1, latestIndex - lowest + 1))}`;
    },
  ];
  for (let n = 0; running; n++) {
    if (!active) {
      await sleep(100);
      continue;
    }
    const { status } = await http('GET', paths[n % paths.length]());
    // With pruning, a block looked up may have been pruned meanwhile: 404 as on Hornet.
    if (status === 404 && KEEP > 0) counts.pruned++;
    else if (status !== 200) counts.errors++;
    counts.lookups++;
    await sleep(1000 / rate);
  }
}

/** Checks every non-lazy block once it is 3 milestones old, until referenced or 20 old. */
async function referenceChecker() {
  while (
    running ||
    [...honest.values()].some((b) => b.referenced === undefined && !b.pruned && latestIndex - b.index <= 20)
  ) {
    for (const [id, b] of honest) {
      if (
        b.referenced !== undefined ||
        b.pruned ||
        latestIndex - b.index < 3 ||
        latestIndex - b.index > 20 ||
        b.checkedAt === latestIndex
      )
        continue;
      b.checkedAt = latestIndex;
      const { status, text } = await http('GET', `/api/core/v2/blocks/${id}/metadata`);
      if (status === 404 && KEEP > 0) {
        b.pruned = true; // pruned before it was seen referenced: counted apart
        continue;
      }
      if (status !== 200) throw new Error(`GET metadata of ${id}: ${status} ${text}`);
      const meta = JSON.parse(text);
      if (meta.referencedByMilestoneIndex !== undefined) b.referenced = meta.referencedByMilestoneIndex;
    }
    await sleep(500);
  }
}

/**
 * Of the non-lazy blocks checked so far (3 or more milestones old), how many are
 * referenced; one not yet referenced is checked again at every milestone until it is 20 old.
 */
function referencedShare() {
  let due = 0;
  let referenced = 0;
  for (const b of honest.values()) {
    if (b.checkedAt === undefined) continue;
    due++;
    if (b.referenced !== undefined) referenced++;
  }
  return { due, referenced, share: due === 0 ? 1 : referenced / due };
}

// ---- the run ----

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-soak-'));
  let configFile;
  if (KEEP > 0) {
    configFile = `${dataDir}.config.json`;
    writeFileSync(
      configFile,
      JSON.stringify({ pruning: { milestones: { enabled: true, maxMilestonesToKeep: KEEP } } }),
    );
  }
  const child = await startNode(dataDir, configFile);
  token = await issueToken(JWT_SECRET);
  const samples = [];
  const rows = [];
  try {
    console.log(
      `soak: ${RUN_SECONDS} s, milestone every ${INTERVAL} s, minPowScore ${POW}, ~${RATE} submissions/s while active ` +
        `(${ACTIVE_SECONDS} s active, ${IDLE_SECONDS} s idle), RocksDB ${CACHE_MIB} MiB cache + ${CACHE_MIB} MiB memtables, warm-up ${Math.round(WARMUP * 100)} %, ` +
        (KEEP > 0 ? `pruning: keep ${KEEP} milestones` : 'no pruning'),
    );
    const tick = setInterval(async () => {
      try {
        const { status } = await getJson('/api/core/v2/info');
        latestIndex = status.latestMilestone.index;
        pruningIndex = status.pruningIndex ?? 0;
      } catch {
        // the node is busy or stopping; the next tick reads it
      }
    }, 250);
    const sample = async () => {
      const metrics = await nodeMetrics();
      const { rss, fds } = processFigures(child.pid, metrics);
      const s = {
        t: seconds(),
        rss,
        fds,
        pending: metrics.ledger_node_pending_blocks,
        stored: metrics.ledger_node_blocks_stored,
        belowMaxDepth: metrics.ledger_node_blocks_below_max_depth,
        rocksdb: metrics.ledger_node_rocksdb_memory_bytes,
        heap: metrics.ledger_node_nodejs_heap_size_used_bytes,
        index: latestIndex,
        pruningIndex,
        disk: dirBytes(dataDir),
        active,
      };
      samples.push(s);
      return s;
    };
    const print = (s, label) => {
      const window = samples.filter((x) => x.t > s.t - 60);
      const ref = referencedShare();
      const row = [
        label,
        s.index,
        (s.rss / 2 ** 20).toFixed(1),
        s.fds,
        s.pending,
        Math.max(...window.map((x) => x.pending)),
        s.stored,
        s.belowMaxDepth,
        (s.rocksdb / 2 ** 20).toFixed(1),
        (s.heap / 2 ** 20).toFixed(1),
        `${ref.referenced}/${ref.due} (${(ref.share * 100).toFixed(2)} %)`,
        mib(s.disk),
        s.pruningIndex,
      ];
      rows.push(row);
      console.log(
        `[${label}] milestone ${row[1]}, RSS ${row[2]} MiB, ${row[3]} fds, pending graph ${row[4]} (max ${row[5]} in the last minute), ` +
          `${row[6]} blocks stored, ${row[7]} below max depth, RocksDB ${row[8]} MiB, JS heap ${row[9]} MiB, non-lazy referenced ${row[10]}, ` +
          `data dir ${row[11]} MiB, pruning index ${row[12]}`,
      );
    };
    while (latestIndex < 3) await sleep(100);
    print(await sample(), '0 min');

    const workers = [
      submitter(0, RATE * 0.4),
      submitter(1, RATE * 0.2),
      submitter(2, RATE * 0.2),
      submitter(3, RATE * 0.2),
      looker(RATE / 4),
      referenceChecker(),
    ];
    // Phases: active, then idle for longer than belowMaxDepth milestones, again and again.
    const phases = (async () => {
      while (seconds() < RUN_SECONDS) {
        active = true;
        await sleep(Math.min(ACTIVE_SECONDS, RUN_SECONDS - seconds()) * 1000);
        active = false;
        if (seconds() < RUN_SECONDS) await sleep(Math.min(IDLE_SECONDS, RUN_SECONDS - seconds()) * 1000);
      }
    })();
    let minute = 1;
    while (seconds() < RUN_SECONDS) {
      // Jittered, so that samples do not keep landing at the same point of the milestone
      // cycle (the pending graph fills between two milestones).
      await sleep(SAMPLE_MS * (0.6 + 0.8 * Math.random()));
      const s = await sample();
      if (s.t >= minute * 60) print(s, `${minute++} min`);
    }
    await phases;
    running = false;
    active = false;
    // Every non-lazy block gets its 20 milestones to be referenced.
    await Promise.all(workers);
    const end = await sample();
    print(end, 'end');
    clearInterval(tick);

    // ---- summary ----
    const warm = samples.filter((s) => s.t <= WARMUP * RUN_SECONDS);
    const after = samples.filter((s) => s.t > WARMUP * RUN_SECONDS);
    const atWarmup = warm[warm.length - 1];
    const growth = (from, to) => (from > 0 ? ((to - from) / from) * 100 : 0);
    const maxOf = (list, key) => Math.max(...list.map((s) => s[key]));
    const ref = referencedShare();
    const lost = [...honest.values()].filter((b) => b.referenced === undefined && !b.pruned).length;
    // The pending graph breathes with the load (it fills between milestones and empties in
    // every idle gap): compare its mean while submissions ran, in the first and the second
    // half of the time after the warm-up.
    const activeMean = (list) => {
      const values = list.filter((s) => s.active).map((s) => s.pending);
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
    };
    const middle = (WARMUP * RUN_SECONDS + RUN_SECONDS) / 2;
    const firstHalf = after.filter((s) => s.t <= middle);
    const secondHalf = after.filter((s) => s.t > middle);
    const verdict = (pct) => (pct < 10 ? 'met' : 'missed');
    // Resident memory: the mean of the first minute after the warm-up against the mean of
    // the last minute of the run.
    const meanOf = (list, key) => list.reduce((a, s) => a + s[key], 0) / Math.max(1, list.length);
    const firstMinute = after.filter((s) => s.t <= WARMUP * RUN_SECONDS + 60);
    const lastMinute = after.filter((s) => s.t > RUN_SECONDS - 60);
    const rssGrowth = growth(meanOf(firstMinute, 'rss'), meanOf(lastMinute, 'rss'));
    const pendingGrowth = growth(activeMean(firstHalf), activeMean(secondHalf));
    // The data directory over the second half of the run: the mean of its first minute against
    // the mean of the last minute (RocksDB's flushes and compactions, and pruning runs, make
    // single samples jump).
    const half = RUN_SECONDS / 2;
    const halfMinute = samples.filter((s) => s.t > half && s.t <= half + 60);
    const diskGrowth = growth(meanOf(halfMinute, 'disk'), meanOf(lastMinute, 'disk'));
    const prunedBlocks = [...honest.values()].filter((b) => b.pruned).length;
    console.log();
    table(
      [
        'minute',
        'milestone',
        'RSS MiB',
        'fds',
        'pending',
        'pending max (minute)',
        'stored',
        'below max depth',
        'RocksDB MiB',
        'JS heap MiB',
        'non-lazy referenced',
        'data dir MiB',
        'pruning index',
      ],
      rows,
    );
    const submitted = counts.noParents + counts.tipsNodeMines + counts.tipsMinedHere;
    table(
      ['figure', 'value'],
      [
        ['run', `${seconds().toFixed(0)} s, milestones ${samples[0].index}–${end.index}`],
        [
          'submitted non-lazy',
          `${submitted} (${counts.noParents} without parents, ${counts.tipsNodeMines} on /tips mined by the node, ${counts.tipsMinedHere} on /tips with a nonce)`,
        ],
        ['submitted lazy', String(counts.lazy)],
        ['lookups', `${counts.lookups}${KEEP > 0 ? ` (${counts.pruned} answered 404: pruned meanwhile)` : ''}`],
        ['errors', String(counts.errors)],
        [
          'RSS mean: first minute after warm-up → last minute',
          `${(meanOf(firstMinute, 'rss') / 2 ** 20).toFixed(1)} → ${(meanOf(lastMinute, 'rss') / 2 ** 20).toFixed(1)} MiB (${rssGrowth.toFixed(1)} %, target < 10 %: ${verdict(rssGrowth)})`,
        ],
        [
          'RSS: end of warm-up, largest after, end',
          `${(atWarmup.rss / 2 ** 20).toFixed(1)}, ${(maxOf(after, 'rss') / 2 ** 20).toFixed(1)}, ${(end.rss / 2 ** 20).toFixed(1)} MiB`,
        ],
        [
          'pending graph while active, mean: first → second half after warm-up',
          `${activeMean(firstHalf).toFixed(1)} → ${activeMean(secondHalf).toFixed(1)} (${pendingGrowth.toFixed(1)} %, target < 10 %: ${verdict(pendingGrowth)})`,
        ],
        ['pending graph max: warm-up → after', `${maxOf(warm, 'pending')} → ${maxOf(after, 'pending')}`],
        ['open fds: warm-up max → after max', `${maxOf(warm, 'fds')} → ${maxOf(after, 'fds')}`],
        [
          'data dir on disk, mean: first minute of the second half → last minute',
          `${mib(meanOf(halfMinute, 'disk'))} → ${mib(meanOf(lastMinute, 'disk'))} MiB (${diskGrowth.toFixed(1)} %${KEEP > 0 ? `, target < 10 % with pruning: ${verdict(diskGrowth)}` : ', no pruning'})`,
        ],
        [
          'data dir: end of warm-up, largest, end',
          `${mib(atWarmup.disk)}, ${mib(maxOf(samples, 'disk'))}, ${mib(end.disk)} MiB`,
        ],
        [
          'pruning index at the end',
          KEEP > 0 ? `${end.pruningIndex} (keep ${KEEP} milestones; confirmed ${end.index})` : '0 (no pruning)',
        ],
        [
          'non-lazy referenced',
          `${ref.referenced} of ${honest.size} (${((ref.referenced / Math.max(1, honest.size)) * 100).toFixed(2)} %), ${lost} never (target: all)` +
            (prunedBlocks > 0 ? `, ${prunedBlocks} pruned before a check saw them referenced` : ''),
        ],
      ],
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
    if (configFile) rmSync(configFile, { force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
