// For scripts/interop/inx-indexer.sh: spend the dev network's genesis output into three
// outputs of fixed test keys and the rest back to the genesis key, in one transaction, and
// wait until a milestone includes it. Prints the bech32 addresses of the four owners, one a
// line. Usage: node scripts/interop/split-genesis.mjs <node url>

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('../../dist/index.js');

const url = process.argv[2];
const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
const GENESIS_OUTPUT_ID = `0x${'00'.repeat(34)}`;

const keyOf = (seed) => {
  const publicKey = core.publicKey(seed);
  return { seed, publicKey, address: core.ed25519Address(publicKey) };
};
const testKey = (label) => keyOf(`0x${createHash('sha256').update(`ledger-node interop ${label}`).digest('hex')}`);
const getJson = async (path) => (await fetch(url + path)).json();

const info = await getJson('/api/core/v2/info');
const genesis = await getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`);
if (genesis.metadata?.isSpent !== false)
  throw new Error('the genesis output is not unspent: use a fresh data directory');
const owner = keyOf(GENESIS_SEED);
const recipients = [testKey(1), testKey(2), testKey(3)];
const amounts = [1_000_000n, 2_000_000n, 3_000_000n];
const total = BigInt(genesis.output.amount);
const basic = (address, amount) => ({
  type: 3,
  amount: amount.toString(),
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: address } }],
});
const outputs = [
  ...recipients.map((k, i) => basic(k.address, amounts[i])),
  basic(owner.address, total - amounts.reduce((a, b) => a + b)),
];
const essence = {
  type: 1,
  networkId: core.networkId(info.protocol.networkName),
  inputs: [{ type: 0, transactionId: `0x${'00'.repeat(32)}`, transactionOutputIndex: 0 }],
  inputsCommitment: core.inputsCommitment([genesis.output]),
  outputs,
};
const unlock = (signature) => ({ type: 0, signature: { type: 0, publicKey: owner.publicKey, signature } });
const hash = core.essenceHash({ type: 6, essence, unlocks: [unlock(`0x${'00'.repeat(64)}`)] });
const payload = { type: 6, essence, unlocks: [unlock(core.sign(owner.seed, hash))] };
const transactionId = core.transactionId(payload);
const res = await fetch(`${url}/api/core/v2/blocks`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ protocolVersion: 2, payload }),
});
if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
for (let i = 0; ; i++) {
  const r = await fetch(`${url}/api/core/v2/transactions/${transactionId}/included-block/metadata`);
  if (r.status === 200) break;
  if (i > 300) throw new Error(`transaction ${transactionId} not included after 30 s`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
for (const k of [...recipients, owner]) console.log(core.bech32Encode(info.protocol.bech32Hrp, k.address));
