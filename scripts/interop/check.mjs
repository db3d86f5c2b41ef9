#!/usr/bin/env node
// Checks that two nodes of one network agree, over their REST APIs only: ledger-node and
// Hornet 2.0.1, in either role (README "A network", docs/gossip.md "Against Hornet").
// Development tool, not part of the test suite: it needs running nodes.
//
//   node scripts/interop/check.mjs compare  <urlA> <urlB> [--from N]
//       every milestone both have confirmed: payload JSON, utxo-changes, the created
//       outputs (JSON and metadata), and every block of its cone (raw bytes, metadata)
//   node scripts/interop/check.mjs outputs  <urlA> <urlB> <outputId>...
//       the outputs' JSON and metadata (ledgerIndex aside) on both
//   node scripts/interop/check.mjs ledger   <urlA> <urlB>
//       every unspent output A's indexer lists (basic, alias, foundry, NFT) compared on B as
//       `outputs` does; B needs no indexer (Hornet has none)
//   node scripts/interop/check.mjs tagged   <submitUrl> <checkUrl> [--one-parent]
//       a tagged-data block submitted to the first node is referenced on the second,
//       with the same metadata on both (--one-parent: the block names one tip as its
//       only parent, which Hornet's API accepts and ledger-node takes from peers, D40)
//   node scripts/interop/check.mjs transfer <submitUrl> <checkUrl> --seed 0x… --output 0x…
//       a transfer spending the output (owned by the seed's Ed25519 address) to a new key
//       and back, submitted to the first node, is included on the second; included block,
//       created and consumed outputs compared on both
//
// Exit code 0 when everything agreed, 1 otherwise; each check prints one line.

import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { core } = loadCore();

function loadCore() {
  try {
    const m = require(join(root, 'dist/index.js'));
    return { core: m.core ?? m };
  } catch (e) {
    console.error(`check.mjs needs the built checkout (npm run build): ${e.message}`);
    process.exit(2);
  }
}

const RAW = 'application/vnd.iota.serializer-v1';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let failures = 0;

function report(ok, what, detail = '') {
  if (!ok) failures += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
}

async function get(url, path, accept = 'application/json') {
  const res = await fetch(url + path, { headers: { Accept: accept } });
  if (accept === RAW)
    return {
      status: res.status,
      body: res.ok ? Buffer.from(await res.arrayBuffer()).toString('hex') : await res.text(),
    };
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

async function getOk(url, path, accept) {
  const r = await get(url, path, accept);
  if (r.status !== 200) throw new Error(`GET ${url}${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  return r.body;
}

/** JSON with object keys sorted, so that two answers compare by content. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function sameJson(a, b) {
  return canonical(a) === canonical(b);
}

/** The first field that differs, for the report line. */
function firstDifference(a, b, path = '') {
  if (sameJson(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path || '.'}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`;
}

async function confirmedIndex(url) {
  return (await getOk(url, '/api/core/v2/info')).status.confirmedMilestone.index;
}

/** The blocks a milestone referenced: walk parents while they carry its index. */
async function coneOf(url, milestone) {
  const seen = new Set();
  const cone = [];
  const stack = [...milestone.parents];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    const r = await get(url, `/api/core/v2/blocks/${id}/metadata`);
    if (r.status !== 200 || r.body.referencedByMilestoneIndex !== milestone.index) continue;
    cone.push(r.body);
    stack.push(...r.body.parents);
  }
  return cone;
}

async function compareOutput(a, b, outputId, label) {
  const [x, y] = await Promise.all([
    get(a, `/api/core/v2/outputs/${outputId}`),
    get(b, `/api/core/v2/outputs/${outputId}`),
  ]);
  if (x.status !== 200 || y.status !== 200)
    return report(false, `${label} output ${outputId}`, `status ${x.status} / ${y.status}`);
  // ledgerIndex is each node's own confirmed index at the time of the answer.
  const strip = (o) => ({ ...o, metadata: { ...o.metadata, ledgerIndex: undefined } });
  const diff = firstDifference(strip(x.body), strip(y.body));
  report(!diff, `${label} output ${outputId}`, diff ?? `${x.body.output.amount}, spent ${x.body.metadata.isSpent}`);
}

/** Every unspent output A's indexer lists, compared on B; one line per kind, and per difference. */
async function ledger(a, b) {
  const counts = {};
  for (const kind of ['basic', 'alias', 'foundry', 'nft']) {
    const ids = [];
    let cursor;
    do {
      const query = `pageSize=1000${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await get(a, `/api/indexer/v1/outputs/${kind}?${query}`);
      if (r.status !== 200) return report(false, `ledger: ${kind} outputs of ${a}`, `status ${r.status}`);
      ids.push(...r.body.items);
      cursor = r.body.cursor;
    } while (cursor);
    const before = failures;
    for (const id of ids) await compareOutput(a, b, id, `ledger ${kind}`);
    counts[kind] = `${ids.length - (failures - before)}/${ids.length}`;
  }
  console.log(
    `ledger: outputs equal on both, per kind: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

async function compare(a, b, from) {
  const [ca, cb] = await Promise.all([confirmedIndex(a), confirmedIndex(b)]);
  const to = Math.min(ca, cb);
  console.log(`confirmed: ${a} ${ca}, ${b} ${cb}; comparing milestones ${from}..${to}`);
  let blocks = 0;
  for (let index = from; index <= to; index++) {
    const [ma, mb] = await Promise.all([
      getOk(a, `/api/core/v2/milestones/by-index/${index}`),
      getOk(b, `/api/core/v2/milestones/by-index/${index}`),
    ]);
    const idA = core.milestoneId(ma);
    let diff = firstDifference(ma, mb);
    if (diff) {
      report(false, `milestone ${index}`, diff);
      continue;
    }
    const [ua, ub] = await Promise.all([
      getOk(a, `/api/core/v2/milestones/by-index/${index}/utxo-changes`),
      getOk(b, `/api/core/v2/milestones/by-index/${index}/utxo-changes`),
    ]);
    const sorted = (u) => ({
      index: u.index,
      createdOutputs: [...u.createdOutputs].sort(),
      consumedOutputs: [...u.consumedOutputs].sort(),
    });
    diff = firstDifference(sorted(ua), sorted(ub));
    if (diff) report(false, `milestone ${index} utxo-changes`, diff);
    for (const id of ua.createdOutputs) await compareOutput(a, b, id, `milestone ${index}`);
    const [coneA, coneB] = await Promise.all([coneOf(a, ma), coneOf(b, mb)]);
    const byId = (list) => new Map(list.map((m) => [m.blockId, m]));
    const [mapA, mapB] = [byId(coneA), byId(coneB)];
    let coneOk = mapA.size === mapB.size;
    let coneDiff = coneOk ? '' : `${mapA.size} vs ${mapB.size} blocks`;
    for (const [id, meta] of mapA) {
      if (!coneOk) break;
      const d = firstDifference(meta, mapB.get(id));
      if (d) {
        coneOk = false;
        coneDiff = `block ${id} metadata ${d}`;
        break;
      }
      const [ra, rb] = await Promise.all([
        getOk(a, `/api/core/v2/blocks/${id}`, RAW),
        getOk(b, `/api/core/v2/blocks/${id}`, RAW),
      ]);
      if (ra !== rb) {
        coneOk = false;
        coneDiff = `block ${id} bytes differ`;
      }
    }
    blocks += mapA.size;
    const sameId = idA === core.milestoneId(mb);
    report(
      coneOk && sameId && !diff,
      `milestone ${index} ${idA}`,
      coneOk
        ? `payload, utxo-changes (${ua.createdOutputs.length} created, ${ua.consumedOutputs.length} consumed), ${mapA.size} referenced blocks with metadata and bytes`
        : coneDiff,
    );
  }
  console.log(`${to - from + 1} milestones, ${blocks} referenced blocks compared`);
}

async function waitFor(what, test, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

async function submit(url, block) {
  const started = Date.now();
  const res = await fetch(`${url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(block),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${url}/api/core/v2/blocks: ${res.status} ${text}`);
  return { blockId: JSON.parse(text).blockId, started };
}

async function referencedOn(url, blockId) {
  return waitFor(`block ${blockId} referenced on ${url}`, async () => {
    const r = await get(url, `/api/core/v2/blocks/${blockId}/metadata`);
    return r.status === 200 && r.body.referencedByMilestoneIndex !== undefined ? r.body : undefined;
  });
}

async function tagged(submitUrl, checkUrl, oneParent) {
  const tag = '0x' + Buffer.from('ledger-node interop').toString('hex');
  const data = '0x' + Buffer.from(new Date().toISOString()).toString('hex');
  const block = { protocolVersion: 2, payload: { type: 5, tag, data } };
  // One parent (a tip of the submitting node): the protocol allows it and Hornet accepts
  // it on its API; ledger-node accepts it only from peers (D40).
  if (oneParent) block.parents = [(await getOk(submitUrl, '/api/core/v2/tips')).tips[0]];
  const { blockId, started } = await submit(submitUrl, block);
  console.log(
    `submitted tagged data block ${blockId} (${block.parents ? '1 parent' : 'parents chosen by the node'}) to ${submitUrl}`,
  );
  const there = await referencedOn(checkUrl, blockId);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const here = await referencedOn(submitUrl, blockId);
  const diff = firstDifference(here, there);
  report(
    !diff,
    `tagged data block referenced by milestone ${there.referencedByMilestoneIndex} on ${checkUrl} after ${seconds} s`,
    diff ?? `parents ${there.parents.length}, ${there.ledgerInclusionState}, same metadata on both`,
  );
  const [ra, rb] = await Promise.all([
    getOk(submitUrl, `/api/core/v2/blocks/${blockId}`, RAW),
    getOk(checkUrl, `/api/core/v2/blocks/${blockId}`, RAW),
  ]);
  report(ra === rb, 'tagged data block bytes', ra === rb ? `${ra.length / 2} bytes, identical` : 'differ');
}

async function transfer(submitUrl, checkUrl, seed, outputId) {
  const info = await getOk(submitUrl, '/api/core/v2/info');
  const networkId = core.networkId(info.protocol.networkName);
  const input = await getOk(submitUrl, `/api/core/v2/outputs/${outputId}`);
  if (input.metadata.isSpent) throw new Error(`output ${outputId} is already spent`);
  const owner = { seed, publicKey: core.publicKey(seed) };
  owner.address = core.ed25519Address(owner.publicKey);
  const recipientSeed = '0x' + createHash('sha256').update(`ledger-node interop ${Date.now()}`).digest('hex');
  const recipient = core.ed25519Address(core.publicKey(recipientSeed));
  const send = 1_000_000n;
  const total = BigInt(input.output.amount);
  const basic = (address, amount) => ({
    type: 3,
    amount: amount.toString(),
    unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
  });
  const outputs = [basic(recipient, send), basic(owner.address, total - send)];
  const id = Buffer.from(outputId.slice(2), 'hex');
  const essence = {
    type: 1,
    networkId,
    inputs: [
      {
        type: 0,
        transactionId: '0x' + id.subarray(0, 32).toString('hex'),
        transactionOutputIndex: id.readUInt16LE(32),
      },
    ],
    inputsCommitment: core.inputsCommitment([input.output]),
    outputs,
  };
  const placeholder = [
    { type: 0, signature: { type: 0, publicKey: owner.publicKey, signature: '0x' + '00'.repeat(64) } },
  ];
  const hash = core.essenceHash({ type: 6, essence, unlocks: placeholder });
  const payload = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: owner.publicKey, signature: core.sign(seed, hash) } }],
  };
  const transactionId = core.transactionId(payload);
  const { blockId, started } = await submit(submitUrl, { protocolVersion: 2, payload });
  console.log(
    `submitted transfer ${transactionId} (block ${blockId}) to ${submitUrl}: ${send} to a new address, ${total - send} back`,
  );
  const included = await waitFor(`transaction ${transactionId} included on ${checkUrl}`, async () => {
    const r = await get(checkUrl, `/api/core/v2/transactions/${transactionId}/included-block/metadata`);
    return r.status === 200 ? r.body : undefined;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  report(
    included.ledgerInclusionState === 'included',
    `transfer included by milestone ${included.referencedByMilestoneIndex} on ${checkUrl} after ${seconds} s`,
    included.ledgerInclusionState,
  );
  const here = await getOk(submitUrl, `/api/core/v2/transactions/${transactionId}/included-block/metadata`).catch(
    (e) => ({ error: e.message }),
  );
  const diff = firstDifference(here, included);
  report(!diff, 'included-block metadata on both', diff ?? `block ${included.blockId}`);
  const [ra, rb] = await Promise.all([
    getOk(submitUrl, `/api/core/v2/transactions/${transactionId}/included-block`, RAW),
    getOk(checkUrl, `/api/core/v2/transactions/${transactionId}/included-block`, RAW),
  ]);
  report(ra === rb, 'included-block bytes on both', ra === rb ? `${ra.length / 2} bytes` : 'differ');
  await compareOutput(submitUrl, checkUrl, outputId, 'consumed');
  for (let i = 0; i < outputs.length; i++)
    await compareOutput(submitUrl, checkUrl, core.outputId(transactionId, i), 'created');
  console.log(`change output (owned by the seed): ${core.outputId(transactionId, 1)}`);
}

function option(args, name) {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
}

async function main() {
  const args = process.argv.slice(2);
  const command = args.shift();
  const from = Number(option(args, '--from') ?? 1);
  const seed = option(args, '--seed');
  const output = option(args, '--output');
  const oneParent = args.includes('--one-parent');
  if (oneParent) args.splice(args.indexOf('--one-parent'), 1);
  const strip = (u) => u?.replace(/\/+$/, '');
  const [a, b] = [strip(args[0]), strip(args[1])];
  if (!a || !b) return usage();
  switch (command) {
    case 'compare':
      return compare(a, b, from);
    case 'outputs':
      for (const id of args.slice(2)) await compareOutput(a, b, id, 'ledger');
      return;
    case 'ledger':
      return ledger(a, b);
    case 'tagged':
      return tagged(a, b, oneParent);
    case 'transfer':
      if (!seed || !output) return usage();
      return transfer(a, b, seed, output);
    default:
      return usage();
  }
}

function usage() {
  console.error(
    'usage: check.mjs compare|outputs|ledger|tagged|transfer <urlA> <urlB> [--from N] [outputId…] [--one-parent] [--seed 0x… --output 0x…]',
  );
  process.exit(2);
}

main().then(
  () => process.exit(failures === 0 ? 0 : 1),
  (e) => {
    console.error(`FAIL ${e.message}`);
    process.exit(1);
  },
);
