'use strict';
// The Rust gate of `npm run lint`: rustfmt must have nothing to change, and clippy (with the
// workspace's `[workspace.lints]`) must report nothing, warnings included.
//
// Warnings are counted from clippy's JSON messages rather than denied with `-- -D warnings`:
// that flag changes clippy's arguments, which makes cargo run RocksDB's build script again
// and recompile its C++ (twenty minutes on two cores) whenever a build follows a lint.
// Cargo replays the messages of crates it does not recheck, so a cached run still counts them.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');

const fmt = spawnSync('cargo', ['fmt', '--all', '--check'], { cwd: root, stdio: 'inherit' });
if (fmt.status !== 0) {
  console.error('lint:rust: rustfmt would change the files above; run `npm run format`');
  process.exit(1);
}

const clippy = spawnSync(
  process.execPath,
  [
    join(__dirname, 'cargo-host.js'),
    'clippy',
    '--workspace',
    '--all-targets',
    '--release',
    '--message-format=json-diagnostic-rendered-ansi',
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
let findings = 0;
for (const line of clippy.stdout.split('\n')) {
  if (!line.startsWith('{')) continue;
  const message = JSON.parse(line);
  if (message.reason !== 'compiler-message') continue;
  const { level, rendered } = message.message;
  // Summaries ("`x` generated 3 warnings") carry no span; the findings themselves do.
  if ((level === 'warning' || level === 'error') && message.message.spans.length > 0) {
    findings++;
    process.stderr.write(rendered);
  }
}
if (clippy.status !== 0 || findings > 0) {
  console.error(`lint:rust: clippy reported ${findings} finding(s)${clippy.status !== 0 ? ' and failed' : ''}`);
  process.exit(1);
}
console.log('lint:rust: rustfmt and clippy clean');
