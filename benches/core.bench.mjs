// `npm run bench`: the native core against the reference libraries, measured in the same
// run on this machine. Codec (encode+id, decode+id) against @iota/sdk-wasm 1.1.3; proof of
// work against iota.go, iota-crypto and the JS miners, and scoring (`pow.bench.mjs`, also
// alone as `npm run bench:pow`).

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, rate, table } from './measure.mjs';
import { powBench } from './pow.bench.mjs';

const require = createRequire(import.meta.url);
const core = require('../dist/index.js');
const sdk = require('@iota/sdk-wasm/node');

const vectors = join(import.meta.dirname, '..', 'vectors');
const lines = (f) => readFileSync(join(vectors, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

// --- the block mix ---------------------------------------------------------------
const parents = ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)];
const tagged = (size) => ({
  protocolVersion: 2,
  parents,
  payload: { type: 5, tag: '0x6265', data: '0x' + 'ab'.repeat(size) },
  nonce: '12345',
});
const transactions = lines('valid.jsonl').filter(
  (r) => r.kind === 'block' && r.json.payload?.type === 6 && r.json.payload.essence.inputs.length <= 4 && r.json.payload.essence.outputs.length <= 4,
);
const mix = [
  { name: 'tagged data ~300 B', json: tagged(220) },
  ...transactions.slice(0, 4).map((r) => ({ name: `transaction ${r.json.payload.essence.inputs.length} in / ${r.json.payload.essence.outputs.length} out`, json: r.json })),
  { name: 'tagged data ~30 KB', json: tagged(30000) },
];
for (const b of mix) {
  b.bytes = core.encodeBlock(b.json);
  if (sdk.Utils.blockId(b.json) !== core.blockId(b.bytes)) throw new Error(`reference disagrees on ${b.name}`);
}

console.log(`ledger-node core benchmark — ${new Date().toISOString()} — node ${process.version}\n`);
console.log('## Codec (ops/s; MB/s over the serialized size)\n');
const codecRows = [];
let ratios = { enc: [], dec: [] };
for (const b of mix) {
  const size = b.bytes.length;
  const ourEnc = rate(() => core.blockId(core.encodeBlock(b.json)));
  const refEnc = rate(() => (sdk.Utils.blockBytes(b.json), sdk.Utils.blockId(b.json)));
  const ourDec = rate(() => (core.decodeBlock(b.bytes), core.blockId(b.bytes)));
  // The reference exposes no bytes→block decoder; its closest operation is blockId(json),
  // which parses the JSON and serializes the block to hash it.
  const refDec = rate(() => sdk.Utils.blockId(b.json));
  ratios.enc.push(ourEnc / refEnc);
  ratios.dec.push(ourDec / refDec);
  codecRows.push([
    b.name, size,
    fmt(ourEnc), fmt(refEnc), `${(ourEnc / refEnc).toFixed(1)}×`,
    fmt(ourDec), `${((ourDec * size) / 1e6).toFixed(1)}`, fmt(refDec), `${(ourDec / refDec).toFixed(1)}×`,
  ]);
}
table(
  ['block', 'bytes', 'encode+id (ours)', 'encode+id (sdk-wasm)', 'ratio', 'decode+id (ours)', 'MB/s', 'blockId(json) (sdk-wasm)', 'ratio'],
  codecRows,
);
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
console.log(`geometric mean: encode+id ${geo(ratios.enc).toFixed(1)}× sdk-wasm, decode+id ${geo(ratios.dec).toFixed(1)}× sdk-wasm\n`);

// --- PoW and scoring (benches/pow.bench.mjs) ---------------------------------------
await powBench();
process.exit(0);
