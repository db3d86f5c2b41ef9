// The faucet under load: `npm run bench:faucet [-- --duration 5 --connections 10]`.
//
// A dev-network node (bin/ledger-node.js, its own process, 1 s milestones, the rate limit
// and cool-down lifted) takes POST /api/faucet/v1/enqueue with a new address on every
// request from autocannon for --duration seconds; GET /api/faucet/v1/info and the node's
// own GET /api/core/v2/info run the same way as references. Reported: requests/s and
// client p50/p99 of each, and the enqueue rate as a share of the core info route. Then
// the payout: how many milestones and seconds until the last accepted address holds its
// output, counted from the first request (127 recipients per transaction, one transaction
// per milestone), i.e. recipients paid per second.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeProcess } from './node-process.mjs';
import { arg, fmt, table } from './measure.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../dist/index.js');

const DURATION = arg('duration', 5);
const CONNECTIONS = arg('connections', 10);

async function startNode(dataDir) {
  const config = join(dataDir, 'bench-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      faucet: {
        amount: 1_000_000,
        cooldown: 0,
        maxQueueSize: 10_000_000,
        rateLimit: { maxRequests: 1_000_000_000, period: 1, maxBurst: 1_000_000_000 },
      },
    }),
  );
  return startNodeProcess(
    dataDir,
    ['--min-pow-score', '1', '--milestone-interval', '1', '--log-level', 'warn', '--config', config],
    { readyPath: '/api/faucet/v1/info' },
  );
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, pipelining: 1, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const addressOf = (i) =>
  core.bech32Encode('tst', {
    type: 0,
    pubKeyHash: '0x' + createHash('sha256').update(`faucet bench ${i}`).digest('hex'),
  });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-faucet-bench-'));
  const node = await startNode(dataDir);
  try {
    const latest = async () =>
      (await (await fetch(`${node.url}/api/core/v2/info`)).json()).status.latestMilestone.index;
    await cannon({ url: `${node.url}/api/core/v2/info`, duration: 1 }); // warm-up
    const coreInfo = await cannon({ url: `${node.url}/api/core/v2/info` });
    const faucetInfo = await cannon({ url: `${node.url}/api/faucet/v1/info` });
    let next = 0;
    let last;
    const startIndex = await latest();
    const started = Date.now();
    const enqueue = await cannon({
      url: node.url,
      requests: [
        {
          method: 'POST',
          path: '/api/faucet/v1/enqueue',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ address: (last = addressOf(next++)) }) }),
        },
      ],
    });
    const accepted = enqueue['2xx'];
    for (;;) {
      const { items } = await (await fetch(`${node.url}/api/indexer/v1/outputs/basic?address=${last}`)).json();
      if (items.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    const milestones = (await latest()) - startIndex;
    console.log(
      `faucet bench: ${CONNECTIONS} connections, ${DURATION} s per run, 1 s milestones (figures under whatever else the machine runs)\n`,
    );
    table(
      ['route', 'requests/s', 'p50 ms', 'p99 ms', 'vs core info'],
      [
        [
          'GET /api/core/v2/info (reference)',
          fmt(coreInfo.requests.average),
          String(coreInfo.latency.p50),
          String(coreInfo.latency.p99),
          '1.00',
        ],
        [
          'GET /api/faucet/v1/info',
          fmt(faucetInfo.requests.average),
          String(faucetInfo.latency.p50),
          String(faucetInfo.latency.p99),
          (faucetInfo.requests.average / coreInfo.requests.average).toFixed(2),
        ],
        [
          'POST /api/faucet/v1/enqueue (new address each)',
          fmt(enqueue.requests.average),
          String(enqueue.latency.p50),
          String(enqueue.latency.p99),
          (enqueue.requests.average / coreInfo.requests.average).toFixed(2),
        ],
      ],
    );
    const non2xx = enqueue.non2xx;
    console.log(
      `accepted ${accepted} requests (${non2xx} refused); all paid ${seconds.toFixed(1)} s after the first one, over ${milestones} milestones: ${fmt(accepted / seconds)} recipients/s, ${(accepted / Math.max(1, milestones)).toFixed(0)} per milestone (at most 127)`,
    );
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
