// For scripts/interop/inx-participation.sh: a vote as inx-participation 1.0.0 counts it, a
// transaction that spends one output of the seed's Ed25519 address into a single basic
// output back to that address, with a tagged-data payload in its essence (tag PARTICIPATE,
// data = participations: count, then event id ‖ answer count ‖ answers). Submits it to the
// node, waits until a milestone includes it and prints the id of the vote's output.
// Usage: node scripts/interop/vote.mjs <node url> <seed 0x…> <output id 0x…> <event id 0x…> <answer 1..255>

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('../../dist/index.js');

const [url, seed, outputId, eventId, answer] = process.argv.slice(2);
if (!answer) {
  console.error('usage: node scripts/interop/vote.mjs <node url> <seed> <output id> <event id> <answer>');
  process.exit(2);
}
const getJson = async (path) => {
  const res = await fetch(url + path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

const info = await getJson('/api/core/v2/info');
const input = await getJson(`/api/core/v2/outputs/${outputId}`);
if (input.metadata.isSpent) throw new Error(`output ${outputId} is already spent`);
const publicKey = core.publicKey(seed);
const address = core.ed25519Address(publicKey);

const participations = Buffer.concat([
  Buffer.from([1]),
  Buffer.from(eventId.slice(2), 'hex'),
  Buffer.from([1, Number(answer)]),
]);
const id = Buffer.from(outputId.slice(2), 'hex');
const essence = {
  type: 1,
  networkId: core.networkId(info.protocol.networkName),
  inputs: [
    { type: 0, transactionId: `0x${id.subarray(0, 32).toString('hex')}`, transactionOutputIndex: id.readUInt16LE(32) },
  ],
  inputsCommitment: core.inputsCommitment([input.output]),
  outputs: [
    {
      type: 3,
      amount: input.output.amount,
      unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
    },
  ],
  payload: {
    type: 5,
    tag: `0x${Buffer.from('PARTICIPATE').toString('hex')}`,
    data: `0x${participations.toString('hex')}`,
  },
};
const unlock = (signature) => ({ type: 0, signature: { type: 0, publicKey, signature } });
const hash = core.essenceHash({ type: 6, essence, unlocks: [unlock(`0x${'00'.repeat(64)}`)] });
const payload = { type: 6, essence, unlocks: [unlock(core.sign(seed, hash))] };
const transactionId = core.transactionId(payload);
const res = await fetch(`${url}/api/core/v2/blocks`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ protocolVersion: 2, payload }),
});
if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
for (let i = 0; ; i++) {
  const r = await fetch(`${url}/api/core/v2/transactions/${transactionId}/included-block/metadata`);
  if (r.status === 200) {
    const meta = await r.json();
    if (meta.ledgerInclusionState !== 'included')
      throw new Error(`vote ${transactionId}: ${meta.ledgerInclusionState}`);
    break;
  }
  if (i > 300) throw new Error(`transaction ${transactionId} not included after 30 s`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(`${transactionId}0000`);
