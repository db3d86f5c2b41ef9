// `ledger-node bench node [--seconds <n>] [--clients <n>]`: how fast this machine runs a
// whole node. Starts bin/ledger-node.js on a temporary data directory (minPowScore 1, a
// milestone every second, a genesis key made for the run, request logs off), drives it
// through its HTTP API for --seconds per load, prints one Markdown table row per load, and
// removes the directory. Loads, one after the other, --clients concurrent clients each:
//   1. tagged-data blocks that carry their parents (the node's tips) and a nonce mined here;
//   2. tagged-data blocks without parents and nonce (the node selects tips and mines);
//   3. value transfers (one signed input, one output; the node fills parents and nonce),
//      watched until a milestone includes them: confirmed transactions per second (first
//      submission → last inclusion) and the latency from submission to inclusion.
// minPowScore 1 keeps proof of work out of the figures (`ledger-node bench pow` measures it).

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { encodeBlock } from '../core/codec';
import { ed25519Address, publicKey, sign } from '../core/crypto';
import { essenceHash, inputsCommitment, networkId, outputId, transactionId } from '../core/ids';
import { mine } from '../core/pow';
import { withProgress } from '../progress';

const BIN = join(__dirname, '..', '..', 'bin', 'ledger-node.js');
const SERIALIZER = 'application/vnd.ledger.serializer-v1';
/** Outputs per fan-out transaction (the most a transaction may have). */
const FAN_OUT = 128;
/** How long transfers may take to be included after the last submission. */
const INCLUSION_WAIT_MS = 15_000;

interface Options {
  seconds: number;
  clients: number;
}

interface Row {
  load: string;
  submitted: number;
  perSecond: number;
  submitMs: number[];
  confirmedPerSecond?: number;
  includedMs?: number[];
  included?: number;
}

function parseOptions(args: string[]): Options | undefined {
  const options: Options = { seconds: 10, clients: 16 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    const n = Number(value);
    const key = flag === '--seconds' ? 'seconds' : flag === '--clients' ? 'clients' : undefined;
    if (key === undefined || !/^\d+$/.test(value ?? '') || n < 1 || n > (key === 'seconds' ? 600 : 256)) {
      process.stderr.write(
        `ledger-node bench node: expected [--seconds <1..600>] [--clients <1..256>], got '${args.slice(i).join(' ')}'\n`,
      );
      process.exitCode = 2;
      return undefined;
    }
    options[key] = n;
  }
  return options;
}

export async function benchNode(args: string[]): Promise<void> {
  const options = parseOptions(args);
  if (options === undefined) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-node-'));
  const seed = '0x' + randomBytes(32).toString('hex');
  let child: ChildProcess | undefined;
  try {
    const started = await withProgress('starting a node on a temporary data directory', () =>
      startChild(dataDir, seed),
    );
    child = started.child;
    const api = new Api(started.url);
    const info = await api.json<Info>('/api/core/v2/info');
    console.log(
      `node ${info.version} on ${started.url}: minPowScore 1, a milestone every second, ${options.clients} clients, ${options.seconds} s a load`,
    );
    console.log('');
    const rows: Row[] = [];
    const step = <T>(what: string, run: () => Promise<T>): Promise<T> =>
      withProgress(what, run).catch((err: Error) => {
        throw new Error(`${what}: ${err.message}`);
      });
    rows.push(await step('tagged data with parents and nonce', () => taggedWithNonce(api, options)));
    rows.push(await step('tagged data, the node selects parents and mines', () => taggedBare(api, options)));
    const wallet = await step('fanning the genesis output out', () => fanOut(api, info, seed, options));
    rows.push(await step('value transfers', () => transfers(api, wallet, options)));
    printTable(rows);
  } finally {
    if (child !== undefined) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the node ----

/** A port that was free a moment ago (the node binds it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Run the node and wait until it answers. */
async function startChild(dataDir: string, seed: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const address = ed25519Address(publicKey(seed));
  const args = [
    BIN,
    '--data-dir',
    dataDir,
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--min-pow-score',
    '1',
    '--milestone-interval',
    '1',
    '--genesis-address',
    address,
    '--log-level',
    'warn',
    '--no-dashboard',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the node exited with ${child.exitCode ?? child.signalCode}: ${stderr.trim()}`);
    try {
      if ((await fetch(`${url}/api/core/v2/info`)).status === 200) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the node did not answer within 60 s: ${stderr.trim()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

class Api {
  constructor(readonly url: string) {}

  /** GET `path`; its JSON body, of the shape the caller names (the REST API's, not checked here). */
  async json<T>(path: string): Promise<T> {
    const res = await fetch(this.url + path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<T>;
  }

  /** Submit a block (JSON text or bytes); its ID. */
  async submit(body: string | Buffer): Promise<string> {
    const res = await fetch(`${this.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': typeof body === 'string' ? 'application/json' : SERIALIZER },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`submit: ${res.status} ${text}`);
    return (JSON.parse(text) as { blockId: string }).blockId;
  }
}

// ---- loads ----

/**
 * Run `clients` loops of `step` for `seconds` (a loop ends early when its step returns
 * false: nothing left to submit); each step's duration is kept.
 */
async function timed(
  options: Options,
  // biome-ignore lint/suspicious/noConfusingVoidType: a step without a return (Promise<void>) goes on; only false ends it.
  step: (client: number, n: number) => Promise<boolean | void>,
): Promise<{ count: number; seconds: number; ms: number[] }> {
  const ms: number[] = [];
  const start = performance.now();
  const end = start + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, client) => {
      for (let n = 0; performance.now() < end; n++) {
        const t = performance.now();
        if ((await step(client, n)) === false) return;
        ms.push(performance.now() - t);
      }
    }),
  );
  return { count: ms.length, seconds: (performance.now() - start) / 1000, ms };
}

/**
 * Mine the block's nonce as a client library does, on the library's native mining pool (one
 * thread a job, so the clients' jobs run side by side off this event loop), and write it into
 * the block's last 8 bytes. Scoring nonce after nonce here took this benchmark's one event
 * loop about 1.7 ms a block at score 1, which bounded the row at about 580 blocks/s.
 */
async function mineNonce(bytes: Buffer, targetScore: number): Promise<void> {
  const { nonce } = await mine(bytes, { targetScore, threads: 1 });
  bytes.writeBigUInt64LE(BigInt(nonce), bytes.length - 8);
}

const tagged = (client: number, n: number, kind: string) => ({
  type: 5,
  tag: '0x' + Buffer.from(`bench ${kind}`).toString('hex'),
  data: '0x' + Buffer.from(`client ${client} block ${n}`).toString('hex'),
});

async function taggedWithNonce(api: Api, options: Options): Promise<Row> {
  // Tips renewed every 100 ms, as a busy client library would.
  let tips = (await api.json<{ tips: string[] }>('/api/core/v2/tips')).tips;
  let renewing = true;
  const renewal = (async () => {
    while (renewing) {
      await sleep(100);
      tips = (await api.json<{ tips: string[] }>('/api/core/v2/tips')).tips;
    }
  })();
  try {
    const run = await timed(options, async (client, n) => {
      const bytes = encodeBlock({ protocolVersion: 2, parents: tips, payload: tagged(client, n, 'nonce'), nonce: '0' });
      await mineNonce(bytes, 1);
      await api.submit(bytes);
    });
    return {
      load: 'tagged data, parents and nonce from the client (bytes)',
      submitted: run.count,
      perSecond: run.count / run.seconds,
      submitMs: run.ms,
    };
  } finally {
    renewing = false;
    await renewal;
  }
}

async function taggedBare(api: Api, options: Options): Promise<Row> {
  const run = await timed(options, (client, n) =>
    api.submit(JSON.stringify({ protocolVersion: 2, payload: tagged(client, n, 'bare') })).then(() => {}),
  );
  return {
    load: 'tagged data, the node selects parents and mines (JSON)',
    submitted: run.count,
    perSecond: run.count / run.seconds,
    submitMs: run.ms,
  };
}

/** What this benchmark reads of GET /api/core/v2/info. */
interface Info {
  version: string;
  protocol: { networkName: string };
  status: { latestMilestone: { index: number } };
}

interface Spendable {
  outputId: string;
  output: { type: 3; amount: string; unlockConditions: unknown[] };
}

interface Wallet {
  seed: string;
  address: string;
  networkId: string;
  outputs: Spendable[];
}

const basicOutput = (address: string, amount: bigint) => ({
  type: 3 as const,
  amount: amount.toString(),
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
});

/** One input of `seed`'s address spent into outputs of the same address with these amounts. */
function transfer(wallet: Wallet, input: Spendable, amounts: bigint[]) {
  const raw = Buffer.from(input.outputId.slice(2), 'hex');
  const essence = {
    type: 1,
    networkId: wallet.networkId,
    inputs: [
      {
        type: 0,
        transactionId: '0x' + raw.subarray(0, 32).toString('hex'),
        transactionOutputIndex: raw.readUInt16LE(32),
      },
    ],
    inputsCommitment: inputsCommitment([input.output]),
    outputs: amounts.map((a) => basicOutput(wallet.address, a)),
  };
  const key = publicKey(wallet.seed);
  const unsigned = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: key, signature: '0x' + '00'.repeat(64) } }],
  };
  const payload = {
    ...unsigned,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: key, signature: sign(wallet.seed, essenceHash(unsigned)) } }],
  };
  const id = transactionId(payload);
  return {
    payload,
    transactionId: id,
    outputs: essence.outputs.map((output, i) => ({ outputId: outputId(id, i), output })),
  };
}

function split(total: bigint, parts: number): bigint[] {
  const each = total / BigInt(parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? total - each * BigInt(parts - 1) : each));
}

/** Submit transfers and wait until a milestone includes every one. */
async function confirmAll(api: Api, list: { payload: object; transactionId: string }[]): Promise<void> {
  // A few at a time: the node mines each, and its mining queue is bounded (503 when full).
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < list.length)
        await api.submit(JSON.stringify({ protocolVersion: 2, payload: list[next++].payload }));
    }),
  );
  const deadline = Date.now() + 30_000;
  for (const t of list) {
    while (
      (await fetch(`${api.url}/api/core/v2/transactions/${t.transactionId}/included-block/metadata`)).status !== 200
    ) {
      if (Date.now() > deadline)
        throw new Error(`the fan-out transaction ${t.transactionId} was not included within 30 s`);
      await sleep(100);
    }
  }
}

/** Genesis → 128 outputs → enough outputs for the transfers of one run (at most 128 × 128). */
async function fanOut(
  api: Api,
  info: { protocol: { networkName: string } },
  seed: string,
  options: Options,
): Promise<Wallet> {
  const address = ed25519Address(publicKey(seed));
  const wallet: Wallet = { seed, address, networkId: networkId(info.protocol.networkName), outputs: [] };
  const genesisId = '0x' + '00'.repeat(34);
  const genesis: Spendable = {
    outputId: genesisId,
    output: (await api.json<Pick<Spendable, 'output'>>(`/api/core/v2/outputs/${genesisId}`)).output,
  };
  const first = transfer(wallet, genesis, split(BigInt(genesis.output.amount), FAN_OUT));
  await confirmAll(api, [first]);
  // Room for 3,000 transfers a second on every client's share, within 128 × 128.
  const wanted = Math.min(FAN_OUT * FAN_OUT, 3_000 * options.seconds);
  const perOutput = Math.max(1, Math.ceil(wanted / FAN_OUT));
  const second = first.outputs.map((o) => transfer(wallet, o as Spendable, split(BigInt(o.output.amount), perOutput)));
  await confirmAll(api, second);
  wallet.outputs = second.flatMap((t) => t.outputs as Spendable[]);
  return wallet;
}

async function transfers(api: Api, wallet: Wallet, options: Options): Promise<Row> {
  // Signed before the clock starts: the node's work is measured, not this process's.
  const signed = wallet.outputs.map((o) => ({ input: o.outputId, ...transfer(wallet, o, [BigInt(o.output.amount)]) }));
  const submittedAt = new Map<string, number>();
  let next = 0;
  const run = await timed(options, async () => {
    const t = signed[next++];
    if (t === undefined) return false;
    submittedAt.set(t.input, performance.now());
    await api.submit(JSON.stringify({ protocolVersion: 2, payload: t.payload }));
  });
  const firstSubmit = Math.min(...submittedAt.values());
  const submitted = submittedAt.size;
  // Watch the milestones' consumed outputs until every submitted transfer is in one.
  const includedMs: number[] = [];
  let lastIncluded = firstSubmit;
  let seen = 0;
  const deadline = performance.now() + INCLUSION_WAIT_MS;
  let index = (await api.json<Info>('/api/core/v2/info')).status.latestMilestone.index;
  // Milestones issued while the load ran: start from the one before the first submission.
  index = Math.max(1, index - Math.ceil(run.seconds) - 2);
  while (seen < submitted && performance.now() < deadline) {
    const latest = (await api.json<Info>('/api/core/v2/info')).status.latestMilestone.index;
    for (; index <= latest; index++) {
      const changes = await api.json<{ consumedOutputs: string[] }>(
        `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
      );
      const now = performance.now();
      for (const id of changes.consumedOutputs) {
        const at = submittedAt.get(id);
        if (at === undefined) continue;
        submittedAt.delete(id);
        includedMs.push(now - at);
        lastIncluded = now;
        seen++;
      }
    }
    if (seen < submitted) await sleep(25);
  }
  return {
    load: 'value transfers, the node selects parents and mines (JSON)',
    submitted: run.count,
    perSecond: run.count / run.seconds,
    submitMs: run.ms,
    confirmedPerSecond: seen === 0 ? 0 : (seen * 1000) / (lastIncluded - firstSubmit),
    includedMs,
    included: seen,
  };
}

// ---- output ----

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function printTable(rows: Row[]): void {
  const ms = (v: number) => (Number.isNaN(v) ? '—' : v < 10 ? v.toFixed(1) : v.toFixed(0));
  console.log(
    '| load | submitted | submitted blocks/s | submit p50 / p99 ms | confirmed tx/s | submit → included p50 / p99 ms |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const confirmed =
      r.confirmedPerSecond === undefined
        ? '—'
        : `${Math.round(r.confirmedPerSecond)} (${r.included} of ${r.submitted} included)`;
    const included =
      r.includedMs === undefined ? '—' : `${ms(percentile(r.includedMs, 50))} / ${ms(percentile(r.includedMs, 99))}`;
    console.log(
      `| ${r.load} | ${r.submitted} | ${Math.round(r.perSecond)} | ${ms(percentile(r.submitMs, 50))} / ${ms(percentile(r.submitMs, 99))} | ${confirmed} | ${included} |`,
    );
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
