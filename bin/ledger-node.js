#!/usr/bin/env node
'use strict';
let cli;
try {
  cli = require('../dist/cli.js');
} catch (err) {
  // The native core could not be loaded (no prebuilt binary for this platform, or a
  // source checkout that was never built): one clear message instead of a stack.
  if (!/Cannot find native binding/.test(String(err?.message))) throw err;
  const platform = `${process.platform}-${process.arch}`;
  const reasons = [];
  for (let e = err.cause; e && reasons.length < 6; e = e.cause) reasons.push(`  - ${String(e.message).split('\n')[0]}`);
  console.error(
    `ledger-node: the native core is not available for ${platform}.\n` +
      `Installed from npm, it comes from the optional package ledger-node-${platform}${process.platform === 'linux' ? '-gnu' : process.platform === 'win32' ? '-msvc' : ''} ` +
      `(reinstall without --omit=optional / --no-optional); in a source checkout, run \`npm run build\`.\n` +
      `Tried:\n${reasons.join('\n')}`,
  );
  process.exit(1);
}
cli.main(process.argv.slice(2)).catch((err) => {
  console.error(`ledger-node: ${err.message}`);
  process.exitCode = 1;
});
