// The ledger benchmark's load, shared by `bench:ledger` and `bench:events`: a child node
// (bin/ledger-node.js, minPowScore --pow, a milestone every second, temporary data
// directory), the genesis output fanned out into 128, 128 × 128, … and at last into
// ≥ `transactions` outputs, one pre-signed transfer per output in `chains` chains of
// blocks whose parents and nonces are set here (each block's parents are the previous two
// blocks of its chain, the first ones start from the node's tips, so every submission's
// parents are known), and their submission as bytes.
//
// A milestone approves 7 tips (D21); more chains than that are approved by the
// coordinator's checkpoints (docs/coordinator.md), up to 63 a milestone. The nonces are mined from fresh tips just before the run:
// a chain whose roots are more than 8 milestones old when it arrives is lazy and never
// confirmed (ledger.md §5).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { freePort } from './node-process.mjs';

const require = createRequire(import.meta.url);
export const core = require('../dist/index.js');

const FAN_OUT = 128;
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
export const GENESIS_OUTPUT_ID = '0x' + '00'.repeat(34);
export const SERIALIZER = 'application/vnd.ledger.serializer-v1';

// ---- keys and transfers ----

const keyOf = (seed) => {
  const publicKey = core.publicKey(seed);
  return { seed, publicKey, address: core.ed25519Address(publicKey) };
};
export const benchKey = keyOf('0x' + createHash('sha256').update('ledger-node bench key').digest('hex'));
export const genesisKey = keyOf(GENESIS_SEED);

const basicOutput = (address, amount) => ({
  type: 3,
  amount: amount.toString(),
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
});
const inputOf = (outputId) => {
  const b = Buffer.from(outputId.slice(2), 'hex');
  return {
    type: 0,
    transactionId: '0x' + b.subarray(0, 32).toString('hex'),
    transactionOutputIndex: b.readUInt16LE(32),
  };
};

/** One input (owned by `key`) to outputs of the bench key with the given amounts. */
export function transfer(networkId, input, key, amounts) {
  const outputs = amounts.map((a) => basicOutput(benchKey.address, a));
  const essence = {
    type: 1,
    networkId,
    inputs: [inputOf(input.outputId)],
    inputsCommitment: core.inputsCommitment([input.output]),
    outputs,
  };
  const signature = { type: 0, publicKey: key.publicKey, signature: '0x' + '00'.repeat(64) };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [{ type: 0, signature }] });
  const payload = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { ...signature, signature: core.sign(key.seed, hash) } }],
  };
  const transactionId = core.transactionId(payload);
  return {
    payload,
    transactionId,
    outputs: outputs.map((output, i) => ({ outputId: core.outputId(transactionId, i), output })),
  };
}

export function split(total, parts) {
  const each = total / BigInt(parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? total - each * BigInt(parts - 1) : each));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function pool(items, concurrency, fn) {
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

// ---- the node ----

/** A node in a child process with its own data directory, and HTTP helpers for it. */
export class BenchNode {
  /** `args`: more command-line flags for the node; `dataDir`: a fresh one unless given (removed on stop);
   * `port`: its HTTP port (a free one unless given); `env`: variables added to this process's for it. */
  static async start({
    pow,
    args: extra = [],
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-')),
    port,
    env,
  }) {
    port ??= await freePort();
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--min-pow-score',
      String(pow),
      '--milestone-interval',
      '1',
      '--log-level',
      'warn',
      ...extra,
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ];
    // BENCH_NODE_FLAGS: extra Node flags for the node's process (e.g. --cpu-prof to profile it);
    // BENCH_NODE_ARGS: more ledger-node flags (e.g. --log-level debug), BENCH_NODE_STDOUT=1
    // to see its log.
    const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const child = spawn(
      process.execPath,
      [...flags, fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url)), ...args],
      {
        stdio: ['ignore', process.env.BENCH_NODE_STDOUT ? 'inherit' : 'ignore', 'inherit'],
        env: env === undefined ? process.env : { ...process.env, ...env },
      },
    );
    const node = new BenchNode(child, dataDir, `http://127.0.0.1:${port}`, pow);
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}`);
      try {
        if ((await node.http('GET', '/api/core/v2/info')).status === 200) return node;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    throw new Error('node did not start within 10 s');
  }

  constructor(child, dataDir, base, pow) {
    this.child = child;
    this.dataDir = dataDir;
    this.base = base;
    this.pow = pow;
    this.agent = new Agent({ keepAlive: true, maxSockets: 64 });
  }

  http(method, path, body, contentType = 'application/json') {
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: body ? { 'Content-Type': contentType, 'Content-Length': body.length } : {},
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async getJson(path) {
    const { status, text } = await this.http('GET', path);
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${text}`);
    return JSON.parse(text);
  }

  async post(body, contentType) {
    const { status, text } = await this.http('POST', '/api/core/v2/blocks', body, contentType);
    if (status !== 201) throw new Error(`submit: ${status} ${text}`);
    return JSON.parse(text).blockId;
  }

  /** Submit transfers (the node selects parents and mines) and wait until all are included. */
  async fanOut(transfers, what) {
    await pool(transfers, 8, (t) => this.post(Buffer.from(JSON.stringify({ protocolVersion: 2, payload: t.payload }))));
    const pending = new Set(transfers.map((t) => t.transactionId));
    const deadline = Date.now() + 30_000;
    while (pending.size > 0) {
      if (Date.now() > deadline) throw new Error(`${what}: ${pending.size} transactions not included after 30 s`);
      await sleep(200);
      await pool([...pending], 8, async (id) => {
        if ((await this.http('GET', `/api/core/v2/transactions/${id}/included-block/metadata`)).status === 200)
          pending.delete(id);
      });
    }
  }

  /** Stop the process (a clean shutdown), keeping its data directory. */
  async halt() {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    await new Promise((r) => (this.child.exitCode !== null ? r() : this.child.once('exit', r)));
  }

  async stop() {
    await this.halt();
    this.agent.destroy();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

// ---- the load ----

async function mineInto(bytes, pow) {
  if (pow === 0) return;
  const { nonce } = await core.mine(bytes, { targetScore: pow, threads: 1 });
  bytes.writeBigUInt64LE(BigInt(nonce), bytes.length - 8);
}

/**
 * Fan out, sign one transfer per output and mine its block in `chains` chains. Returns the
 * chains (each entry: input, transactionId, payload, bytes, blockId) and how long signing
 * and mining took. `log` reports progress; `beforeMining`, when given, is awaited after the
 * signing and before the tips are taken (to start the load at a chosen milestone).
 */
export async function prepareLoad(node, { transactions, chains: chainCount, beforeMining }, log = () => {}) {
  const info = await node.getJson('/api/core/v2/info');
  const networkId = core.networkId(info.protocol.networkName);
  // 1. genesis → 128 outputs → 128 × 128 → … until the last level gives ≥ `transactions`
  // (a transaction has at most 128 outputs).
  const widths = [];
  for (let total = 1; ; total *= FAN_OUT) {
    if (total * FAN_OUT >= transactions) {
      widths.push(Math.ceil(transactions / total));
      break;
    }
    widths.push(FAN_OUT);
  }
  const genesis = {
    outputId: GENESIS_OUTPUT_ID,
    output: (await node.getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).output,
  };
  let level = [transfer(networkId, genesis, genesisKey, split(BigInt(info.protocol.tokenSupply), widths[0]))];
  await node.fanOut(level, 'fan-out 1');
  for (const [i, width] of widths.slice(1).entries()) {
    level = level
      .flatMap((t) => t.outputs)
      .map((o) => transfer(networkId, o, benchKey, split(BigInt(o.output.amount), width)));
    await node.fanOut(level, `fan-out ${i + 2}`);
  }
  const spendable = level.flatMap((t) => t.outputs).slice(0, transactions);
  log(`${spendable.length} spendable outputs`);

  // 2. One signed transfer per output, dealt to the chains; then, from fresh tips, the
  // blocks with parents and nonces. A chain must be submitted while its roots are young:
  // a block whose youngest cone root is more than 8 milestones old is lazy and no
  // milestone picks it (ledger.md §5), so mining is redone from new tips if it was slow.
  const signStart = performance.now();
  const chains = Array.from({ length: chainCount }, () => []);
  spendable.forEach((input, i) => {
    const t = transfer(networkId, input, benchKey, [BigInt(input.output.amount)]);
    chains[i % chainCount].push({ input: input.outputId, transactionId: t.transactionId, payload: t.payload });
  });
  const signSeconds = (performance.now() - signStart) / 1000;
  if (beforeMining) await beforeMining();
  let mineSeconds;
  for (let attempt = 1; ; attempt++) {
    const { tips } = await node.getJson('/api/core/v2/tips');
    const mineStart = performance.now();
    // Each chain is mined in order (a block's ID is its successors' parent); the chains in parallel.
    await pool(chains, chainCount, async (chain) => {
      for (let j = 0; j < chain.length; j++) {
        const parents = j === 0 ? tips : [chain[j - 1].blockId, j === 1 ? tips[0] : chain[j - 2].blockId].sort();
        const bytes = core.encodeBlock({ protocolVersion: 2, parents, payload: chain[j].payload, nonce: '0' });
        await mineInto(bytes, node.pow);
        chain[j].bytes = bytes;
        chain[j].blockId = core.blockId(bytes);
      }
    });
    mineSeconds = (performance.now() - mineStart) / 1000;
    if (mineSeconds < 6) break;
    if (attempt === 3)
      throw new Error(
        `mining ${spendable.length} blocks takes ${mineSeconds.toFixed(1)} s, longer than tips stay young (8 milestones): use fewer --transactions`,
      );
    log(`mining took ${mineSeconds.toFixed(1)} s, the tips are too old by now: again from new tips`);
  }
  return { chains, signSeconds, mineSeconds };
}

/**
 * Submit every chain's blocks in order, the chains concurrently. Each entry gets
 * `submittedAt` and `acknowledgedAt` (performance.now()); returns the first-submit and
 * last-201 times.
 */
export async function submitLoad(node, chains) {
  const submitStart = performance.now();
  await Promise.all(
    chains.map(async (chain) => {
      for (const t of chain) {
        t.submittedAt = performance.now();
        const id = await node.post(t.bytes, SERIALIZER);
        if (id !== t.blockId) throw new Error(`block ID ${id}, expected ${t.blockId}`);
        t.acknowledgedAt = performance.now();
      }
    }),
  );
  return { submitStart, submitEnd: performance.now() };
}

export const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
