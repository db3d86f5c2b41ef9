'use strict';
// Runs cargo with `--target <host triple>`. `napi build` always passes --target, which puts
// its artifacts under target/<triple>/; running cargo test the same way lets both share one
// build of every dependency — above all RocksDB, whose C++ takes most of a clean build.
const { execFileSync, spawnSync } = require('node:child_process');

const host = /^host: (.+)$/m.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8' }))[1];
const result = spawnSync('cargo', [...process.argv.slice(2), '--target', host], { stdio: 'inherit' });
process.exit(result.status ?? 1);
