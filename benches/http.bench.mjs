// HTTP throughput of the node next to Hornet 2.0.1 (the reference node) and a bare Koa app
// on the same machine, in the same run.
// `npm run bench:http [-- --duration 5 --connections 32 --rounds 3 --storm-rate 50]`
// (`-- --storm-only` runs the second part alone, `-- --no-storm` the first alone, `-- --no-hornet` leaves Hornet out,
// `-- --node-args "--rest-workers 1"` passes flags to our node.)
//
// Every server runs in a process of its own and autocannon drives it from this process, so
// the load generator never shares an event loop with the server it measures. Routes:
//   GET info · GET tips · GET blocks/{id} (2000 stored blocks in turn) · GET their metadata
//   · GET transactions/{id}/included-block, and the same for an unknown transaction (a 404,
//   as a wallet polling for its transaction gets) · POST blocks with parents and a valid nonce
//   (minPowScore 1 on our node, 0 on Hornet's private tangle; parents are fresh tips taken
//   just before each POST run). Our node issues a milestone every 5 s, as Hornet's coordinator does.
// Hornet runs when it is built (benches/hornet.mjs says where it looks; skipped with a note
// otherwise), started with the interop scripts' coordinator; both servers take the same
// routes in turn (which goes first alternates by round) and the table prints each route's
// median round and the ratio ours / Hornet, with the CPU cores each server used.
// Second part, a mining storm (issue 10): a node at minPowScore 1500 takes blocks that
// carry their nonce at a fixed rate (`--storm-rate` per second, 10 connections), once
// alone and once while 8 clients keep asking it to mine 32 kB blocks; the latencies of the
// two runs are printed side by side (target: p99 within 2× of the run without miners).
// The nodes are the real one (bin/ledger-node.js, RocksDB in a temporary data dir, request
// logs off).

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, cpuSeconds } from './measure.mjs';
import { HORNET_WALLET_SEED, hornetUnavailable, startHornet } from './hornet.mjs';
import { freePort } from './node-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../dist/index.js');
const { issueToken } = require('../dist/jwt-secret.js');

const duration = arg('duration', 5);
const connections = arg('connections', 32);
const ROUNDS = arg('rounds', 3);
const STORM_RATE = arg('storm-rate', 50);
const STORM_MINERS = 8;
const STORM_ONLY = process.argv.includes('--storm-only');
const NO_STORM = process.argv.includes('--no-storm');
const HORNET = !process.argv.includes('--no-hornet');
const NODE_ARGS = (() => {
  const at = process.argv.indexOf('--node-args');
  return at > 0 ? process.argv[at + 1].split(' ').filter(Boolean) : [];
})();
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';

/** One autocannon run; `expectStatus` (default: any 2xx) is the status every answer must have. */
function run(title, { expectStatus, ...options }) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, pipelining: 1, ...options }, (err, result) => {
      if (err) return reject(err);
      const unexpected =
        expectStatus === undefined
          ? result.non2xx
          : Object.entries(result.statusCodeStats).reduce(
              (n, [status, { count }]) => n + (Number(status) === expectStatus ? 0 : count),
              0,
            );
      const bad = unexpected + result.errors + result.timeouts;
      if (bad > 0)
        console.error(
          `${title}: ${bad} failed (status counts ${JSON.stringify(result.statusCodeStats)}, errors ${result.errors}, timeouts ${result.timeouts})`,
        );
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad });
    });
  });
}

/** Start a server process and wait until `probe` answers 200. */
async function serverProcess(args, probe) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(probe)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const stop = () =>
    new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  return { stop, pid: child.pid };
}

/** A signed transfer of a whole genesis output to a fresh address, submitted to `url`; its transaction ID once included. */
async function spendGenesis(url, seed, genesisId) {
  const genesis = await (await fetch(`${url}/api/core/v2/outputs/${genesisId}`)).json();
  const info = await (await fetch(`${url}/api/core/v2/info`)).json();
  const raw = Buffer.from(genesisId.slice(2), 'hex');
  const essence = {
    type: 1,
    networkId: core.networkId(info.protocol.networkName),
    inputs: [
      {
        type: 0,
        transactionId: '0x' + raw.subarray(0, 32).toString('hex'),
        transactionOutputIndex: raw.readUInt16LE(32),
      },
    ],
    inputsCommitment: core.inputsCommitment([genesis.output]),
    outputs: [
      {
        type: 3,
        amount: genesis.output.amount,
        unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: '0x' + '42'.repeat(32) } }],
      },
    ],
  };
  const signature = { type: 0, publicKey: core.publicKey(seed), signature: '0x' + '00'.repeat(64) };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [{ type: 0, signature }] });
  const payload = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { ...signature, signature: core.sign(seed, hash) } }],
  };
  const res = await fetch(`${url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ protocolVersion: 2, payload }),
  });
  if (res.status !== 201) throw new Error(`${url}: the genesis spend was refused: ${res.status} ${await res.text()}`);
  const txId = core.transactionId(payload);
  for (let i = 0; i < 300; i++) {
    if ((await fetch(`${url}/api/core/v2/transactions/${txId}/included-block`)).status === 200) return txId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}: the genesis spend was not included`);
}

/**
 * Distinct tagged-data blocks on the given parents, as JSON with a nonce that reaches
 * `targetScore`: for the score 1 of the throughput runs, the first nonce that scores (a
 * few hundred scorings, well under a millisecond); for higher scores, mined natively (64
 * jobs at a time; a mining job costs milliseconds even when the score is tiny).
 */
async function submitBodies(parents, count, targetScore = 1, salt = 0) {
  const bodies = [];
  const blockOf = (i) => ({
    protocolVersion: 2,
    parents,
    payload: {
      type: 5,
      tag: '0x6265',
      data: '0x' + salt.toString(16).padStart(8, '0') + i.toString(16).padStart(8, '0'),
    },
    nonce: '0',
  });
  if (targetScore <= 10) {
    for (let i = 0; i < count; i++) {
      const block = blockOf(i);
      const bytes = core.encodeBlock(block);
      let nonce = 1n;
      for (; ; nonce++) {
        bytes.writeBigUInt64LE(nonce, bytes.length - 8);
        if (core.powScore(bytes) >= targetScore) break;
      }
      bodies.push(JSON.stringify({ ...block, nonce: nonce.toString() }));
    }
    return bodies;
  }
  for (let start = 0; start < count; start += 64) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + 64); i++) {
      const block = blockOf(i);
      batch.push(
        core.mine(block, { targetScore, threads: 1 }).then(({ nonce }) => JSON.stringify({ ...block, nonce })),
      );
    }
    bodies.push(...(await Promise.all(batch)));
  }
  return bodies;
}

async function main() {
  if (!STORM_ONLY) await throughput();
  if (!NO_STORM) await miningStorm();
}

/**
 * A server under test with stored blocks to look up and a transaction to ask for: our node
 * (genesis of the dev defaults) or Hornet (its private tangle's wallet output).
 */
async function prepareTarget(name, url, pid, seed, genesisId) {
  const txId = await spendGenesis(url, seed, genesisId);
  const { tips } = await (await fetch(`${url}/api/core/v2/tips`)).json();
  const lookupIds = [];
  for (const body of await submitBodies(tips, 2000, 1, 0xffff)) {
    const res = await fetch(`${url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    lookupIds.push((await res.json()).blockId);
  }
  const target = { name, url, pid, txId, lookupIds, bodies: [], next: 0, lookup: 0, salt: 0 };
  return target;
}

/**
 * Fresh POST bodies on the server's current tips, just before its POST run: Hornet refuses
 * blocks whose parents fell below max depth (15 milestones).
 */
async function refreshBodies(target) {
  const { tips } = await (await fetch(`${target.url}/api/core/v2/tips`)).json();
  target.bodies = await submitBodies(tips, 6_000 * duration, 1, ++target.salt);
  target.next = 0;
}

function routes(target) {
  const cycle = () => target.lookupIds[target.lookup++ % target.lookupIds.length];
  return [
    ['GET info', { url: `${target.url}/api/core/v2/info` }],
    ['GET tips', { url: `${target.url}/api/core/v2/tips` }],
    [
      'GET blocks/{id}',
      {
        url: target.url,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/core/v2/blocks/${cycle()}` }) }],
      },
    ],
    [
      'GET blocks/{id}/metadata',
      {
        url: target.url,
        requests: [
          { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/core/v2/blocks/${cycle()}/metadata` }) },
        ],
      },
    ],
    [
      'GET transactions/{id}/included-block',
      { url: `${target.url}/api/core/v2/transactions/${target.txId}/included-block` },
    ],
    // A wallet polling for a transaction that is not included yet: every answer a 404.
    [
      'GET included-block, unknown transaction (404)',
      { url: `${target.url}/api/core/v2/transactions/0x${'cd'.repeat(32)}/included-block`, expectStatus: 404 },
    ],
    [
      'POST blocks (JSON, parents + nonce)',
      {
        url: target.url,
        requests: [
          {
            method: 'POST',
            path: '/api/core/v2/blocks',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: target.bodies[target.next++ % target.bodies.length] }),
          },
        ],
      },
    ],
  ];
}

async function measured(target, title, options) {
  const before = cpuSeconds(target.pid);
  const result = await run(title, options);
  return { ...result, cores: (cpuSeconds(target.pid) - before) / duration };
}

async function throughput() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-'));
  const nodePort = await freePort();
  const barePort = await freePort();
  const url = `http://127.0.0.1:${nodePort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  // A milestone every 5 s, as Hornet's coordinator issues them here.
  const nodeArgs = [
    join(here, '../bin/ledger-node.js'),
    '--port',
    String(nodePort),
    '--bind',
    '127.0.0.1',
    '--data-dir',
    dataDir,
    '--min-pow-score',
    '1',
    '--milestone-interval',
    '5',
    '--log-level',
    'warn',
    ...NODE_ARGS,
  ];
  const node = await serverProcess(nodeArgs, `${url}/api/routes`);
  const bare = await serverProcess([join(here, 'bare-koa.mjs'), String(barePort)], `${bareUrl}/empty`);
  const noHornet = HORNET ? hornetUnavailable() : 'left out (--no-hornet)';
  let hornet;
  try {
    if (noHornet === undefined) {
      console.error('starting Hornet 2.0.1 with its coordinator …');
      hornet = await startHornet();
    }
    const targets = [await prepareTarget('ledger-node', url, node.pid, GENESIS_SEED, '0x' + '00'.repeat(34))];
    if (hornet)
      targets.push(await prepareTarget('Hornet', hornet.url, hornet.pid, HORNET_WALLET_SEED, '0x02' + '00'.repeat(33)));
    const titles = routes(targets[0]).map(([title]) => title);
    const bareRun = { url: `${bareUrl}/empty` };

    // This machine's speed drifts from second to second: warm every server up, then
    // alternate the servers route by route and report each one's median round.
    await run('warm-up', { ...bareRun, duration: 2 });
    for (const target of targets)
      for (const [, options] of routes(target).slice(0, 5)) await run('warm-up', { ...options, duration: 2 });
    const bareRounds = [];
    const rounds = targets.map(() => titles.map(() => []));
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`round ${round + 1} of ${ROUNDS} …`);
      bareRounds.push(await run('bare Koa, one empty route', bareRun));
      for (const [k, title] of titles.entries()) {
        // Alternate which server goes first, so neither always runs right after the other's load.
        const order = round % 2 === 0 ? targets.entries() : [...targets.entries()].reverse();
        for (const [t, target] of order) {
          if (title.startsWith('POST')) await refreshBodies(target);
          rounds[t][k].push(await measured(target, title, routes(target)[k][1]));
        }
      }
    }
    const median = (list) => list.sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
    const bareResult = median(bareRounds);
    const results = rounds.map((perRoute) => perRoute.map(median));

    console.log(
      `\n${connections} connections, ${duration} s a run, median of ${ROUNDS} alternating rounds; every server in its own process; cores = CPU seconds the server used per second of the run`,
    );
    console.log(`bare Koa (one empty route, one process): ${Math.round(bareResult.rps)} req/s`);
    if (noHornet !== undefined) console.log(`Hornet: not measured: ${noHornet}`);
    console.log('');
    if (hornet) {
      // On a shared machine neither server may get its cores: requests per CPU-second
      // (req/s ÷ cores used) compares what each does with the CPU it got.
      console.log(
        '| route | ledger-node req/s | Hornet req/s | ratio | ledger-node p50 / p99 ms | Hornet p50 / p99 ms | cores ours / Hornet | req per CPU-s ours / Hornet (ratio) | non-2xx/errors ours / Hornet |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|');
      for (const [k, title] of titles.entries()) {
        const [a, b] = [results[0][k], results[1][k]];
        const [ea, eb] = [a.rps / a.cores, b.rps / b.cores];
        console.log(
          `| ${title} | ${Math.round(a.rps)} | ${Math.round(b.rps)} | ${(a.rps / b.rps).toFixed(2)}× | ${a.p50} / ${a.p99} | ${b.p50} / ${b.p99} | ${a.cores.toFixed(2)} / ${b.cores.toFixed(2)} | ${Math.round(ea)} / ${Math.round(eb)} (${(ea / eb).toFixed(2)}×) | ${a.bad} / ${b.bad} |`,
        );
      }
    } else {
      console.log('| route | req/s | vs bare Koa | p50 ms | p99 ms | cores | non-2xx/errors |');
      console.log('|---|---|---|---|---|---|---|');
      for (const [k, title] of titles.entries()) {
        const r = results[0][k];
        console.log(
          `| ${title} | ${Math.round(r.rps)} | ${((r.rps / bareResult.rps) * 100).toFixed(0)} % | ${r.p50} | ${r.p99} | ${r.cores.toFixed(2)} | ${r.bad} |`,
        );
      }
    }
  } finally {
    await hornet?.stop();
    await bare.stop();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Clients that keep asking the node to mine 32 kB blocks, each sending the next as soon as one is answered. */
function miners(url, count) {
  const controller = new AbortController();
  const answers = {};
  let stopped = false;
  const loops = Array.from({ length: count }, async (_, k) => {
    for (let n = 0; !stopped; n++) {
      const body = JSON.stringify({
        protocolVersion: 2,
        payload: {
          type: 5,
          tag: '0x6d696e65',
          data: '0x' + Buffer.from(`miner ${k} block ${n} `.padEnd(32_000, '.')).toString('hex'),
        },
      });
      try {
        const res = await fetch(`${url}/api/core/v2/blocks`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          signal: controller.signal,
        });
        await res.arrayBuffer();
        answers[res.status] = (answers[res.status] ?? 0) + 1;
      } catch {
        // aborted when the run ends
      }
    }
  });
  return {
    answers,
    async stop() {
      stopped = true;
      controller.abort();
      await Promise.all(loops);
    },
  };
}

/** The node's mining pool as its metrics show it (jobs queued and running). */
async function miningPool(url, dataDir) {
  const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
  const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
  const gauge = (state) =>
    Number(new RegExp(`^ledger_node_pow_jobs\\{state="${state}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { running: gauge('running'), queued: gauge('queued') };
}

async function miningStorm() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const node = await serverProcess(
    [
      join(here, '../bin/ledger-node.js'),
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--min-pow-score',
      '1500',
      '--milestone-interval',
      '1',
      '--log-level',
      'warn',
    ],
    `${url}/api/routes`,
  );
  try {
    const { tips } = await (await fetch(`${url}/api/core/v2/tips`)).json();
    const WARM_UP = 2;
    const count = Math.ceil(STORM_RATE * (duration * 2 * ROUNDS + WARM_UP) * 1.2);
    console.error(`mining ${count} blocks at minPowScore 1500 for the mining-storm runs …`);
    const bodies = await submitBodies(tips, count, 1500);
    let next = 0;
    const submissions = {
      connections: 10,
      overallRate: STORM_RATE,
      requests: [
        {
          method: 'POST',
          path: '/api/core/v2/blocks',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        },
      ],
    };
    await run('warm-up', { url, ...submissions, duration: WARM_UP });
    const quiet = [];
    const storm = [];
    const minerAnswers = {};
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(await run('POST blocks with a nonce, no miners', { url, ...submissions }));
      const mining = miners(url, STORM_MINERS);
      await new Promise((r) => setTimeout(r, 1000)); // the miners' requests reach the pool
      const before = await miningPool(url, dataDir);
      storm.push(await run(`… while ${STORM_MINERS} clients have 32 kB blocks mined`, { url, ...submissions }));
      const after = await miningPool(url, dataDir);
      console.error(
        `round ${round + 1}: mining pool before the storm run ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
      );
      await mining.stop();
      for (const [status, n] of Object.entries(mining.answers)) minerAnswers[status] = (minerAnswers[status] ?? 0) + n;
    }
    const byP99 = (list) => list.sort((a, b) => a.p99 - b.p99)[Math.floor(list.length / 2)];
    const [a, b] = [byP99(quiet), byP99(storm)];
    console.log(
      `\nMining storm: minPowScore 1500, ${STORM_RATE} submissions/s with a nonce over 10 connections, ${duration} s a run, median of ${ROUNDS} alternating rounds\n`,
    );
    console.log('| run | req/s | p50 ms | p99 ms | p99 vs no miners | non-2xx/errors |');
    console.log('|---|---|---|---|---|---|');
    for (const r of [a, b])
      console.log(
        `| ${r.title} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.p99 / a.p99).toFixed(2)}× | ${r.bad} |`,
      );
    console.log(`\nThe miners' answers (HTTP status: count): ${JSON.stringify(minerAnswers)}`);
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
