// bench:inx, phase `indexer`: the built-in indexer (TIP-26, /api/indexer/v1) against
// Hornet's inx-indexer 1.0.1 on the same ledger of --outputs unspent outputs.
//
// The ledger is written once by the Rust example of bench:indexer (indexer-ledger.mjs) and
// copied, so both sides start from the same bytes:
// - ours: the node is started once with --no-indexer until a milestone passes (its index is
//   then behind the ledger), then with its indexer, which rebuilds the index from the
//   unspent outputs in Store::open before the node answers; then once more on the current
//   index. Build time = the first start with the indexer − the second.
// - theirs: a node with --no-indexer --inx, and inx-indexer (SQLite, as
//   scripts/interop/inx-indexer.sh runs it) started against it: time from its start to
//   `indexer/v1` listed in /api/routes, and to its answers carrying the node's confirmed
//   milestone (synced); its own log line "Importing initial ledger … took" too.
// Then both nodes and inx-indexer run side by side and autocannon sends each TIP-26 query to
// three targets in alternating rounds: the built-in routes, inx-indexer through the node's
// proxy, and inx-indexer on its own port (the proxy's cost). Disk: the index's RocksDB table
// files against inx-indexer's database folder.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { indexTableBytes, load, sleep, startInxIndexer } from './inx-extensions.mjs';
import { writeLedger } from './indexer-ledger.mjs';
import { cpuSeconds, dirSizes, mib } from './measure.mjs';
import { freePort, startNodeProcess } from './node-process.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const NODE_FLAGS = ['--min-pow-score', '1', '--milestone-interval', '1', '--log-level', 'warn'];
const START_TIMEOUT_MS = 30 * 60_000;
const OUTPUTS = '/api/indexer/v1/outputs';

async function json(url) {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const confirmedIndex = async (nodeUrl) => (await json(`${nodeUrl}/api/core/v2/info`)).status.confirmedMilestone.index;

/** Seconds from the start of a node process on `dir` to its first answer. */
async function timedStart(dir, flags) {
  const started = performance.now();
  const node = await startNodeProcess(dir, [...NODE_FLAGS, ...flags], { timeoutMs: START_TIMEOUT_MS });
  return { node, seconds: (performance.now() - started) / 1000 };
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ pipelining: 1, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** Up to `count` cursors of pages of 1,000 basic outputs, from the first page on. */
async function cursors(base, count) {
  const list = [];
  let page = await json(`${base}${OUTPUTS}/basic?pageSize=1000`);
  while (page.cursor !== undefined && list.length < count) {
    list.push(page.cursor);
    page = await json(`${base}${OUTPUTS}/basic?pageSize=1000&cursor=${page.cursor}`);
  }
  return list;
}

export async function indexerPhase({ outputs, connections, duration, rounds, pages }) {
  const work = mkdtempSync(join(tmpdir(), 'ledger-node-inx-bench-'));
  const ours = join(work, 'ours');
  const theirs = join(work, 'theirs');
  const running = [];
  const stopAll = async () => {
    for (const p of running.splice(0).reverse()) await p.stop();
  };
  try {
    const written = performance.now();
    const ledger = writeLedger(ours, outputs);
    console.log(`${ledger.outputs} outputs written in ${((performance.now() - written) / 1000).toFixed(1)} s`);
    cpSync(ours, theirs, { recursive: true });

    // Ours: make the index fall behind, then time the start that rebuilds it.
    const { node } = await timedStart(ours, ['--no-indexer']);
    const first = await confirmedIndex(node.url);
    while ((await confirmedIndex(node.url)) <= first) await sleep(100);
    await node.stop();
    const loadAtBuild = load();
    const rebuilt = await timedStart(ours, []);
    await rebuilt.node.stop();
    const plain = await timedStart(ours, []);
    const ourDisk = indexTableBytes(join(ours, 'ledger'));
    await plain.node.stop();
    const buildSeconds = rebuilt.seconds - plain.seconds;
    console.log(
      `built-in: start with the rebuild ${rebuilt.seconds.toFixed(2)} s, without ${plain.seconds.toFixed(2)} s: build ${buildSeconds.toFixed(2)} s (load ${loadAtBuild})`,
    );

    // Theirs: inx-indexer imports the ledger over ReadUnspentOutputs.
    const inxPort = await freePort();
    const { node: theirNode, seconds: theirStart } = await timedStart(theirs, [
      '--no-indexer',
      '--inx',
      '--inx-bind',
      `127.0.0.1:${inxPort}`,
    ]);
    running.push(theirNode);
    const loadAtImport = load();
    const importStart = performance.now();
    const inxIndexer = await startInxIndexer(join(work, 'inx-indexer'), `127.0.0.1:${inxPort}`);
    running.push(inxIndexer);
    while (!(await json(`${theirNode.url}/api/routes`)).routes.includes('indexer/v1')) {
      if (inxIndexer.exited()) throw new Error(`inx-indexer exited:\n${inxIndexer.log().slice(-2000)}`);
      await sleep(20);
    }
    const registeredSeconds = (performance.now() - importStart) / 1000;
    const target = await confirmedIndex(theirNode.url);
    for (;;) {
      const res = await fetch(`${theirNode.url}${OUTPUTS}/basic?address=${ledger.one}`);
      if (res.status === 200 && (await res.json()).ledgerIndex >= target) break;
      await sleep(20);
    }
    const syncedSeconds = (performance.now() - importStart) / 1000;
    const importCpu = cpuSeconds(inxIndexer.pid);
    const own = /Importing initial ledger with (\d+) outputs at index (\d+) took ([\d.]+)(m?s)/.exec(inxIndexer.log());
    const ownSeconds = own ? Number(own[3]) / (own[4] === 'ms' ? 1000 : 1) : Number.NaN;
    const theirDisk = dirSizes(inxIndexer.database);
    console.log(
      `inx-indexer: indexer/v1 registered after ${registeredSeconds.toFixed(2)} s, synced after ${syncedSeconds.toFixed(2)} s, its log: ${own?.[0] ?? 'no import line'} (load ${loadAtImport})`,
    );

    // Queries: the three targets side by side.
    const ourNode = await startNodeProcess(ours, NODE_FLAGS, { timeoutMs: START_TIMEOUT_MS });
    running.push(ourNode);
    const targets = [
      { name: 'built-in', base: ourNode.url },
      { name: 'inx-indexer via proxy', base: theirNode.url },
      { name: 'inx-indexer direct', base: inxIndexer.url },
    ];
    for (const t of targets) t.cursors = await cursors(t.base, pages);
    const queries = [
      { title: 'basic?address (1 match)', path: () => `/basic?address=${ledger.one}` },
      { title: 'basic?address (10 matches)', path: () => `/basic?address=${ledger.ten}` },
      { title: 'basic?address (1,000 matches, a page)', path: () => `/basic?address=${ledger.thousand}` },
      { title: 'basic?tag (1,000 matches)', path: () => `/basic?tag=${ledger.tag}` },
      {
        title: `basic paging with cursors (${pages} pages of 1,000)`,
        path: (t) => `/basic?pageSize=1000&cursor=${t.cursors[t.next++ % t.cursors.length]}`,
        paging: true,
      },
    ];
    // What each target answers, once (the paged query: the number of pages).
    for (const q of queries) {
      q.items = [];
      for (const t of targets) {
        t.next = 0;
        const answer = await json(`${t.base}${OUTPUTS}${q.path(t)}`);
        q.items.push(q.paging ? t.cursors.length : answer.items.length);
        if (!q.paging)
          q.same =
            (q.same ?? true) && [...answer.items].sort().join() === (q.first ??= [...answer.items].sort().join());
      }
    }
    // A warm-up second per query and target (page caches, connection pools).
    for (const q of queries)
      for (const t of targets) {
        t.next = 0;
        await cannon({
          url: t.base,
          connections,
          duration: 1,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${OUTPUTS}${q.path(t)}` }) }],
        });
      }
    const loadAtQueries = [load()];
    const results = queries.map(() => targets.map(() => []));
    for (let round = 0; round < rounds; round++) {
      for (const [k, q] of queries.entries()) {
        // Alternate which target goes first.
        const order = targets.map((_, i) => (i + round) % targets.length);
        for (const i of order) {
          const t = targets[i];
          t.next = 0;
          const r = await cannon({
            url: t.base,
            connections,
            duration,
            requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${OUTPUTS}${q.path(t)}` }) }],
          });
          results[k][i].push({
            rps: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            bad: r.non2xx + r.errors + r.timeouts,
          });
        }
      }
      loadAtQueries.push(load());
    }
    const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
    return {
      outputs: ledger.outputs,
      buildSeconds,
      rebuiltStart: rebuilt.seconds,
      plainStart: plain.seconds,
      theirStart,
      registeredSeconds,
      syncedSeconds,
      ownSeconds,
      importCpu,
      loadAtBuild,
      loadAtImport,
      loadAtQueries,
      ourIndexBytes: ourDisk.index,
      ourTableBytes: ourDisk.all,
      theirDiskBytes: theirDisk.disk,
      theirFileBytes: theirDisk.apparent,
      targets: targets.map((t) => t.name),
      queries: queries.map((q, k) => ({
        title: q.title,
        items: q.items,
        same: q.paging ? undefined : q.same,
        results: results[k].map(median),
      })),
      connections,
      duration,
      rounds,
      mib,
    };
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}
