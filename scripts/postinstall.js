'use strict';
// In a source checkout (Cargo.toml beside package.json) `npm install` builds the native
// addon in release mode and compiles the TypeScript, so that `npm start` works right after.
// An installed package has neither Cargo.toml nor a need to build: its binary comes from
// the platform package and its JavaScript is shipped in dist/.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
if (!existsSync(join(root, 'Cargo.toml'))) process.exit(0);
if (process.env.LEDGER_NODE_SKIP_BUILD === '1') process.exit(0);

const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit' });
run('npm run build:native');
run('npm run build:ts');
