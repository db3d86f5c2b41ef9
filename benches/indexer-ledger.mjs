// The large ledger of the indexer benchmarks (bench:indexer, bench:inx): `outputs` unspent
// outputs written straight into a fresh data directory by the Rust example
// `crates/ledger-store/examples/indexer_ledger.rs`, through the store's own batch code (not
// over HTTP), minPowScore 1. Returns what the example prints: the addresses with exactly 1,
// 10 and 1,000 outputs, the tag of 1,000 outputs, the count and the seconds it took.
//
// By default the example is built and run with cargo, in the native build environment and
// for the host target, as npm install builds (it then shares its RocksDB build).
// INDEXER_LEDGER_BIN=<path> runs an example binary built before instead (no cargo).

import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function writeLedger(dataDir, outputs) {
  const prebuilt = process.env.INDEXER_LEDGER_BIN;
  const exampleArgs = [dataDir, String(outputs), '1'];
  let command;
  let args;
  if (prebuilt) {
    console.log(`writing ${outputs} outputs into ${dataDir} (${prebuilt})…`);
    [command, args] = [prebuilt, exampleArgs];
  } else {
    const host = /^host: (.+)$/m.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8' }))[1];
    console.log(`writing ${outputs} outputs into ${dataDir} (cargo run --example indexer_ledger)…`);
    command = process.execPath;
    args = [
      join(root, 'scripts/native-env.js'),
      'cargo',
      'run',
      '--quiet',
      '--release',
      '--target',
      host,
      '-p',
      'ledger-store',
      '--example',
      'indexer_ledger',
      '--',
      ...exampleArgs,
    ];
  }
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`indexer_ledger exited with ${result.status}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}
