// `npm run bench`: the native core against the reference libraries, measured in the same
// run on this machine. Codec (encode+id, decode+id) against @iota/sdk-wasm 1.1.3; proof of
// work against iota.go, iota-crypto and the JS miners, and scoring. Each part is its own
// module, also run alone: `npm run bench:codec`, `npm run bench:pow`.

import { codecBench } from './codec.bench.mjs';
import { powBench } from './pow.bench.mjs';

console.log(`ledger-node core benchmark — ${new Date().toISOString()} — node ${process.version}\n`);

// --- the codec (benches/codec.bench.mjs) -------------------------------------------
await codecBench();

// --- PoW and scoring (benches/pow.bench.mjs) ---------------------------------------
await powBench();
process.exit(0);
