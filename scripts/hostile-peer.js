'use strict';
// The hostile gossip peer (crates/ledger-sync/examples/hostile_peer): where its binary is,
// built when it is not there yet. `npm run test:rust` builds it already (cargo test builds
// every example); `npm run bench:hostile` and the five-node e2e test
// (test/e2e/network.test.ts) run it. It is built with the package selection of every other
// cargo command of the repository: another selection would unify build features
// differently and rebuild RocksDB.

const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const PACKAGES = ['ledger-core', 'ledger-store', 'ledger-gossip', 'ledger-sync', 'ledger-napi', 'ledger-inx'];

/** The binary's path: HOSTILE_PEER_BIN, else the one cargo builds, built now if missing. */
function hostilePeerBinary() {
  if (process.env.HOSTILE_PEER_BIN) return process.env.HOSTILE_PEER_BIN;
  const host = /^host: (.+)$/m.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8' }))[1];
  const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
  const binary = join(target, host, 'release', 'examples', 'hostile_peer');
  if (existsSync(binary)) return binary;
  const built = spawnSync(
    process.execPath,
    [
      join(root, 'scripts/cargo-host.js'),
      'build',
      ...PACKAGES.flatMap((p) => ['-p', p]),
      '--release',
      '--example',
      'hostile_peer',
    ],
    { stdio: 'inherit', cwd: root },
  );
  if (built.status !== 0) throw new Error('building the hostile_peer example failed');
  return binary;
}

module.exports = { hostilePeerBinary };
