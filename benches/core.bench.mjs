// `npm run bench`: the native core against the reference libraries, measured in the same
// run on this machine. Codec (encode+id, decode+id) against @iota/sdk-wasm 1.1.3; PoW
// against @iota/pow-node.js and @iota/pow-wasm.js (the native Rust reference, iota-crypto,
// is in benches/pow-native: `npm run bench:pow-native`); scoring.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, median, rate, table } from './measure.mjs';

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

// --- PoW -----------------------------------------------------------------------------
console.log('## Proof of work (Curl-P-81)\n');
const info = core.powInfo();
await core.powHashRate(info.threads, 300); // warm up: the first window otherwise reads low
const one = await core.powHashRate(1, 1500);
const all = await core.powHashRate(info.threads, 1500);

// The JS references scan nonces upward from a start index with one worker, so the nonce
// they return minus the start is the number of hashes they tried. A small target keeps
// each call short.
async function referenceRate(doPow) {
  const digest = Buffer.alloc(32, 7);
  let hashes = 0;
  const start = Date.now();
  let from = 0n;
  while (Date.now() - start < 2000) {
    const nonce = BigInt(await doPow(digest, 6, from.toString()));
    hashes += Number(nonce - from) + 1;
    from = nonce + 1n;
  }
  return (hashes * 1000) / (Date.now() - start);
}
const nodeRate = await referenceRate(require('@iota/pow-node.js').doPow);
const wasmRate = await referenceRate(require('@iota/pow-wasm.js').doPow);
table(
  ['miner', 'hashes/s per thread', 'ours ÷ theirs'],
  [
    [`ledger-node (${info.engine}, native)`, fmt(one), '1×'],
    ['@iota/pow-node.js', fmt(nodeRate), `${(one / nodeRate).toFixed(0)}×`],
    ['@iota/pow-wasm.js', fmt(wasmRate), `${(one / wasmRate).toFixed(0)}×`],
    ['@iota/sdk-wasm 1.1.3', 'no PoW function exposed in Node (only inside Client block building against a node)', '—'],
  ],
);
console.log(`scaling: 1 thread ${fmt(one)} H/s, ${info.threads} threads ${fmt(all)} H/s = ${(all / one).toFixed(2)}× (${((100 * all) / one / info.threads).toFixed(0)} % of linear)\n`);

// Median time to reach score 1500 on a ~300-byte block with all threads. The references
// need minutes per block at their rates, so theirs is the expected time from their
// measured rate (3^zmin hashes on average), marked as such.
const runs = 9;
const blocks = Array.from({ length: runs }, (_, i) => ({ ...tagged(220), payload: { type: 5, tag: '0x' + (i + 1).toString(16).padStart(2, '0'), data: '0x' + 'cd'.repeat(220) } }));
const times = [];
for (const b of blocks) {
  const t = process.hrtime.bigint();
  await core.mine(b, { targetScore: 1500 });
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const len = core.encodeBlock(blocks[0]).length;
let zmin = 0;
while (3 ** zmin < 1500 * len) zmin++;
const expectedMs = (r) => (1000 * 3 ** zmin) / (r * info.threads);
table(
  [`time to score 1500, ${len}-byte block (${zmin} zeros), ${info.threads} threads`, 'ms', 'ours ÷ theirs'],
  [
    [`ledger-node mine(), median of ${runs}`, median(times).toFixed(0), '1×'],
    ['ledger-node expected from its rate', expectedMs(all / info.threads).toFixed(0), '—'],
    ['@iota/pow-node.js (expected from its rate)', expectedMs(nodeRate).toFixed(0), `${(expectedMs(nodeRate) / median(times)).toFixed(0)}×`],
    ['@iota/pow-wasm.js (expected from its rate)', expectedMs(wasmRate).toFixed(0), `${(expectedMs(wasmRate) / median(times)).toFixed(0)}×`],
  ],
);

// --- scoring -------------------------------------------------------------------------
console.log('## Scoring\n');
const scored = core.encodeBlock(tagged(220));
const scoreRate = rate(() => core.powScore(scored), { ms: 1000 });
const many = Array.from({ length: 1024 }, (_, i) => {
  const b = Buffer.from(scored);
  b.writeUInt32LE(i, b.length - 8);
  return b;
});
const manyRate = rate(() => core.powScores(many), { ms: 1500 }) * many.length;
table(
  ['operation', 'blocks/s', 'µs per block'],
  [
    [`powScore, one ${scored.length}-byte block a call`, fmt(scoreRate), (1e6 / scoreRate).toFixed(1)],
    [`powScores, 1024 ${scored.length}-byte blocks a call`, fmt(manyRate), (1e6 / manyRate).toFixed(2)],
  ],
);
process.exit(0);
