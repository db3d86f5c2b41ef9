// Confirmed value transfers per second through one node: `npm run bench:ledger
// [-- --transactions 5120 --chains 7 --pow 1]`.
//
// Starts bin/ledger-node.js as a child process (minPowScore 1, a milestone every second,
// temporary data directory), fans the genesis output out into 128 and then into
// ≥ --transactions outputs, and pre-signs one transfer per output. Each transfer goes in a
// block whose parents and nonce are set here: the blocks form --chains independent chains
// (each block's parents are the previous two blocks of its chain, the first ones start
// from the node's tips), so every submission's parents are already known. The coordinator
// references up to 7 tips per milestone (D21), so 7 chains are all confirmed by every
// milestone. The nonces are mined from fresh tips just before the run: a chain whose roots
// are more than 8 milestones old when it arrives is lazy and never confirmed (ledger.md §5).
// Measured from the first submission: submitted blocks per second, confirmed transactions
// per second until the last one is included (seen in the milestones' utxo-changes, polled
// every 25 ms), and the submit → included latency. Prints figures, asserts nothing.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './measure.mjs';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const core = require('../dist/index.js');

const TRANSACTIONS = arg('transactions', 5120);
const CHAINS = arg('chains', 7);
const POW = arg('pow', 1);
const FIRST_FAN_OUT = 128;
const SECOND_FAN_OUT = Math.ceil(TRANSACTIONS / FIRST_FAN_OUT);
const RUN_LIMIT_MS = 115_000;
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
const GENESIS_OUTPUT_ID = '0x' + '00'.repeat(34);
const SERIALIZER = 'application/vnd.ledger.serializer-v1';
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

// ---- keys and transfers ----

const keyOf = (seed) => {
  const publicKey = core.publicKey(seed);
  return { seed, publicKey, address: core.ed25519Address(publicKey) };
};
const benchKey = keyOf('0x' + createHash('sha256').update('ledger-node bench key').digest('hex'));
const genesisKey = keyOf(GENESIS_SEED);

const basicOutput = (address, amount) => ({ type: 3, amount: amount.toString(), unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }] });
const inputOf = (outputId) => {
  const b = Buffer.from(outputId.slice(2), 'hex');
  return { type: 0, transactionId: '0x' + b.subarray(0, 32).toString('hex'), transactionOutputIndex: b.readUInt16LE(32) };
};

/** One input (owned by `key`) to outputs of the bench key with the given amounts. */
function transfer(networkId, input, key, amounts) {
  const outputs = amounts.map((a) => basicOutput(benchKey.address, a));
  const essence = { type: 1, networkId, inputs: [inputOf(input.outputId)], inputsCommitment: core.inputsCommitment([input.output]), outputs };
  const signature = { type: 0, publicKey: key.publicKey, signature: '0x' + '00'.repeat(64) };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [{ type: 0, signature }] });
  const payload = { type: 6, essence, unlocks: [{ type: 0, signature: { ...signature, signature: core.sign(key.seed, hash) } }] };
  const transactionId = core.transactionId(payload);
  return { payload, transactionId, outputs: outputs.map((output, i) => ({ outputId: core.outputId(transactionId, i), output })) };
}

function split(total, parts) {
  const each = total / BigInt(parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? total - each * BigInt(parts - 1) : each));
}

// ---- HTTP ----

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let base;

function http(method, path, body, contentType = 'application/json') {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent, headers: body ? { 'Content-Type': contentType, 'Content-Length': body.length } : {} }, (res) => {
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
async function post(body, contentType) {
  const { status, text } = await http('POST', '/api/core/v2/blocks', body, contentType);
  if (status !== 201) throw new Error(`submit: ${status} ${text}`);
  return JSON.parse(text).blockId;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** Submit transfers (the node selects parents and mines) and wait until all are included. */
async function fanOut(transfers, what) {
  await pool(transfers, 8, (t) => post(Buffer.from(JSON.stringify({ protocolVersion: 2, payload: t.payload }))));
  const pending = new Set(transfers.map((t) => t.transactionId));
  const deadline = Date.now() + 30_000;
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`${what}: ${pending.size} transactions not included after 30 s`);
    await sleep(200);
    await pool([...pending], 8, async (id) => {
      if ((await http('GET', `/api/core/v2/transactions/${id}/included-block/metadata`)).status === 200) pending.delete(id);
    });
  }
}

// ---- the node ----

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startNode(dataDir) {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', String(POW), '--milestone-interval', '1', '--log-level', 'warn'];
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url)), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}`);
    try {
      if ((await http('GET', '/api/core/v2/info')).status === 200) return child;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('node did not start within 10 s');
}

// ---- the run ----

async function mineInto(bytes) {
  if (POW === 0) return;
  const { nonce } = await core.mine(bytes, { targetScore: POW, threads: 1 });
  bytes.writeBigUInt64LE(BigInt(nonce), bytes.length - 8);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-'));
  const child = await startNode(dataDir);
  const limit = setTimeout(() => {
    console.error(`run time limit of ${RUN_LIMIT_MS / 1000} s reached`);
    child.kill('SIGKILL');
    process.exit(1);
  }, RUN_LIMIT_MS - (performance.now() - started));
  try {
    const info = await getJson('/api/core/v2/info');
    const networkId = core.networkId(info.protocol.networkName);
    console.log(`node up after ${elapsed()} (minPowScore ${POW}, milestone every 1 s, ${core.powInfo().engine} miner)`);

    // 1. genesis → 128 outputs → 128 × SECOND_FAN_OUT outputs.
    const genesis = { outputId: GENESIS_OUTPUT_ID, output: (await getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).output };
    const first = transfer(networkId, genesis, genesisKey, split(BigInt(info.protocol.tokenSupply), FIRST_FAN_OUT));
    await fanOut([first], 'first fan-out');
    const second = first.outputs.map((o) => transfer(networkId, o, benchKey, split(BigInt(o.output.amount), SECOND_FAN_OUT)));
    await fanOut(second, 'second fan-out');
    const spendable = second.flatMap((t) => t.outputs).slice(0, TRANSACTIONS);
    console.log(`${spendable.length} spendable outputs after ${elapsed()}`);

    // 2. One signed transfer per output, dealt to CHAINS chains; then, from fresh tips, the
    // blocks with parents and nonces. A chain must be submitted while its roots are young:
    // a block whose youngest cone root is more than 8 milestones old is lazy and no
    // milestone picks it (ledger.md §5), so mining is redone from new tips if it was slow.
    const signStart = performance.now();
    const chains = Array.from({ length: CHAINS }, () => []);
    spendable.forEach((input, i) => {
      const t = transfer(networkId, input, benchKey, [BigInt(input.output.amount)]);
      chains[i % CHAINS].push({ input: input.outputId, transactionId: t.transactionId, payload: t.payload });
    });
    const signSeconds = (performance.now() - signStart) / 1000;
    let mineSeconds;
    for (let attempt = 1; ; attempt++) {
      const { tips } = await getJson('/api/core/v2/tips');
      const mineStart = performance.now();
      // Each chain is mined in order (a block's ID is its successors' parent); the chains in parallel.
      await pool(chains, CHAINS, async (chain) => {
        for (let j = 0; j < chain.length; j++) {
          const parents = j === 0 ? tips : [chain[j - 1].blockId, j === 1 ? tips[0] : chain[j - 2].blockId].sort();
          const bytes = core.encodeBlock({ protocolVersion: 2, parents, payload: chain[j].payload, nonce: '0' });
          await mineInto(bytes);
          chain[j].bytes = bytes;
          chain[j].blockId = core.blockId(bytes);
        }
      });
      mineSeconds = (performance.now() - mineStart) / 1000;
      if (mineSeconds < 6) break;
      if (attempt === 3) throw new Error(`mining ${spendable.length} blocks takes ${mineSeconds.toFixed(1)} s, longer than tips stay young (8 milestones): use fewer --transactions`);
      console.log(`mining took ${mineSeconds.toFixed(1)} s, the tips are too old by now: again from new tips`);
    }
    const all = chains.flat();
    const byInput = new Map(all.map((t) => [t.input, t]));
    console.log(`${all.length} transfers signed in ${signSeconds.toFixed(1)} s, their blocks mined in ${mineSeconds.toFixed(1)} s (${Math.round(all.length / mineSeconds)}/s)`);

    // 3. Submit, and watch the milestones' utxo-changes for the spent inputs.
    let seenIndex = (await getJson('/api/core/v2/info')).status.latestMilestone.index;
    let included = 0;
    let lastIncludedAt = 0;
    let done = false;
    const milestonesSeen = [];
    const watcher = (async () => {
      while (!done) {
        const latest = (await getJson('/api/core/v2/info')).status.latestMilestone.index;
        for (let index = seenIndex + 1; index <= latest; index++) {
          const changes = await getJson(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
          const now = performance.now();
          let count = 0;
          for (const id of changes.consumedOutputs) {
            const t = byInput.get(id);
            if (t && t.includedAt === undefined) {
              t.includedAt = now;
              included++;
              count++;
              lastIncludedAt = now;
            }
          }
          milestonesSeen.push({ index, transactions: count });
        }
        seenIndex = latest;
        if (included === all.length) return;
        await sleep(25);
      }
    })();
    const submitStart = performance.now();
    await Promise.all(
      chains.map(async (chain) => {
        for (const t of chain) {
          t.submittedAt = performance.now();
          const id = await post(t.bytes, SERIALIZER);
          if (id !== t.blockId) throw new Error(`block ID ${id}, expected ${t.blockId}`);
          t.acknowledgedAt = performance.now();
        }
      }),
    );
    const submitEnd = performance.now();
    const deadline = Date.now() + Math.max(5_000, RUN_LIMIT_MS - (performance.now() - started) - 5_000);
    // Stop early when nothing more is confirmed for 10 s (lazy chains are never picked).
    while (included < all.length && Date.now() < deadline && performance.now() - Math.max(submitEnd, lastIncludedAt) < 10_000) await sleep(50);
    done = true;
    await watcher;

    if (included < all.length) {
      // Why not: the node's milestones and the state of each chain's first and last block.
      const { status } = await getJson('/api/core/v2/info');
      console.log(`latest milestone ${status.latestMilestone.index} at ${status.latestMilestone.timestamp} (now ${Math.floor(Date.now() / 1000)}), ${milestonesSeen.length} milestones seen during the run`);
      console.log(`tips: ${JSON.stringify((await getJson('/api/core/v2/tips')).tips)}`);
      for (const [c, chain] of chains.entries()) {
        for (const t of [chain[0], chain[chain.length - 1]]) {
          console.log(`chain ${c} ${t === chain[0] ? 'first' : 'last'} ${t.blockId}: ${(await http('GET', `/api/core/v2/blocks/${t.blockId}/metadata`)).text}`);
        }
      }
    }
    const latencies = all.filter((t) => t.includedAt !== undefined).map((t) => t.includedAt - t.submittedAt).sort((x, y) => x - y);
    const acks = all.map((t) => t.acknowledgedAt - t.submittedAt).sort((x, y) => x - y);
    const pct = (list, p) => (list.length === 0 ? NaN : list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]);
    const submitSeconds = (submitEnd - submitStart) / 1000;
    const confirmSeconds = (lastIncludedAt - submitStart) / 1000;
    const used = milestonesSeen.filter((m) => m.transactions > 0);
    console.log(`\n${all.length} transfers in ${CHAINS} chains, ${used.length} milestones with bench transactions (most: ${Math.max(0, ...used.map((m) => m.transactions))})\n`);
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| submitted blocks/s (first submit → last 201) | ${Math.round(all.length / submitSeconds)} |`);
    console.log(`| submit response p50 / p99 ms | ${pct(acks, 50).toFixed(1)} / ${pct(acks, 99).toFixed(1)} |`);
    console.log(`| included transactions | ${included} of ${all.length} |`);
    console.log(`| confirmed tx/s (first submit → last included) | ${included === all.length ? Math.round(included / confirmSeconds) : 'incomplete'} |`);
    console.log(`| latency submit → included p50 / p99 ms | ${Math.round(pct(latencies, 50))} / ${Math.round(pct(latencies, 99))} |`);
    console.log(`| whole run | ${elapsed()} |`);
  } finally {
    clearTimeout(limit);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
