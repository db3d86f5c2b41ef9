// The UTXO indexer at scale: `npm run bench:indexer [-- --outputs 1000000 --duration 5
// --connections 10 --rounds 3 --transactions 5120 --ledger-rounds 2]` (needs cargo, or
// INDEXER_LEDGER_BIN: the ledger is written by a Rust example, indexer-ledger.mjs;
// `--ledger-rounds 0` skips step 3).
//
// 1. `crates/ledger-store/examples/indexer_ledger.rs` writes a ledger of --outputs unspent
//    outputs straight into a fresh data directory through the store's own batch code (not
//    over HTTP): addresses with exactly 1, 10 and 1,000 outputs, 1,000 outputs with one tag,
//    1 % with native tokens, other kinds and conditions mixed in.
// 2. The node (bin/ledger-node.js, its own process) starts on it; autocannon drives from this
//    process, one run per query, alternating rounds, median round reported: the node's own
//    GET blocks/{id} as the reference, then address queries with 1, 10 and 1,000 matches,
//    the wallet's unlockableByAddress query, a tag, native tokens, and all outputs paged
//    through with cursors. For each: requests/s and client p50/p99 under --connections,
//    then the same query from one connection (no queueing): client p50 and the mean time
//    in the server (the node's request histogram, read before and after the run).
// 3. bench:ledger with the indexer off and on, alternating, --ledger-rounds times each:
//    confirmed transactions/s and the milestone commit time (means), with the ratio
//    (target ≥ 85 %).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLedger } from './indexer-ledger.mjs';
import { startNodeProcess } from './node-process.mjs';
import { arg } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../dist/index.js');
const { issueToken } = require('../dist/jwt-secret.js');

const OUTPUTS = arg('outputs', 1_000_000);
const DURATION = arg('duration', 5);
const CONNECTIONS = arg('connections', 10);
const ROUNDS = arg('rounds', 3);
const TRANSACTIONS = arg('transactions', 5120);
const LEDGER_ROUNDS = arg('ledger-rounds', 2);
const JWT_SECRET = 'ledger-node bench';
const BASE = '/api/indexer/v1/outputs';

async function startNode(dataDir) {
  return startNodeProcess(
    dataDir,
    ['--min-pow-score', '1', '--milestone-interval', '1', '--log-level', 'warn', '--jwt-secret', JWT_SECRET],
    { timeoutMs: 120_000 },
  );
}

async function json(url, path) {
  const res = await fetch(url + path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Mean seconds per request of each route so far (the node's request histogram). */
async function serverSeconds(url) {
  const token = await issueToken(JWT_SECRET);
  const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
  const totals = new Map();
  for (const m of text.matchAll(/^ledger_node_http_request_duration_seconds_(sum|count)\{route="([^"]+)"\} (\S+)$/gm)) {
    const t = totals.get(m[2]) ?? { sum: 0, count: 0 };
    t[m[1]] = Number(m[3]);
    totals.set(m[2], t);
  }
  return totals;
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, pipelining: 1, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(url, run) {
  const request = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: run.path() }) }];
  const loaded = await cannon({ url, requests: request });
  const before = (await serverSeconds(url)).get(run.route) ?? { sum: 0, count: 0 };
  const single = await cannon({ url, connections: 1, duration: Math.max(1, DURATION / 2), requests: request });
  const after = (await serverSeconds(url)).get(run.route) ?? { sum: 0, count: 0 };
  return {
    rps: loaded.requests.average,
    p50: loaded.latency.p50,
    p99: loaded.latency.p99,
    singleP50: single.latency.p50,
    serverMs: ((after.sum - before.sum) / Math.max(1, after.count - before.count)) * 1000,
    bad: loaded.non2xx + loaded.errors + loaded.timeouts + single.non2xx + single.errors + single.timeouts,
  };
}

/** Distinct tagged-data blocks for the GET blocks/{id} reference (nonces for score 1). */
async function storeBlocks(url, count) {
  const ids = [];
  const { tips } = await json(url, '/api/core/v2/tips');
  for (let i = 0; i < count; i++) {
    const block = {
      protocolVersion: 2,
      parents: tips,
      payload: { type: 5, tag: '0x6265', data: '0x' + i.toString(16).padStart(8, '0') },
      nonce: '0',
    };
    const { nonce } = await core.mine(block, { targetScore: 1, threads: 1 });
    const res = await fetch(`${url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...block, nonce }),
    });
    ids.push((await res.json()).blockId);
  }
  return ids;
}

function ledgerBench(indexer) {
  const result = spawnSync(
    process.execPath,
    [
      join(here, 'ledger.bench.mjs'),
      '--transactions',
      String(TRANSACTIONS),
      '--chains',
      '7',
      '--pow',
      '1',
      '--indexer',
      indexer ? '1' : '0',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out = result.stdout;
  const row = (label) => Number(new RegExp(`^\\| ${label}[^|]*\\| ([\\d.]+) \\|$`, 'm').exec(out)?.[1] ?? NaN);
  return {
    txs: row('confirmed tx/s'),
    commitMs: row('milestone commit ms'),
    confirmMs: row('milestone white flag ms'),
    out,
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-indexer-bench-'));
  let node;
  try {
    const ledger = writeLedger(dataDir, OUTPUTS);
    console.log(
      `${ledger.outputs} outputs written in ${ledger.seconds.toFixed(1)} s (${Math.round(ledger.outputs / ledger.seconds)}/s)`,
    );
    const startAt = Date.now();
    node = await startNode(dataDir);
    console.log(`node up on it after ${((Date.now() - startAt) / 1000).toFixed(1)} s`);
    const { url } = node;

    // What each query finds (and the cursors to page through everything).
    const count = async (path) => (await json(url, path)).items.length;
    const expect = async (what, path, wanted) => {
      const n = await count(path);
      if (n !== wanted) throw new Error(`${what}: ${n} items, expected ${wanted}`);
    };
    await expect('address with 1 output', `${BASE}/basic?address=${ledger.one}`, 1);
    await expect('address with 10 outputs', `${BASE}/basic?address=${ledger.ten}`, 10);
    await expect('address with 1,000 outputs', `${BASE}/basic?address=${ledger.thousand}`, 1000);
    await expect('tag', `${BASE}/basic?tag=${ledger.tag}`, 1000);
    const cursors = [];
    let page = await json(url, `${BASE}?pageSize=1000`);
    while (page.cursor !== undefined && cursors.length < 300) {
      cursors.push(page.cursor);
      page = await json(url, `${BASE}?cursor=${page.cursor}`);
    }
    const blockIds = await storeBlocks(url, 300);
    let b = 0;
    let c = 0;
    const runs = [
      {
        title: 'GET blocks/{id} (reference)',
        route: '/api/core/v2/blocks/:blockId',
        path: () => `/api/core/v2/blocks/${blockIds[b++ % blockIds.length]}`,
      },
      { title: 'basic?address=… (1 match)', route: `${BASE}/basic`, path: () => `${BASE}/basic?address=${ledger.one}` },
      {
        title: 'basic?address=… (10 matches)',
        route: `${BASE}/basic`,
        path: () => `${BASE}/basic?address=${ledger.ten}`,
      },
      {
        title: 'outputs?unlockableByAddress=… (10 matches)',
        route: BASE,
        path: () => `${BASE}?unlockableByAddress=${ledger.ten}`,
      },
      {
        title: 'basic?address=… (1,000 matches, one page)',
        route: `${BASE}/basic`,
        path: () => `${BASE}/basic?address=${ledger.thousand}`,
      },
      { title: 'basic?tag=… (1,000 matches)', route: `${BASE}/basic`, path: () => `${BASE}/basic?tag=${ledger.tag}` },
      {
        title: 'basic?hasNativeTokens=true (page of 1,000)',
        route: `${BASE}/basic`,
        path: () => `${BASE}/basic?hasNativeTokens=true`,
      },
      {
        title: `outputs?cursor=… (paging, ${cursors.length} pages of 1,000)`,
        route: BASE,
        path: () => `${BASE}?cursor=${cursors[c++ % cursors.length]}`,
      },
    ];
    for (const run of runs.slice(0, 3))
      await cannon({
        url,
        duration: 1,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: run.path() }) }],
      });
    const rounds = runs.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, run] of runs.entries()) rounds[k].push(await measure(url, run));
    }
    const results = rounds.map((list) => list.sort((x, y) => x.rps - y.rps)[Math.floor(list.length / 2)]);
    const reference = results[0].rps;
    console.log(
      `\n${ledger.outputs} unspent outputs; ${CONNECTIONS} connections, ${DURATION} s a run, median of ${ROUNDS} alternating rounds\n`,
    );
    console.log(
      `| query | req/s | vs GET blocks/{id} | p50 ms | p99 ms | 1 connection: p50 ms | 1 connection: server ms (mean) | non-2xx/errors |`,
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [k, r] of results.entries()) {
      console.log(
        `| ${runs[k].title} | ${Math.round(r.rps)} | ${((r.rps / reference) * 100).toFixed(0)} % | ${r.p50} | ${r.p99} | ${r.singleP50} | ${r.serverMs.toFixed(3)} | ${r.bad} |`,
      );
    }
  } finally {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (LEDGER_ROUNDS > 0) {
    console.log(
      `\nbench:ledger with ${TRANSACTIONS} transfers, indexer off and on, ${LEDGER_ROUNDS} alternating rounds…`,
    );
    const runs = { off: [], on: [] };
    for (let round = 0; round < LEDGER_ROUNDS; round++) {
      for (const indexer of [false, true]) {
        const r = ledgerBench(indexer);
        if (Number.isNaN(r.txs)) console.log(r.out);
        runs[indexer ? 'on' : 'off'].push(r);
      }
    }
    const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
    const row = (label, key, digits) => {
      const off = mean(runs.off, key);
      const on = mean(runs.on, key);
      console.log(`| ${label} | ${off.toFixed(digits)} | ${on.toFixed(digits)} | ${((on / off) * 100).toFixed(0)} % |`);
    };
    console.log(`\n| bench:ledger (mean of ${LEDGER_ROUNDS}) | indexer off | indexer on | on / off |`);
    console.log('|---|---|---|---|');
    row('confirmed tx/s', 'txs', 0);
    row('milestone commit ms (per milestone with transactions)', 'commitMs', 1);
    row('milestone white flag ms (per milestone with transactions)', 'confirmMs', 1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
