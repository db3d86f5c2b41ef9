// The codec against @iota/sdk-wasm 1.1.3, measured in the same run: encode+id (API JSON
// object → wire bytes and block id) and decode+id (bytes → JSON object and block id) per
// block kind. Part of `npm run bench`, alone as `npm run bench:codec`.
//
// Rates are operations per CPU second of this process (user + system time, which the
// time it waits for a core on a busy shared machine does not inflate; V8's helper threads
// count for both sides alike). Each kind is measured in alternating rounds (ours,
// reference, ours, …); a round's ratio compares windows measured back to back, and the
// median of the rounds' ratios is reported with the median rates.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, fmt, median, table } from './measure.mjs';

const require = createRequire(import.meta.url);

const vectors = join(import.meta.dirname, '..', 'vectors');
const lines = (f) =>
  readFileSync(join(vectors, f), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Operations per CPU second of `fn`, run for about `ms` of wall time after a warm-up. */
function cpuRate(fn, ms) {
  for (let i = 0; i < 20; i++) fn();
  const start = process.cpuUsage();
  const end = performance.now() + ms;
  let ops = 0;
  while (performance.now() < end) {
    fn();
    ops++;
  }
  const used = process.cpuUsage(start);
  return (ops * 1e6) / Math.max(1, used.user + used.system);
}

/** The block mix: what a node sees, from small tagged data to milestones with receipts. */
export function codecMix() {
  const valid = lines('valid.jsonl').filter((r) => r.kind === 'block');
  const named = (name) => {
    const r = valid.find((v) => v.name === name);
    if (!r) throw new Error(`no vector ${name}`);
    return r;
  };
  const parents = ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)];
  const tagged = (size) => ({
    protocolVersion: 2,
    parents,
    payload: { type: 5, tag: '0x6265', data: '0x' + 'ab'.repeat(size) },
    nonce: '12345',
  });
  const vector = (r) => ({ json: r.json, id: r.id });
  const tx = (r) => r.json.payload.essence;
  const small = valid.filter(
    (r) => r.json.payload?.type === 6 && tx(r).inputs.length <= 4 && tx(r).outputs.length <= 4,
  );
  return [
    { name: 'tagged data ~300 B', json: tagged(220) },
    ...small
      .slice(0, 4)
      .map((r) => ({ name: `transaction ${tx(r).inputs.length} in / ${tx(r).outputs.length} out`, ...vector(r) })),
    {
      name: 'transaction, every unlock condition and feature',
      ...vector(named('block/transaction/basic-every-unlock-condition-and-feature')),
    },
    { name: 'transaction, foundry outputs + native tokens', ...vector(named('block/transaction/foundry-outputs')) },
    { name: 'transaction, 128 inputs', ...vector(named('block/transaction/max-inputs-128')) },
    { name: 'transaction, 128 outputs', ...vector(named('block/transaction/max-outputs-128')) },
    // sdk-wasm 1.1.3 writes a receipt in another layout than Hornet's (spec D17), so its id
    // of these blocks differs from the vectors'; it is still timed, the table marks them.
    { name: 'milestone, no options', ...vector(named('block/milestone/no-options')) },
    { name: 'milestone, receipt', ...vector(named('block/milestone/receipt')) },
    { name: 'milestone, protocol parameters', ...vector(named('block/milestone/protocol-params')) },
    {
      name: 'milestone, receipt + parameters, multi-sig',
      ...vector(named('block/milestone/receipt-and-params-multi-sig')),
    },
    { name: 'tagged data ~30 KB', json: tagged(30000) },
  ];
}

export async function codecBench({ rounds = arg('rounds', 9), ms = arg('ms', 100) } = {}) {
  const core = require('../dist/index.js');
  const sdk = require('@iota/sdk-wasm/node');
  const mix = codecMix();
  for (const b of mix) {
    b.bytes = core.encodeBlock(b.json);
    const ours = core.blockId(b.bytes);
    if (b.id && ours !== b.id) throw new Error(`our id of ${b.name} is not the vector's`);
    b.refWrong = sdk.Utils.blockId(b.json) !== ours;
    if (b.refWrong && !b.id) throw new Error(`reference disagrees on ${b.name}`);
  }

  console.log(
    `## Codec (ops per CPU second, median of ${rounds} alternating rounds of ${ms} ms; ratio: median of the rounds' ratios; MB/s over the serialized size)\n`,
  );
  const rows = [];
  const ratios = { enc: [], dec: [] };
  for (const b of mix) {
    const ops = {
      // One native call: the id is hashed from the bytes just written.
      ourEnc: () => core.encodeBlockWithId(b.json),
      refEnc: () => (sdk.Utils.blockBytes(b.json), sdk.Utils.blockId(b.json)),
      ourDec: () => core.decodeBlockWithId(b.bytes),
      // The reference exposes no bytes→block decoder; its closest operation is
      // blockId(json), which parses the JSON and serializes the block to hash it.
      refDec: () => sdk.Utils.blockId(b.json),
    };
    const seen = { ourEnc: [], refEnc: [], ourDec: [], refDec: [] };
    for (let i = 0; i < rounds; i++) for (const k of Object.keys(ops)) seen[k].push(cpuRate(ops[k], ms));
    const [ourEnc, refEnc, ourDec, refDec] = Object.keys(ops).map((k) => median(seen[k]));
    const ratio = (ours, ref) => median(seen[ours].map((x, i) => x / seen[ref][i]));
    const [enc, dec] = [ratio('ourEnc', 'refEnc'), ratio('ourDec', 'refDec')];
    const size = b.bytes.length;
    ratios.enc.push(enc);
    ratios.dec.push(dec);
    rows.push([
      b.refWrong ? `${b.name} (sdk-wasm: other layout, D17)` : b.name,
      size,
      fmt(ourEnc),
      fmt(refEnc),
      `${enc.toFixed(1)}×`,
      fmt(ourDec),
      `${((ourDec * size) / 1e6).toFixed(1)}`,
      fmt(refDec),
      `${dec.toFixed(1)}×`,
    ]);
  }
  table(
    [
      'block',
      'bytes',
      'encode+id (ours)',
      'encode+id (sdk-wasm)',
      'ratio',
      'decode+id (ours)',
      'MB/s',
      'blockId(json) (sdk-wasm)',
      'ratio',
    ],
    rows,
  );
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  console.log(
    `geometric mean: encode+id ${geo(ratios.enc).toFixed(1)}× sdk-wasm (lowest ${Math.min(...ratios.enc).toFixed(1)}×), ` +
      `decode+id ${geo(ratios.dec).toFixed(1)}× sdk-wasm (lowest ${Math.min(...ratios.dec).toFixed(1)}×)\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`ledger-node codec benchmark — ${new Date().toISOString()} — node ${process.version}\n`);
  await codecBench();
  process.exit(0);
}
