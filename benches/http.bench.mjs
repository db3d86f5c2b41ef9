// HTTP throughput of the node next to a bare Koa app on the same machine, in the same run.
// `npm run bench:http [-- --duration 5 --connections 50 --rounds 3]`
//
// Every server runs in a process of its own and autocannon drives it from this process, so
// the load generator never shares an event loop with the server it measures:
//   bare Koa (one empty route, `bare-koa.mjs`) · GET blocks/{id} · GET included-block
//   · POST blocks with parents and a valid nonce (minPowScore 1, so nonces are cheap).
// The node is the real one (bin/ledger-node.js, RocksDB in a temporary data dir, request
// logs off).

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../dist/index.js');

const duration = arg('duration', 5);
const connections = arg('connections', 50);
const ROUNDS = arg('rounds', 3);
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';

function run(title, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, pipelining: 1, ...options }, (err, result) => {
      if (err) return reject(err);
      const bad = result.non2xx + result.errors + result.timeouts;
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad });
    });
  });
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
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
  const stop = () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  return { stop };
}

async function spendGenesis(url) {
  const genesisId = '0x' + '00'.repeat(34);
  const genesis = await (await fetch(`${url}/api/core/v2/outputs/${genesisId}`)).json();
  const info = await (await fetch(`${url}/api/core/v2/info`)).json();
  const essence = {
    type: 1,
    networkId: core.networkId(info.protocol.networkName),
    inputs: [{ type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 0 }],
    inputsCommitment: core.inputsCommitment([genesis.output]),
    outputs: [{ type: 3, amount: info.protocol.tokenSupply, unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: '0x' + '42'.repeat(32) } }] }],
  };
  const signature = { type: 0, publicKey: core.publicKey(GENESIS_SEED), signature: '0x' + '00'.repeat(64) };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [{ type: 0, signature }] });
  const payload = { type: 6, essence, unlocks: [{ type: 0, signature: { ...signature, signature: core.sign(GENESIS_SEED, hash) } }] };
  await fetch(`${url}/api/core/v2/blocks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ protocolVersion: 2, payload }) });
  const txId = core.transactionId(payload);
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${url}/api/core/v2/transactions/${txId}/included-block`)).status === 200) return txId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the genesis spend was not included');
}

/** Distinct tagged-data blocks on the given parents, nonces mined natively (64 at a time). */
async function submitBodies(parents, count) {
  const bodies = [];
  for (let start = 0; start < count; start += 64) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + 64); i++) {
      const block = { protocolVersion: 2, parents, payload: { type: 5, tag: '0x6265', data: '0x' + i.toString(16).padStart(8, '0') }, nonce: '0' };
      batch.push(core.mine(block, { targetScore: 1, threads: 1 }).then(({ nonce }) => JSON.stringify({ ...block, nonce })));
    }
    bodies.push(...(await Promise.all(batch)));
  }
  return bodies;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-'));
  const nodePort = await freePort();
  const barePort = await freePort();
  const url = `http://127.0.0.1:${nodePort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const node = await serverProcess(
    [join(here, '../bin/ledger-node.js'), '--port', String(nodePort), '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', '1', '--milestone-interval', '1', '--log-level', 'warn'],
    `${url}/api/routes`,
  );
  const bare = await serverProcess([join(here, 'bare-koa.mjs'), String(barePort)], `${bareUrl}/empty`);
  try {
    const txId = await spendGenesis(url);
    const { tips } = await (await fetch(`${url}/api/core/v2/tips`)).json();
    const bodies = await submitBodies(tips, 2000 + Math.max(20_000, 8_000 * duration * ROUNDS));
    const { blockId } = await (await fetch(`${url}/api/core/v2/blocks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: bodies[0] })).json();

    // Lookups cycle over many stored blocks rather than one.
    const lookupIds = [blockId];
    for (const body of bodies.slice(1, 2000)) {
      const res = await fetch(`${url}/api/core/v2/blocks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      lookupIds.push((await res.json()).blockId);
    }
    let next = 2000;
    let lookup = 0;
    const runs = [
      ['bare Koa, one empty route', { url: `${bareUrl}/empty` }],
      ['GET blocks/{id}', { url, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/core/v2/blocks/${lookupIds[lookup++ % lookupIds.length]}` }) }] }],
      ['GET transactions/{id}/included-block', { url: `${url}/api/core/v2/transactions/${txId}/included-block` }],
      [
        'POST blocks (JSON, parents + nonce)',
        { url, requests: [{ method: 'POST', path: '/api/core/v2/blocks', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }] },
      ],
    ];
    // This machine's speed drifts from second to second: warm every server up, then
    // alternate the runs and report each one's median round.
    for (const [, options] of runs.slice(0, 3)) await run('warm-up', { ...options, duration: 2 });
    const rounds = runs.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, [title, options]] of runs.entries()) rounds[k].push(await run(title, options));
    }
    const results = rounds.map((list) => list.sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]);

    const base = results[0].rps;
    console.log(`\n${connections} connections, ${duration} s a run, median of ${ROUNDS} alternating rounds; servers in their own processes\n`);
    console.log('| run | req/s | vs bare Koa | p50 ms | p99 ms | non-2xx/errors |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(`| ${r.title} | ${Math.round(r.rps)} | ${((r.rps / base) * 100).toFixed(0)} % | ${r.p50} | ${r.p99} | ${r.bad} |`);
    }
  } finally {
    await bare.stop();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
