'use strict';
// Runs cargo with `--target <host triple>`, in the native build environment of
// scripts/native-env.js. `napi build` always passes --target, which puts its artifacts
// under target/<triple>/; running cargo test the same way, with the same environment, lets
// both share one build of every dependency — above all RocksDB, whose C++ takes most of a
// clean build.
const { execFileSync } = require('node:child_process');
const { runInNativeEnv, Stop } = require('./native-env');

let host;
try {
  host = /^host: (.+)$/m.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8' }))[1];
} catch {
  host = null; // native-env names the missing toolchain below.
}
runInNativeEnv('cargo', [...process.argv.slice(2), ...(host ? ['--target', host] : [])]).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Stop ? e.message : e);
    process.exit(1);
  },
);
