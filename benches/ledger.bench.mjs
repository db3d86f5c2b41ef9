// Confirmed value transfers per second through one node: `npm run bench:ledger
// [-- --transactions 5120 --chains 7 --pow 1]`.
//
// Starts bin/ledger-node.js as a child process (minPowScore 1, a milestone every second,
// temporary data directory), fans the genesis output out into 128 and then into
// ≥ --transactions outputs, and pre-signs one transfer per output. Each transfer goes in a
// block whose parents and nonce are set here: the blocks form --chains independent chains
// (each block's parents are the previous two blocks of its chain, the first ones start
// from the node's tips), so every submission's parents are already known. The coordinator
// references up to 7 tips per milestone (D21), so 7 chains are all confirmed by every
// milestone. The nonces are mined from fresh tips just before the run: a chain whose roots
// are more than 8 milestones old when it arrives is lazy and never confirmed (ledger.md §5).
// Measured from the first submission: submitted blocks per second, confirmed transactions
// per second until the last one is included (seen in the milestones' utxo-changes, polled
// every 25 ms), and the submit → included latency; and, from the node's metrics, the time
// milestones spent in white flag and in their atomic commit during the run, per milestone
// that carried bench transactions. `--indexer 0` runs the node with --no-indexer.
// Prints figures, asserts nothing.
// The node and the load (fan-out, signing, mining, submission) live in ledger-load.mjs,
// which bench:events shares.

import { arg } from './measure.mjs';
import { BenchNode, core, percentile, prepareLoad, sleep, submitLoad } from './ledger-load.mjs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const { issueToken } = createRequire(import.meta.url)('../dist/jwt-secret.js');

const TRANSACTIONS = arg('transactions', 5120);
const CHAINS = arg('chains', 7);
const POW = arg('pow', 1);
const INDEXER = arg('indexer', 1) !== 0;
const JWT_SECRET = 'ledger-node bench';
const RUN_LIMIT_MS = 115_000;
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Seconds milestones spent per phase (white flag, commit) so far, from /metrics. */
async function milestoneSeconds(node) {
  const token = await issueToken(JWT_SECRET);
  const text = await (await fetch(`${node.base}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
  const sum = (phase) => Number(new RegExp(`^ledger_node_milestone_duration_seconds_sum\\{phase="${phase}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { confirm: sum('confirm'), commit: sum('commit') };
}

async function main() {
  const node = await BenchNode.start({ pow: POW, args: ['--jwt-secret', JWT_SECRET, ...(INDEXER ? [] : ['--no-indexer'])] });
  const getJson = (path) => node.getJson(path);
  const http = (method, path) => node.http(method, path);
  const limit = setTimeout(() => {
    console.error(`run time limit of ${RUN_LIMIT_MS / 1000} s reached`);
    node.child.kill('SIGKILL');
    process.exit(1);
  }, RUN_LIMIT_MS - (performance.now() - started));
  try {
    console.log(`node up after ${elapsed()} (minPowScore ${POW}, milestone every 1 s, ${core.powInfo().engine} miner, indexer ${INDEXER ? 'on' : 'off'})`);

    // 1.–2. Fan-out, signed transfers, their blocks mined in chains (ledger-load.mjs).
    const { chains, signSeconds, mineSeconds } = await prepareLoad(node, { transactions: TRANSACTIONS, chains: CHAINS }, (line) => console.log(`${line} after ${elapsed()}`));
    const all = chains.flat();
    const byInput = new Map(all.map((t) => [t.input, t]));
    console.log(`${all.length} transfers signed in ${signSeconds.toFixed(1)} s, their blocks mined in ${mineSeconds.toFixed(1)} s (${Math.round(all.length / mineSeconds)}/s)`);

    // 3. Submit, and watch the milestones' utxo-changes for the spent inputs.
    let seenIndex = (await getJson('/api/core/v2/info')).status.latestMilestone.index;
    let included = 0;
    let lastIncludedAt = 0;
    let done = false;
    const milestonesSeen = [];
    const watcher = (async () => {
      while (!done) {
        const latest = (await getJson('/api/core/v2/info')).status.latestMilestone.index;
        for (let index = seenIndex + 1; index <= latest; index++) {
          const changes = await getJson(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
          const now = performance.now();
          let count = 0;
          for (const id of changes.consumedOutputs) {
            const t = byInput.get(id);
            if (t && t.includedAt === undefined) {
              t.includedAt = now;
              included++;
              count++;
              lastIncludedAt = now;
            }
          }
          milestonesSeen.push({ index, transactions: count });
        }
        seenIndex = latest;
        if (included === all.length) return;
        await sleep(25);
      }
    })();
    const phasesBefore = await milestoneSeconds(node);
    const { submitStart, submitEnd } = await submitLoad(node, chains);
    const deadline = Date.now() + Math.max(5_000, RUN_LIMIT_MS - (performance.now() - started) - 5_000);
    // Stop early when nothing more is confirmed for 10 s (lazy chains are never picked).
    while (included < all.length && Date.now() < deadline && performance.now() - Math.max(submitEnd, lastIncludedAt) < 10_000) await sleep(50);
    done = true;
    await watcher;
    const phasesAfter = await milestoneSeconds(node);

    if (included < all.length) {
      // Why not: the node's milestones and the state of each chain's first and last block.
      const { status } = await getJson('/api/core/v2/info');
      console.log(`latest milestone ${status.latestMilestone.index} at ${status.latestMilestone.timestamp} (now ${Math.floor(Date.now() / 1000)}), ${milestonesSeen.length} milestones seen during the run`);
      console.log(`tips: ${JSON.stringify((await getJson('/api/core/v2/tips')).tips)}`);
      for (const [c, chain] of chains.entries()) {
        for (const t of [chain[0], chain[chain.length - 1]]) {
          console.log(`chain ${c} ${t === chain[0] ? 'first' : 'last'} ${t.blockId}: ${(await http('GET', `/api/core/v2/blocks/${t.blockId}/metadata`)).text}`);
        }
      }
    }
    const latencies = all.filter((t) => t.includedAt !== undefined).map((t) => t.includedAt - t.submittedAt).sort((x, y) => x - y);
    const acks = all.map((t) => t.acknowledgedAt - t.submittedAt).sort((x, y) => x - y);
    const submitSeconds = (submitEnd - submitStart) / 1000;
    const confirmSeconds = (lastIncludedAt - submitStart) / 1000;
    const used = milestonesSeen.filter((m) => m.transactions > 0);
    console.log(`\n${all.length} transfers in ${CHAINS} chains, ${used.length} milestones with bench transactions (most: ${Math.max(0, ...used.map((m) => m.transactions))})\n`);
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| submitted blocks/s (first submit → last 201) | ${Math.round(all.length / submitSeconds)} |`);
    console.log(`| submit response p50 / p99 ms | ${percentile(acks, 50).toFixed(1)} / ${percentile(acks, 99).toFixed(1)} |`);
    console.log(`| included transactions | ${included} of ${all.length} |`);
    console.log(`| confirmed tx/s (first submit → last included) | ${included === all.length ? Math.round(included / confirmSeconds) : 'incomplete'} |`);
    console.log(`| latency submit → included p50 / p99 ms | ${Math.round(percentile(latencies, 50))} / ${Math.round(percentile(latencies, 99))} |`);
    // Time of every milestone of the run over the milestones that carried bench transactions
    // (the empty ones in between take well under a millisecond).
    const perMilestone = (phase) => (((phasesAfter[phase] - phasesBefore[phase]) * 1000) / Math.max(1, used.length)).toFixed(1);
    console.log(`| milestone commit ms (per milestone with transactions) | ${perMilestone('commit')} |`);
    console.log(`| milestone white flag ms (per milestone with transactions) | ${perMilestone('confirm')} |`);
    console.log(`| whole run | ${elapsed()} |`);
  } finally {
    clearTimeout(limit);
    await node.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
