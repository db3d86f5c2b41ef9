// bench:inx, phase `indexer`: the built-in indexer (TIP-26, /api/indexer/v1) against
// Hornet's inx-indexer 1.0.1 on each of its database engines (--engines: SQLite,
// PostgreSQL) on the same ledger of --outputs unspent outputs.
//
// The ledger is written once by the Rust example of bench:indexer (indexer-ledger.mjs) and
// copied, so both sides start from the same bytes:
// - ours: the node is started once with --no-indexer until a milestone passes (its index is
//   then behind the ledger), then with its indexer, which rebuilds the index from the
//   unspent outputs in Store::open before the node answers; then once more on the current
//   index. Build time = the first start with the indexer − the second.
// - theirs, one engine after the other, each on its own copy of the ledger: a node with
//   --no-indexer --inx, and inx-indexer started against it (as scripts/interop/inx-indexer.sh
//   runs it; PostgreSQL in a throwaway cluster made by the same pg-cluster.sh): time from its
//   start to `indexer/v1` listed in /api/routes, and to its answers carrying the node's
//   confirmed milestone (synced); its own log line "Importing initial ledger … took" too.
// Then every node and inx-indexer run side by side and autocannon sends each TIP-26 query to
// every target in alternating rounds: the built-in routes, and for each engine inx-indexer
// through the node's proxy and on its own port (the proxy's cost). Disk: the index's RocksDB
// table files against SQLite's database folder, and PostgreSQL's pg_database_size (and the
// cluster's data folder, WAL included).

import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { indexTableBytes, load, sleep, startInxIndexer, startPostgres } from './inx-extensions.mjs';
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

export const ENGINE_NAMES = { sqlite: 'SQLite', postgresql: 'PostgreSQL' };

/**
 * A node with --no-indexer --inx on `dir` and inx-indexer (`engine`) against it, timed until
 * inx-indexer answers at the node's confirmed milestone. Its processes go to `running`.
 */
async function importWith(engine, dir, work, ledger, running) {
  const inxPort = await freePort();
  const { node, seconds: nodeStart } = await timedStart(dir, [
    '--no-indexer',
    '--inx',
    '--inx-bind',
    `127.0.0.1:${inxPort}`,
  ]);
  running.push(node);
  let postgres;
  if (engine === 'postgresql') {
    postgres = await startPostgres(join(work, 'pg'));
    running.push({ stop: async () => postgres.stop() });
  }
  const pgCpuBefore = postgres?.cpuSeconds() ?? 0;
  const loadAtImport = load();
  const importStart = performance.now();
  const inxIndexer = await startInxIndexer(join(work, `inx-indexer-${engine}`), `127.0.0.1:${inxPort}`, postgres);
  running.push(inxIndexer);
  while (!(await json(`${node.url}/api/routes`)).routes.includes('indexer/v1')) {
    if (inxIndexer.exited()) throw new Error(`inx-indexer (${engine}) exited:\n${inxIndexer.log().slice(-2000)}`);
    await sleep(20);
  }
  const registeredSeconds = (performance.now() - importStart) / 1000;
  const target = await confirmedIndex(node.url);
  for (;;) {
    const res = await fetch(`${node.url}${OUTPUTS}/basic?address=${ledger.one}`);
    if (res.status === 200 && (await res.json()).ledgerIndex >= target) break;
    await sleep(20);
  }
  const syncedSeconds = (performance.now() - importStart) / 1000;
  const importCpu = cpuSeconds(inxIndexer.pid);
  const serverCpu = postgres ? postgres.cpuSeconds() - pgCpuBefore : Number.NaN;
  const own = /Importing initial ledger with (\d+) outputs at index (\d+) took ([\d.]+)(m?s)/.exec(inxIndexer.log());
  const ownSeconds = own ? Number(own[3]) / (own[4] === 'ms' ? 1000 : 1) : Number.NaN;
  const folder = dirSizes(inxIndexer.database);
  // SQLite: its database folder; PostgreSQL: the database's own size (the cluster's folder,
  // with its WAL and the system catalogues, in folderBytes).
  const diskBytes = postgres ? postgres.databaseBytes() : folder.disk;
  console.log(
    `inx-indexer (${engine}): indexer/v1 registered after ${registeredSeconds.toFixed(2)} s, synced after ${syncedSeconds.toFixed(2)} s, its log: ${own?.[0] ?? 'no import line'} (load ${loadAtImport})`,
  );
  return {
    engine,
    name: ENGINE_NAMES[engine],
    node,
    inxIndexer,
    nodeStart,
    registeredSeconds,
    syncedSeconds,
    ownSeconds,
    importCpu,
    serverCpu,
    loadAtImport,
    diskBytes,
    folderBytes: folder.disk,
    fileBytes: folder.apparent,
  };
}

/** What a table cell needs of one autocannon run. */
const summary = (r) => ({
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  bad: r.non2xx + r.errors + r.timeouts,
});

export async function indexerPhase({ outputs, engines, connections, duration, rounds, pages }) {
  const work = mkdtempSync(join(tmpdir(), 'ledger-node-inx-bench-'));
  chmodSync(work, 0o711); // the postgres user reaches its cluster below it
  const ours = join(work, 'ours');
  const running = [];
  const stopAll = async () => {
    for (const p of running.splice(0).reverse()) await p.stop();
  };
  try {
    const written = performance.now();
    const ledger = writeLedger(ours, outputs);
    console.log(`${ledger.outputs} outputs written in ${((performance.now() - written) / 1000).toFixed(1)} s`);
    for (const engine of engines) cpSync(ours, join(work, `theirs-${engine}`), { recursive: true });

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

    // Theirs: inx-indexer imports the ledger over ReadUnspentOutputs, one engine after the other.
    const theirs = [];
    for (const engine of engines)
      theirs.push(await importWith(engine, join(work, `theirs-${engine}`), work, ledger, running));

    // Queries: every target side by side.
    const ourNode = await startNodeProcess(ours, NODE_FLAGS, { timeoutMs: START_TIMEOUT_MS });
    running.push(ourNode);
    const targets = [{ name: 'built-in', base: ourNode.url }];
    for (const t of theirs)
      targets.push(
        { name: `${t.name} via proxy`, base: t.node.url, engine: t.engine, via: 'proxy' },
        { name: `${t.name} direct`, base: t.inxIndexer.url, engine: t.engine, via: 'direct' },
      );
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
    // The floor: the node's cheapest answer (`GET /health`, no index read at all) with the
    // same connections. A built-in query can be no faster than this over HTTP.
    const floor = [];
    for (let round = 0; round < rounds; round++) {
      const h = await cannon({
        url: ourNode.url,
        connections,
        duration,
        requests: [{ method: 'GET', path: '/health' }],
      });
      floor.push(summary(h));
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
          results[k][i].push(summary(r));
        }
      }
      loadAtQueries.push(load());
    }
    const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
    return {
      outputs: ledger.outputs,
      floor: median(floor),
      buildSeconds,
      rebuiltStart: rebuilt.seconds,
      plainStart: plain.seconds,
      loadAtBuild,
      loadAtQueries,
      ourIndexBytes: ourDisk.index,
      ourTableBytes: ourDisk.all,
      engines: theirs.map(({ node: _node, inxIndexer: _inx, ...t }) => t),
      targets: targets.map(({ name, engine, via }) => ({ name, engine, via })),
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
