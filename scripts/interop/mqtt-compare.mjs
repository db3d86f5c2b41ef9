// For scripts/interop/inx-mqtt.sh: two MQTT brokers that follow the same node (the node's
// event API and inx-mqtt, or inx-mqtt through the node's proxy and on its own port) must
// publish the same messages. One client per broker subscribes to every topic family of
// TIP-28 that inx-mqtt 1.0.0 serves (components/mqtt/topics.go; docs/spec/events.md §3),
// with the IDs of a load made for the purpose, before the load is sent: a tagged-data block
// and a transfer of the genesis output whose essence carries tagged data, both mined here
// so that their block IDs are known before they exist, and EXTRA more tagged-data blocks,
// PAUSE_MS apart (so that the load spans several milestones).
//
// Messages are compared per topic family, inside a window of milestones: each message is
// given the milestone it belongs to (milestone info and milestones: their index; blocks and
// block metadata: the milestone that references the block, read from the REST API; outputs:
// their `ledgerIndex`), and only those after the confirmed milestone read once both clients
// had subscribed and settled, and up to one milestone after the load's last, are compared;
// what each broker sends on subscribe belongs to earlier milestones. Binary payloads are
// compared byte for byte; JSON payloads as values (key order aside), with the one documented
// difference of the node's block metadata taken out: its extra `parents` key, equal to
// `parentBlockIds` (D36). How many JSON payloads are also byte-identical is printed.
//
//   node scripts/interop/mqtt-compare.mjs <node url> <name>=<broker url> <name>=<broker url>
//
// Broker URLs: ws://… (MQTT over WebSocket) or mqtt://… (TCP). Prints one ok/FAIL line per
// topic family and per check; exit code 1 on any FAIL.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('../../dist/index.js');
const mqtt = require('mqtt');

const EXTRA = Number(process.env.EXTRA ?? 20);
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 250);
/** How long the brokers get after SUBACK to open their streams (inx-mqtt opens INX streams per topic). */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3000);

const [url, ...brokerArgs] = process.argv.slice(2);
if (url === undefined || brokerArgs.length !== 2) {
  console.error('usage: node mqtt-compare.mjs <node url> <name>=<broker url> <name>=<broker url>');
  process.exit(2);
}
const brokers = brokerArgs.map((arg) => {
  const at = arg.indexOf('=');
  return { name: arg.slice(0, at), url: arg.slice(at + 1) };
});

const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
const GENESIS_OUTPUT_ID = `0x${'00'.repeat(34)}`;
const SERIALIZER = 'application/vnd.iota.serializer-v1';
const hexOf = (text) => `0x${Buffer.from(text).toString('hex')}`;
const DATA_TAG = hexOf('ledger-node mqtt interop');
const TX_TAG = hexOf('ledger-node mqtt transfer');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let failed = false;
function report(ok, line) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  if (!ok) failed = true;
}

async function getJson(path) {
  const res = await fetch(url + path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
const confirmedIndex = async () => (await getJson('/api/core/v2/info')).status.confirmedMilestone.index;

const keyOf = (seed) => {
  const publicKey = core.publicKey(seed);
  return { seed, publicKey, address: core.ed25519Address(publicKey) };
};

async function minedBlock(payload, minPowScore) {
  const { tips } = await getJson('/api/core/v2/tips');
  const block = { protocolVersion: 2, parents: [...tips].sort(), payload };
  const { nonce } = await core.mine(block, { targetScore: minPowScore, threads: 1 });
  const mined = { ...block, nonce };
  return { id: core.blockId(mined), bytes: core.encodeBlock(mined) };
}

async function submitBytes(bytes) {
  const res = await fetch(`${url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': SERIALIZER },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return (await res.json()).blockId;
}

// ---- the load, built before anyone subscribes -------------------------------------------
const info = await getJson('/api/core/v2/info');
const hrp = info.protocol.bech32Hrp;
const minPowScore = info.protocol.minPowScore;
const genesis = await getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`);
if (genesis.metadata?.isSpent !== false) throw new Error('the genesis output is spent: use a fresh data directory');
const owner = keyOf(GENESIS_SEED);
const recipient = keyOf(`0x${createHash('sha256').update('ledger-node interop mqtt recipient').digest('hex')}`);
const basic = (address, amount) => ({
  type: 3,
  amount: amount.toString(),
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
});
const total = BigInt(genesis.output.amount);
const essence = {
  type: 1,
  networkId: core.networkId(info.protocol.networkName),
  inputs: [{ type: 0, transactionId: `0x${'00'.repeat(32)}`, transactionOutputIndex: 0 }],
  inputsCommitment: core.inputsCommitment([genesis.output]),
  outputs: [basic(recipient.address, 5_000_000n), basic(owner.address, total - 5_000_000n)],
  payload: { type: 5, tag: TX_TAG, data: hexOf('a transfer with tagged data') },
};
const unlock = (signature) => ({ type: 0, signature: { type: 0, publicKey: owner.publicKey, signature } });
const hash = core.essenceHash({ type: 6, essence, unlocks: [unlock(`0x${'00'.repeat(64)}`)] });
const transaction = { type: 6, essence, unlocks: [unlock(core.sign(owner.seed, hash))] };
const transactionId = core.transactionId(transaction);
const dataBlock = await minedBlock({ type: 5, tag: DATA_TAG, data: hexOf('tagged data') }, minPowScore);
const txBlock = await minedBlock(transaction, minPowScore);
const ownerBech32 = core.bech32Encode(hrp, owner.address);
const recipientBech32 = core.bech32Encode(hrp, recipient.address);

/** Topic → family (the topic with its IDs named, as topics.go writes the templates). */
const FAMILIES = new Map([
  ['milestone-info/latest', 'milestone-info/latest'],
  ['milestone-info/confirmed', 'milestone-info/confirmed'],
  ['milestones', 'milestones'],
  ['blocks', 'blocks'],
  ['blocks/transaction', 'blocks/transaction'],
  ['blocks/transaction/tagged-data', 'blocks/transaction/tagged-data'],
  [`blocks/transaction/tagged-data/${TX_TAG}`, 'blocks/transaction/tagged-data/{tag}'],
  ['blocks/tagged-data', 'blocks/tagged-data'],
  [`blocks/tagged-data/${DATA_TAG}`, 'blocks/tagged-data/{tag}'],
  [`block-metadata/${dataBlock.id}`, 'block-metadata/{blockId}'],
  [`block-metadata/${txBlock.id}`, 'block-metadata/{blockId}'],
  ['block-metadata/referenced', 'block-metadata/referenced'],
  [`transactions/${transactionId}/included-block`, 'transactions/{transactionId}/included-block'],
  [`outputs/${core.outputId(transactionId, 0)}`, 'outputs/{outputId}'],
  [`outputs/${core.outputId(transactionId, 1)}`, 'outputs/{outputId}'],
  [`outputs/${GENESIS_OUTPUT_ID}`, 'outputs/{outputId}'],
  [`outputs/unlock/address/${recipientBech32}`, 'outputs/unlock/address/{address}'],
  [`outputs/unlock/address/${ownerBech32}`, 'outputs/unlock/address/{address}'],
  [`outputs/unlock/address/${ownerBech32}/spent`, 'outputs/unlock/address/{address}/spent'],
  [`outputs/unlock/address/${recipientBech32}/spent`, 'outputs/unlock/address/{address}/spent'],
  ['receipts', 'receipts'],
]);
/** Families the load must produce messages on (receipts: none on a network without migration). */
const EXPECT_MESSAGES = new Set([...FAMILIES.values()].filter((f) => f !== 'receipts'));

// ---- subscribe on both brokers -----------------------------------------------------------
async function connect(broker) {
  const client = mqtt.connect(broker.url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 10_000 });
  const messages = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload: Buffer.from(payload) }));
  await new Promise((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', reject);
  });
  const granted = await new Promise((resolve, reject) =>
    client.subscribe([...FAMILIES.keys()], { qos: 0 }, (err, g) => (err ? reject(err) : resolve(g))),
  );
  const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
  report(
    refused.length === 0,
    `${broker.name}: subscribed to ${granted.length} topics${refused.length ? `, refused ${refused.join(' ')}` : ''}`,
  );
  return { ...broker, client, messages };
}
const clients = await Promise.all(brokers.map(connect));
await sleep(SETTLE_MS);
const from = await confirmedIndex();

// ---- the load ----------------------------------------------------------------------------
const submitted = [await submitBytes(dataBlock.bytes), await submitBytes(txBlock.bytes)];
for (let i = 0; i < EXTRA; i++) {
  await sleep(PAUSE_MS);
  const b = await minedBlock({ type: 5, tag: DATA_TAG, data: hexOf(`extra ${i}`) }, minPowScore);
  submitted.push(await submitBytes(b.bytes));
}
const referencedBy = new Map();
async function referencingIndex(blockId) {
  if (!referencedBy.has(blockId)) {
    const meta = await getJson(`/api/core/v2/blocks/${blockId}/metadata`);
    if (meta.referencedByMilestoneIndex === undefined) return undefined;
    referencedBy.set(blockId, meta.referencedByMilestoneIndex);
  }
  return referencedBy.get(blockId);
}
let first = Number.POSITIVE_INFINITY;
let last = 0;
for (const id of submitted) {
  for (let i = 0; ; i++) {
    const index = await referencingIndex(id);
    if (index !== undefined) {
      first = Math.min(first, index);
      last = Math.max(last, index);
      break;
    }
    if (i > 600) throw new Error(`block ${id} not referenced after 60 s`);
    await sleep(100);
  }
}
const included = await getJson(`/api/core/v2/blocks/${txBlock.id}/metadata`);
report(
  included.ledgerInclusionState === 'included',
  `the transfer ${transactionId} is included (${included.ledgerInclusionState})`,
);
// One milestone past the load's last (its milestone block is referenced by the next one).
const to = last + 1;
// Wait until both clients have heard of two more milestones: every message of the window is in.
for (let i = 0; ; i++) {
  const seen = clients.map((c) =>
    Math.max(
      0,
      ...c.messages.filter((m) => m.topic === 'milestone-info/confirmed').map((m) => JSON.parse(m.payload).index),
    ),
  );
  if (seen.every((s) => s >= to + 2)) break;
  if (i > 600) throw new Error(`the clients saw confirmed milestones up to ${seen.join(', ')}, waited for ${to + 2}`);
  await sleep(100);
}
for (const c of clients) c.client.end(true);

// ---- compare -----------------------------------------------------------------------------
/** The milestone a message belongs to. */
async function milestoneOf(topic, payload) {
  const family = FAMILIES.get(topic);
  if (family.startsWith('milestone-info/')) return JSON.parse(payload).index;
  if (family === 'milestones') return payload.readUInt32LE(4);
  if (family.startsWith('blocks') || family.startsWith('transactions/')) return referencingIndex(core.blockId(payload));
  if (family.startsWith('block-metadata/')) {
    const meta = JSON.parse(payload);
    return meta.referencedByMilestoneIndex ?? referencingIndex(meta.blockId);
  }
  if (family.startsWith('outputs/')) return JSON.parse(payload).metadata.ledgerIndex;
  return undefined;
}

function sortedKeys(value) {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys(value[k])]),
    );
  return value;
}

/** The payload as compared: hex for binary; JSON as a value, D36's extra `parents` taken out. */
function comparable(topic, payload) {
  const family = FAMILIES.get(topic);
  const binary = family === 'milestones' || family.startsWith('blocks') || family.startsWith('transactions/');
  if (binary) return payload.toString('hex');
  const value = JSON.parse(payload);
  if (family.startsWith('block-metadata/') && value.parents !== undefined) {
    if (JSON.stringify(value.parents) !== JSON.stringify(value.parentBlockIds)) return `parents differ: ${payload}`;
    delete value.parents;
  }
  return JSON.stringify(sortedKeys(value));
}

report(
  first > from,
  `the load is referenced by milestones ${first}..${last}, after ${from} (read once both had subscribed)`,
);
const byFamily = new Map([...new Set(FAMILIES.values())].map((f) => [f, clients.map(() => new Map())]));
const rawByFamily = new Map([...new Set(FAMILIES.values())].map((f) => [f, clients.map(() => new Set())]));
const leftOut = clients.map(() => 0);
for (const [n, c] of clients.entries()) {
  for (const m of c.messages) {
    const index = await milestoneOf(m.topic, m.payload);
    if (index === undefined || index <= from || index > to) {
      leftOut[n]++;
      continue;
    }
    const family = FAMILIES.get(m.topic);
    const key = `${m.topic} ${comparable(m.topic, m.payload)}`;
    const counts = byFamily.get(family)[n];
    counts.set(key, (counts.get(key) ?? 0) + 1);
    rawByFamily.get(family)[n].add(`${m.topic} ${m.payload.toString('hex')}`);
  }
}

console.log(
  `window: milestones ${from + 1}..${to}; ${submitted.length} blocks submitted; left out (on subscribe, before or after the window): ` +
    clients.map((c, n) => `${c.name} ${leftOut[n]}`).join(', '),
);
let totalCompared = 0;
for (const [family, [a, b]] of byFamily) {
  const countA = [...a.values()].reduce((s, n) => s + n, 0);
  const countB = [...b.values()].reduce((s, n) => s + n, 0);
  const onlyA = [...a].filter(([k, n]) => b.get(k) !== n);
  const onlyB = [...b].filter(([k, n]) => a.get(k) !== n);
  const [rawA, rawB] = rawByFamily.get(family);
  const rawSame = [...rawA].filter((k) => rawB.has(k)).length;
  const equal = onlyA.length === 0 && onlyB.length === 0;
  const expected = !EXPECT_MESSAGES.has(family) || countA > 0;
  totalCompared += countA;
  report(
    equal && expected,
    `${family}: ${clients[0].name} ${countA}, ${clients[1].name} ${countB} messages${equal ? ', the same' : ', DIFFERENT'}` +
      `${expected ? '' : ' (none, but the load makes some)'}; byte-identical ${rawSame}`,
  );
  if (!equal) {
    for (const [k] of onlyA.slice(0, 3)) console.log(`       only/more on ${clients[0].name}: ${k.slice(0, 400)}`);
    for (const [k] of onlyB.slice(0, 3)) console.log(`       only/more on ${clients[1].name}: ${k.slice(0, 400)}`);
  }
}
console.log(`compared ${totalCompared} messages per broker`);
process.exit(failed ? 1 : 0);
