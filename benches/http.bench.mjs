// HTTP throughput of the node next to a bare Koa app on the same machine, same run.
// `npm run bench:http [-- --duration 5 --connections 50]`
// Starts a node in-process (minPowScore 1, temp data dir, request logs off), pre-builds
// blocks with parents and a valid nonce, then measures with autocannon:
//   bare Koa (one empty route) · GET blocks/{id} · GET included-block · POST blocks

import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const Koa = require('koa');
const Router = require('@koa/router');
const pino = require('pino');
const core = require('../dist/index.js');
const { loadConfig } = require('../dist/config/load.js');
const { startNode } = require('../dist/node.js');

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const duration = arg('duration', 5);
const connections = arg('connections', 50);
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';

function run(title, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, pipelining: 1, ...options }, (err, result) => {
      if (err) return reject(err);
      const bad = result.non2xx + result.errors;
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad });
    });
  });
}

async function bareKoa() {
  const app = new Koa();
  const router = new Router();
  router.get('/empty', (ctx) => {
    ctx.body = '{}';
  });
  app.use(router.routes());
  const server = createServer(app.callback());
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
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

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-'));
  const config = loadConfig(['--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', '1', '--milestone-interval', '1', '--log-level', 'warn'], {});
  const node = await startNode(config, { logger: pino({ level: 'warn' }) });
  const bare = await bareKoa();
  try {
    const txId = await spendGenesis(node.url);
    const { tips } = await (await fetch(`${node.url}/api/core/v2/tips`)).json();
    // Blocks for the submit run: distinct tagged data, parents given, nonce mined up front.
    const count = Math.max(20_000, 8_000 * duration);
    const bodies = [];
    for (let i = 0; i < count; i++) {
      const block = { protocolVersion: 2, parents: tips, payload: { type: 5, tag: '0x6265', data: '0x' + i.toString(16).padStart(8, '0') }, nonce: '0' };
      const bytes = core.encodeBlock(block);
      let nonce = 0n;
      while (core.powScore(bytes) < 1) bytes.writeBigUInt64LE(++nonce, bytes.length - 8);
      bodies.push(JSON.stringify({ ...block, nonce: nonce.toString() }));
    }
    const someBlock = JSON.parse(bodies[0]);
    const { blockId } = await (await fetch(`${node.url}/api/core/v2/blocks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: bodies[0] })).json();
    void someBlock;

    let next = 1;
    const results = [];
    results.push(await run('bare Koa, one empty route', { url: `${bare.url}/empty` }));
    results.push(await run('GET blocks/{id}', { url: `${node.url}/api/core/v2/blocks/${blockId}` }));
    results.push(await run('GET transactions/{id}/included-block', { url: `${node.url}/api/core/v2/transactions/${txId}/included-block` }));
    results.push(
      await run('POST blocks (JSON, parents + nonce)', {
        url: node.url,
        requests: [
          {
            method: 'POST',
            path: '/api/core/v2/blocks',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
          },
        ],
      }),
    );

    const base = results[0].rps;
    console.log(`\n${connections} connections, ${duration} s each\n`);
    console.log('| run | req/s | vs bare Koa | p50 ms | p99 ms | non-2xx/errors |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(`| ${r.title} | ${Math.round(r.rps)} | ${((r.rps / base) * 100).toFixed(0)} % | ${r.p50} | ${r.p99} | ${r.bad} |`);
    }
  } finally {
    await bare.close();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
