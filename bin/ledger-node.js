#!/usr/bin/env node
'use strict';
require('../dist/cli.js')
  .main(process.argv.slice(2))
  .catch((err) => {
    console.error(`ledger-node: ${err.message}`);
    process.exitCode = 1;
  });
