// For scripts/interop/inx-mqtt.sh: two MQTT brokers that follow the same node (the node's
// event API and inx-mqtt, or inx-mqtt through the node's proxy and on its own port) must
// publish the same messages. One client per broker subscribes to every topic family
// inx-mqtt 1.0.0 serves (components/mqtt/topics.go; docs/spec/events.md §3), with the IDs
// and addresses of a load made for the purpose, before the load is sent. The load, mined
// here so that its block IDs are known before they exist: a tagged-data block; a transfer
// of the genesis output whose essence carries tagged data, creating basic outputs, an alias
// (state controller and governor two keys), an NFT, an output with a storage deposit return
// and one with an expiration; the alias transitioned with a foundry under it (immutable
// alias unlock condition) minting native tokens; the storage-deposit-return, expiration and
// NFT outputs spent, and the alias and foundry transitioned again (so every unlock
// condition appears created and spent, every chain twice); then EXTRA more tagged-data
// blocks, PAUSE_MS apart (so that the load spans several milestones). Unlock topics are
// subscribed per condition and with the literal `+`, each also with `/spent`.
// `tip-score-updates` (inx-mqtt's, not TIP-28's) is compared too; inx-mqtt's side effect of
// it on the block-metadata topics is modelled on the node's side (see FAMILIES).
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
// A broker named `node` is the node's own event API. Broker URLs: ws://… (MQTT over
// WebSocket) or mqtt://… (TCP). Prints one ok/FAIL line per topic family and per check;
// exit code 1 on any FAIL.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('../../dist/index.js');
const mqtt = require('mqtt');

const EXTRA = Number(process.env.EXTRA ?? 20);
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 250);
/** How long the brokers get after SUBACK to open their streams (inx-mqtt opens INX streams per topic). */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3000);
/** How many differing messages of a family are listed. */
const LIST = Number(process.env.LIST ?? 3);

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

async function minedBlock(payload, minPowScore, parents) {
  const tips = parents ?? (await getJson('/api/core/v2/tips')).tips;
  const block = { protocolVersion: 2, parents: [...new Set(tips)].sort(), payload };
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
const governor = keyOf(`0x${createHash('sha256').update('ledger-node interop mqtt governor').digest('hex')}`);
const ed = (key) => ({ type: 0, pubKeyHash: key.address });
const basic = (address, amount, extra = {}) => ({
  type: 3,
  amount: amount.toString(),
  ...extra,
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
});
const networkId = core.networkId(info.protocol.networkName);
const ZERO_ID = `0x${'00'.repeat(32)}`;
const FAR_FUTURE = 4_000_000_000;
/** BLAKE2b-256 of the bytes (blockId hashes whatever bytes it is given): derived chain IDs. */
const blake2b256 = (hex) => core.blockId(Buffer.from(hex.slice(2), 'hex'));

/**
 * A signed transaction. `inputs`: { outputId, output, by } where `by` is the key whose
 * signature unlocks it (a reference unlock after its first signature) or { alias: i }, an
 * alias unlock of input i.
 */
function signedTransaction(inputs, outputs, payload) {
  const essence = {
    type: 1,
    networkId,
    inputs: inputs.map((i) => ({
      type: 0,
      transactionId: i.outputId.slice(0, 66),
      transactionOutputIndex: Buffer.from(i.outputId.slice(66), 'hex').readUInt16LE(0),
    })),
    inputsCommitment: core.inputsCommitment(inputs.map((i) => i.output)),
    outputs,
    ...(payload === undefined ? {} : { payload }),
  };
  const unlocksWith = (signatureOf) => {
    const signedAt = new Map();
    return inputs.map(({ by }, n) => {
      if (by.alias !== undefined) return { type: 2, reference: by.alias };
      if (signedAt.has(by.seed)) return { type: 1, reference: signedAt.get(by.seed) };
      signedAt.set(by.seed, n);
      return { type: 0, signature: { type: 0, publicKey: by.publicKey, signature: signatureOf(by) } };
    });
  };
  const hash = core.essenceHash({ type: 6, essence, unlocks: unlocksWith(() => `0x${'00'.repeat(64)}`) });
  const transaction = { type: 6, essence, unlocks: unlocksWith((key) => core.sign(key.seed, hash)) };
  const id = core.transactionId(transaction);
  return { transaction, id, out: (i) => ({ outputId: core.outputId(id, i), output: outputs[i] }) };
}

// 1. The transfer of the genesis output, tagged data in its essence: to the recipient, the
// remainder back, an alias (state controller the owner, governor another key), an NFT, an
// output with a storage deposit return and one with an expiration (both back to the owner).
const total = BigInt(genesis.output.amount);
const aliasOut = (aliasId, amount, stateIndex, foundryCounter) => ({
  type: 4,
  amount: amount.toString(),
  aliasId,
  stateIndex,
  foundryCounter,
  unlockConditions: [
    { type: 4, address: ed(owner) },
    { type: 5, address: ed(governor) },
  ],
});
const nftOut = (nftId, amount, key) => ({
  type: 6,
  amount: amount.toString(),
  nftId,
  unlockConditions: [{ type: 0, address: ed(key) }],
  immutableFeatures: [{ type: 2, data: hexOf('ledger-node mqtt nft') }],
});
const tx1 = signedTransaction(
  [{ outputId: GENESIS_OUTPUT_ID, output: genesis.output, by: owner }],
  [
    basic(recipient.address, 5_000_000n),
    basic(owner.address, total - 18_000_000n),
    aliasOut(ZERO_ID, 10_000_000n, 0, 0),
    nftOut(ZERO_ID, 1_000_000n, recipient),
    {
      type: 3,
      amount: '1000000',
      unlockConditions: [
        { type: 0, address: ed(recipient) },
        { type: 1, returnAddress: ed(owner), amount: '100000' },
      ],
    },
    {
      type: 3,
      amount: '1000000',
      unlockConditions: [
        { type: 0, address: ed(recipient) },
        { type: 3, returnAddress: ed(owner), unixTime: FAR_FUTURE },
      ],
    },
  ],
  { type: 5, tag: TX_TAG, data: hexOf('a transfer with tagged data') },
);
const aliasId = blake2b256(tx1.out(2).outputId);
const nftId = blake2b256(tx1.out(3).outputId);
const aliasAddress = { type: 8, aliasId };
// Foundry ID: the alias address, the serial number (u32 LE), the token scheme type.
const foundryId = `0x08${aliasId.slice(2)}0100000000`;
const foundryOut = (amount) => ({
  type: 5,
  amount: amount.toString(),
  serialNumber: 1,
  tokenScheme: { type: 0, mintedTokens: '0x3e8', meltedTokens: '0x0', maximumSupply: '0x3e8' },
  unlockConditions: [{ type: 6, address: aliasAddress }],
});
// 2. The alias transitioned (state index 1, foundry counter 1): a foundry under it mints
// 1000 native tokens, which go to the recipient.
const tx2 = signedTransaction(
  [{ ...tx1.out(2), by: owner }],
  [
    aliasOut(aliasId, 4_000_000n, 1, 1),
    foundryOut(3_000_000n),
    basic(recipient.address, 3_000_000n, { nativeTokens: [{ id: foundryId, amount: '0x3e8' }] }),
  ],
);
// 3. The recipient spends the storage-deposit-return output (returning its 100000), the
// expiration output and the NFT (sent on to the owner); the owner transitions the alias
// again and with it the foundry (unchanged: its immutable-alias output spent and re-created).
const tx3 = signedTransaction(
  [
    { ...tx1.out(4), by: recipient },
    { ...tx1.out(5), by: recipient },
    { ...tx1.out(3), by: recipient },
    { ...tx2.out(0), by: owner },
    { ...tx2.out(1), by: { alias: 3 } },
  ],
  [
    nftOut(nftId, 1_000_000n, owner),
    aliasOut(aliasId, 4_000_000n, 2, 1),
    foundryOut(3_000_000n),
    basic(owner.address, 100_000n),
    basic(recipient.address, 1_900_000n),
  ],
);
const dataBlock = await minedBlock({ type: 5, tag: DATA_TAG, data: hexOf('tagged data') }, minPowScore);
const txBlock = await minedBlock(tx1.transaction, minPowScore);
// Each spending block approves the block that created its inputs: white-flag order then
// applies them in order when one milestone references several.
const tx2Block = await minedBlock(tx2.transaction, minPowScore, [txBlock.id, dataBlock.id]);
const tx3Block = await minedBlock(tx3.transaction, minPowScore, [tx2Block.id, dataBlock.id]);
const bech32 = (address) => core.bech32Encode(hrp, address);
const ownerBech32 = bech32(owner.address);
const recipientBech32 = bech32(recipient.address);
const governorBech32 = bech32(governor.address);
const aliasBech32 = bech32(aliasAddress);

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
  ...[dataBlock, txBlock, tx2Block, tx3Block].map((b) => [`block-metadata/${b.id}`, 'block-metadata/{blockId}']),
  ['block-metadata/referenced', 'block-metadata/referenced'],
  ['tip-score-updates', 'tip-score-updates'],
  ...[tx1, tx2, tx3].map((t) => [`transactions/${t.id}/included-block`, 'transactions/{transactionId}/included-block']),
  [`outputs/${GENESIS_OUTPUT_ID}`, 'outputs/{outputId}'],
  ...[tx1, tx2, tx3].flatMap((t) =>
    t.transaction.essence.outputs.map((_, i) => [`outputs/${t.out(i).outputId}`, 'outputs/{outputId}']),
  ),
  [`outputs/nft/${nftId}`, 'outputs/nft/{nftId}'],
  [`outputs/alias/${aliasId}`, 'outputs/alias/{aliasId}'],
  [`outputs/foundry/${foundryId}`, 'outputs/foundry/{foundryId}'],
  ...[
    ['address', recipientBech32],
    ['address', ownerBech32],
    ['storage-return', ownerBech32],
    ['expiration', ownerBech32],
    ['state-controller', ownerBech32],
    ['governor', governorBech32],
    ['immutable-alias', aliasBech32],
    ['+', recipientBech32],
    ['+', ownerBech32],
    ['+', governorBech32],
    ['+', aliasBech32],
  ].flatMap(([condition, address]) => [
    [`outputs/unlock/${condition}/${address}`, `outputs/unlock/${condition}/{address}`],
    [`outputs/unlock/${condition}/${address}/spent`, `outputs/unlock/${condition}/{address}/spent`],
  ]),
  ['receipts', 'receipts'],
]);
// inx-mqtt's own `tip-score-updates` (not in TIP-28) is offered by the node's event API too
// (events.md §3) and compared like any family. inx-mqtt, once anyone subscribes to it, also
// sends each of its payloads on `block-metadata/{blockId}` (when subscribed) and, once the
// block is referenced, on `block-metadata/referenced` (PublishBlockMetadata serves all
// three); the node does not (events.md §3). With the node as one broker (a broker named
// `node`), those copies are added to the node's messages as inx-mqtt would send them, from
// the node's own `tip-score-updates` messages, before comparing (their number is printed):
// the block-metadata families are still compared message for message.
// The other way round too: while anyone subscribes to a `block-metadata/…` topic, inx-mqtt
// streams the metadata of every block when it becomes solid and when it is referenced, and
// PublishBlockMetadata sends each of those on `tip-score-updates` as well: not tip score
// updates, and not sent by the node either. To model those copies the node's client also
// subscribes to `block-metadata/+` (the node only; its messages on topics outside FAMILIES
// are the model's input, not compared): each of the node's messages on a
// `block-metadata/{blockId}` topic is added to its `tip-score-updates` as inx-mqtt would send
// it. With both copies modelled, every family, `tip-score-updates`
// included, is compared message for message; how many copies each way is printed.
const nodeIsOneOf = brokers.some((b) => b.name === 'node');
const MODEL_ONLY = 'block-metadata/+';
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
  // Ten topics a SUBSCRIBE (about 1 KB): inx-mqtt's WebSocket listener loses a larger one
  // now and then and never answers it (its wsConn.Read takes the next WebSocket message on
  // every read, dropping the rest of one that did not arrive whole).
  const granted = [];
  const topicList = [...FAMILIES.keys(), ...(broker.name === 'node' && nodeIsOneOf ? [MODEL_ONLY] : [])];
  for (let i = 0; i < topicList.length; i += 10) {
    granted.push(...(await client.subscribeAsync(topicList.slice(i, i + 10), { qos: 0 })));
  }
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
const submitted = [];
for (const b of [dataBlock, txBlock, tx2Block, tx3Block]) submitted.push(await submitBytes(b.bytes));
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
for (const [name, t, b] of [
  ['the transfer', tx1, txBlock],
  ['the foundry transaction', tx2, tx2Block],
  ['the spending transaction', tx3, tx3Block],
]) {
  const { ledgerInclusionState, conflictReason } = await getJson(`/api/core/v2/blocks/${b.id}/metadata`);
  report(
    ledgerInclusionState === 'included',
    `${name} ${t.id} is included (${ledgerInclusionState}${conflictReason ? `, conflict ${conflictReason}` : ''})`,
  );
}
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
if (nodeIsOneOf) {
  const node = clients.find((c) => c.name === 'node');
  const received = node.messages.splice(0);
  // inx-mqtt's solid and referenced block metadata on tip-score-updates (the node's metadata
  // of every block: one message when stored, one when referenced, per block-metadata/{id}).
  const solidAndReferenced = received.filter(
    (m) => m.topic.startsWith('block-metadata/') && m.topic !== 'block-metadata/referenced',
  );
  // inx-mqtt's tip score updates on the block-metadata topics.
  const onMetadata = [];
  for (const m of received.filter((x) => x.topic === 'tip-score-updates')) {
    const meta = JSON.parse(m.payload);
    const topics = [`block-metadata/${meta.blockId}`];
    if (meta.referencedByMilestoneIndex > 0) topics.push('block-metadata/referenced');
    for (const topic of topics.filter((t) => FAMILIES.has(t))) onMetadata.push({ topic, payload: m.payload });
  }
  node.messages.push(
    ...received.filter((m) => FAMILIES.has(m.topic)),
    ...solidAndReferenced.map((m) => ({ topic: 'tip-score-updates', payload: m.payload })),
    ...onMetadata,
  );
  console.log(
    `inx-mqtt's side effects, modelled on the node's side: ${onMetadata.length} tip score updates added on ` +
      `block-metadata topics, ${solidAndReferenced.length} solid/referenced block metadata added on tip-score-updates, ` +
      `${received.filter((m) => m.topic === 'tip-score-updates').length} tip score updates of the node's own`,
  );
}

// ---- compare -----------------------------------------------------------------------------
/** The milestone a message belongs to. */
async function milestoneOf(topic, payload) {
  const family = FAMILIES.get(topic);
  if (family.startsWith('milestone-info/')) return JSON.parse(payload).index;
  if (family === 'milestones') return payload.readUInt32LE(4);
  if (family.startsWith('blocks') || family.startsWith('transactions/')) return referencingIndex(core.blockId(payload));
  if (family.startsWith('block-metadata/') || family === 'tip-score-updates') {
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
  if ((family.startsWith('block-metadata/') || family === 'tip-score-updates') && value.parents !== undefined) {
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
    for (const [k, n] of onlyA.slice(0, LIST))
      console.log(`       ${n} on ${clients[0].name}, ${b.get(k) ?? 0} on ${clients[1].name}: ${k.slice(0, 400)}`);
    for (const [k, n] of onlyB.filter(([k]) => !a.has(k)).slice(0, LIST))
      console.log(`       0 on ${clients[0].name}, ${n} on ${clients[1].name}: ${k.slice(0, 400)}`);
  }
}
console.log(`compared ${totalCompared} messages per broker`);
process.exit(failed ? 1 : 0);
