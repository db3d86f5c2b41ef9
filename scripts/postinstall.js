'use strict';
// In a source checkout (Cargo.toml beside package.json) `npm install` builds the native
// addon in release mode and compiles the TypeScript, so that `npm start` works right after.
// An installed package has neither Cargo.toml nor a need to build: its binary comes from
// the platform package and its JavaScript is shipped in dist/.
// The native build runs in scripts/native-env.js's environment, which checks the
// toolchain and provides libclang first: a missing piece ends the install at once, with
// one line naming the command that fixes it.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
if (!existsSync(join(root, 'Cargo.toml'))) process.exit(0);
if (process.env.LEDGER_NODE_SKIP_BUILD === '1') process.exit(0);

for (const script of ['build:native', 'build:ts']) {
  const r = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
