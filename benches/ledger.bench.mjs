// Confirmed value transfers per second through one node: `npm run bench:ledger
// [-- --transactions 49152 --chains 64 --pow 0]` (the defaults: enough concurrent clients
// and load to show the node's rate, issue 14 item 3); the quick run of earlier figures:
// `npm run bench:ledger -- --transactions 5120 --chains 7 --pow 1`.
//
// Starts bin/ledger-node.js as a child process (minPowScore --pow, a milestone every second,
// temporary data directory), fans the genesis output out (128, 128 × 128, …) into
// ≥ --transactions outputs, and pre-signs one transfer per output. Each transfer goes in a
// block whose parents and nonce are set here: the blocks form --chains independent chains
// (each block's parents are the previous two blocks of its chain, the first ones start
// from the node's tips), so every submission's parents are already known. A milestone
// approves 7 tips; beyond 7 chains the coordinator's checkpoints approve the rest (up to
// 63 chains a milestone, docs/coordinator.md). The nonces are mined from fresh tips just
// before the run: a chain whose roots are more than 8 milestones old when it arrives is
// lazy and never confirmed (ledger.md §5); with --pow 1 that mining (about 1 ms a block
// through the miner) limits a run to about 7,000 transactions, --pow 0 has none.
// Measured from the first submission: submitted blocks per second, confirmed transactions
// per second until the last one is included (seen in the milestones' utxo-changes, polled
// every 25 ms) and from milestone to milestone while the load lasts, and the submit →
// included latency; and, from the node's metrics, the time milestones spent in white flag
// and in their atomic commit during the run, per milestone that carried bench
// transactions. `--indexer 0` runs the node with --no-indexer.
// Then a profile of the run (issue 14 item 3): the time of each stage — HTTP intake, store
// intake, white flag (with the signature checks estimated from a verify timing taken
// here), milestone commit, the coordinator's cadence — from the node's histograms, beside
// the CPU the node and this load generator used.
// With pruning (issue 23): by default the run is made --rounds times in pairs, alternating a
// node without pruning and a node with Hornet's milestone pruning (`pruning.milestones`,
// `maxMilestonesToKeep` --keep, default 20: the node never prunes closer than belowMaxDepth
// + 5 = 20 milestones to the confirmed one, and a run needs 16 milestones above the pruning
// index, so pruning runs every 16 milestones). Both nodes start their load at the same
// milestone, chosen 3 milestones before a pruning run falls due, so that pruning works
// during the measurement; how far the pruning index moved while the load lasted is printed. After
// each run: the data directory's bytes on disk per confirmed transfer (a `du` of it ÷ the
// run's transfers), and with pruning also once the pruning index has passed the run's last
// milestone. Then the confirmed tx/s of each mode and the ratio pruning ÷ none (target ≥
// 0.90). `--pruning 0`: one run without pruning, as before.
// Prints figures, asserts nothing.
// The node and the load (fan-out, signing, mining, submission) live in ledger-load.mjs,
// which bench:events shares.

import { arg, dirSizes, median, mib } from './measure.mjs';
import { BenchNode, core, percentile, prepareLoad, sleep, submitLoad } from './ledger-load.mjs';
import { createRequire } from 'node:module';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const { issueToken } = createRequire(import.meta.url)('../dist/jwt-secret.js');

const TRANSACTIONS = arg('transactions', 49_152);
const CHAINS = arg('chains', 64);
const POW = arg('pow', 0);
const INDEXER = arg('indexer', 1) !== 0;
const PRUNING = arg('pruning', 1) !== 0;
const KEEP = arg('keep', 20);
const ROUNDS = arg('rounds', 1);
const JWT_SECRET = 'ledger-node bench';
const RUN_LIMIT_MS = 180_000;
// Hornet's rules as the node keeps them (docs/configuration.md#pruning): never within
// belowMaxDepth + 5 of the confirmed milestone, and a run only with 16 milestones to prune.
const PRUNE_FLOOR = 20;
const PRUNE_STEP = 16;
const LEAD = 3;
let started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Sums and counts of the node's timing histograms so far (from /metrics), and its CPU seconds (from /proc). */
async function stageTimes(node) {
  const token = await issueToken(JWT_SECRET);
  const text = await (await fetch(`${node.base}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
  const line = (prefix) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(prefix + ' '))
        ?.slice(prefix.length + 1) ?? NaN,
    );
  const histogram = (name, labels = '') => ({
    sum: line(`${name}_sum${labels}`),
    count: line(`${name}_count${labels}`),
  });
  let cpu = NaN;
  try {
    const fields = readFileSync(`/proc/${node.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    // not Linux: no CPU figure
  }
  return {
    confirm: histogram('ledger_node_milestone_duration_seconds', '{phase="confirm"}'),
    commit: histogram('ledger_node_milestone_duration_seconds', '{phase="commit"}'),
    intake: histogram('ledger_node_store_intake_duration_seconds'),
    post: histogram('ledger_node_http_request_duration_seconds', '{route="/api/core/v2/blocks"}'),
    cpu,
  };
}

/** Microseconds to verify one Ed25519 signature here (the white flag checks one per transfer). */
function verifyMicros() {
  const seed = '0x' + '42'.repeat(32);
  const key = core.publicKey(seed);
  const message = '0x' + '17'.repeat(32);
  const signature = core.sign(seed, message);
  for (let i = 0; i < 200; i++) core.verify(key, message, signature);
  const n = 3000;
  const start = performance.now();
  for (let i = 0; i < n; i++) core.verify(key, message, signature);
  return ((performance.now() - start) * 1000) / n;
}

/** The first milestone ≥ `from` at which to start the load: LEAD before a pruning run falls due. */
function loadStartIndex(from) {
  const keep = Math.max(KEEP, PRUNE_FLOOR);
  for (let k = 1; ; k++) if (keep + PRUNE_STEP * k - LEAD >= from) return keep + PRUNE_STEP * k - LEAD;
}

/** One run on a fresh node; `keep` > 0 prunes. Prints the run's figures and returns the main ones. */
async function runOnce(keep) {
  started = performance.now();
  let configFile;
  const extra = [];
  if (keep > 0) {
    configFile = `${process.env.TMPDIR ?? '/tmp'}/ledger-node-bench-pruning-${process.pid}.json`;
    writeFileSync(
      configFile,
      JSON.stringify({ pruning: { milestones: { enabled: true, maxMilestonesToKeep: keep } } }),
    );
    extra.push('--config', configFile);
  }
  const node = await BenchNode.start({
    pow: POW,
    args: ['--jwt-secret', JWT_SECRET, ...(INDEXER ? [] : ['--no-indexer']), ...extra],
  });
  const getJson = (path) => node.getJson(path);
  const http = (method, path) => node.http(method, path);
  const limit = setTimeout(
    () => {
      console.error(`run time limit of ${RUN_LIMIT_MS / 1000} s reached`);
      node.child.kill('SIGKILL');
      process.exit(1);
    },
    RUN_LIMIT_MS - (performance.now() - started),
  );
  try {
    console.log(
      `node up after ${elapsed()} (minPowScore ${POW}, milestone every 1 s, ${core.powInfo().engine} miner, indexer ${INDEXER ? 'on' : 'off'}, ` +
        `${keep > 0 ? `pruning: keep ${keep} milestones` : 'no pruning'})`,
    );
    // With --pruning, both modes start the load at the same milestone, LEAD before a run is due.
    const beforeMining = PRUNING
      ? async () => {
          const confirmed = (await getJson('/api/core/v2/info')).status.confirmedMilestone.index;
          const target = loadStartIndex(confirmed + 1);
          while ((await getJson('/api/core/v2/info')).status.confirmedMilestone.index < target) await sleep(50);
          const { status } = await getJson('/api/core/v2/info');
          console.log(
            `load starts at confirmed milestone ${status.confirmedMilestone.index} (pruning index ${status.pruningIndex}) after ${elapsed()}`,
          );
        }
      : undefined;

    // 1.–2. Fan-out, signed transfers, their blocks mined in chains (ledger-load.mjs).
    const { chains, signSeconds, mineSeconds } = await prepareLoad(
      node,
      { transactions: TRANSACTIONS, chains: CHAINS, beforeMining },
      (line) => console.log(`${line} after ${elapsed()}`),
    );
    const all = chains.flat();
    const byInput = new Map(all.map((t) => [t.input, t]));
    console.log(
      `${all.length} transfers signed in ${signSeconds.toFixed(1)} s, their blocks mined in ${mineSeconds.toFixed(1)} s (${Math.round(all.length / mineSeconds)}/s)`,
    );

    // 3. Submit, and watch the milestones' utxo-changes for the spent inputs.
    let seenIndex = (await getJson('/api/core/v2/info')).status.latestMilestone.index;
    let included = 0;
    let lastIncludedAt = 0;
    let done = false;
    const milestonesSeen = [];
    /** Pruning index changes seen while watching: { at, from, to }. */
    const pruningRuns = [];
    let pruningIndex = (await getJson('/api/core/v2/info')).status.pruningIndex;
    const watcher = (async () => {
      while (!done) {
        const { status } = await getJson('/api/core/v2/info');
        const latest = status.latestMilestone.index;
        if (status.pruningIndex !== pruningIndex) {
          pruningRuns.push({ at: performance.now(), from: pruningIndex, to: status.pruningIndex });
          pruningIndex = status.pruningIndex;
        }
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
          milestonesSeen.push({ index, transactions: count, seenAt: now });
        }
        seenIndex = latest;
        if (included === all.length) return;
        await sleep(25);
      }
    })();
    const before = await stageTimes(node);
    const loadCpuBefore = process.cpuUsage();
    const { submitStart, submitEnd } = await submitLoad(node, chains);
    const loadCpu = process.cpuUsage(loadCpuBefore);
    const deadline = Date.now() + Math.max(5_000, RUN_LIMIT_MS - (performance.now() - started) - 5_000);
    // Stop early when nothing more is confirmed for 10 s (lazy chains are never picked).
    while (
      included < all.length &&
      Date.now() < deadline &&
      performance.now() - Math.max(submitEnd, lastIncludedAt) < 10_000
    )
      await sleep(50);
    done = true;
    await watcher;
    const after = await stageTimes(node);
    clearTimeout(limit);

    if (included < all.length) {
      // Why not: the node's milestones and the state of each chain's first and last block.
      const { status } = await getJson('/api/core/v2/info');
      console.log(
        `latest milestone ${status.latestMilestone.index} at ${status.latestMilestone.timestamp} (now ${Math.floor(Date.now() / 1000)}), ${milestonesSeen.length} milestones seen during the run`,
      );
      console.log(`tips: ${JSON.stringify((await getJson('/api/core/v2/tips')).tips)}`);
      for (const [c, chain] of chains.entries()) {
        for (const t of [chain[0], chain[chain.length - 1]]) {
          console.log(
            `chain ${c} ${t === chain[0] ? 'first' : 'last'} ${t.blockId}: ${(await http('GET', `/api/core/v2/blocks/${t.blockId}/metadata`)).text}`,
          );
        }
      }
    }
    const latencies = all
      .filter((t) => t.includedAt !== undefined)
      .map((t) => t.includedAt - t.submittedAt)
      .sort((x, y) => x - y);
    const acks = all.map((t) => t.acknowledgedAt - t.submittedAt).sort((x, y) => x - y);
    const submitSeconds = (submitEnd - submitStart) / 1000;
    const confirmSeconds = (lastIncludedAt - submitStart) / 1000;
    const used = milestonesSeen.filter((m) => m.transactions > 0);
    console.log(
      `\n${all.length} transfers in ${CHAINS} chains, ${used.length} milestones with bench transactions (most: ${Math.max(0, ...used.map((m) => m.transactions))})\n`,
    );
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| submitted blocks/s (first submit → last 201) | ${Math.round(all.length / submitSeconds)} |`);
    console.log(
      `| submit response p50 / p99 ms | ${percentile(acks, 50).toFixed(1)} / ${percentile(acks, 99).toFixed(1)} |`,
    );
    console.log(`| included transactions | ${included} of ${all.length} |`);
    console.log(
      `| confirmed tx/s (first submit → last included) | ${included === all.length ? Math.round(included / confirmSeconds) : 'incomplete'} |`,
    );
    // The rate while the load lasts, from milestone to milestone: the transactions of every
    // milestone after the first one seen during the submission, over the time between the
    // first and the last of those (it leaves out the start, and the wait for the milestone
    // after the last submission that the figure above includes).
    const during = used.filter((m) => m.seenAt <= submitEnd);
    const sustained =
      during.length >= 2
        ? during.slice(1).reduce((n, m) => n + m.transactions, 0) /
          ((during[during.length - 1].seenAt - during[0].seenAt) / 1000)
        : NaN;
    console.log(
      `| confirmed tx/s while submitting (milestone to milestone, ${Math.max(0, during.length - 1)} intervals) | ${Number.isNaN(sustained) ? 'too short a run' : Math.round(sustained)} |`,
    );
    console.log(
      `| latency submit → included p50 / p99 ms | ${Math.round(percentile(latencies, 50))} / ${Math.round(percentile(latencies, 99))} |`,
    );
    // Time of every milestone of the run over the milestones that carried bench transactions
    // (the empty ones in between take well under a millisecond).
    const delta = (stage) => ({
      sum: after[stage].sum - before[stage].sum,
      count: after[stage].count - before[stage].count,
    });
    const perMilestone = (stage) => ((delta(stage).sum * 1000) / Math.max(1, used.length)).toFixed(1);
    console.log(`| milestone commit ms (per milestone with transactions) | ${perMilestone('commit')} |`);
    console.log(`| milestone white flag ms (per milestone with transactions) | ${perMilestone('confirm')} |`);
    console.log(`| whole run | ${elapsed()} |`);

    // Where the time goes, first submission → last inclusion (T). The submit requests run
    // concurrently (their time is in request-seconds: the mean number in flight is sum / T);
    // the milestone phases run one after the other on a libuv thread, so their share of T
    // is the share of the run the coordinator's thread spent there; the rest of a milestone
    // interval is the coordinator's cadence (waiting for the next tick).
    const T = confirmSeconds;
    const sigMicros = verifyMicros();
    const confirm = delta('confirm');
    const commit = delta('commit');
    const intake = delta('intake');
    const post = delta('post');
    const signatures = (included * sigMicros) / 1e6;
    const milestonesInRun = Math.max(1, Math.round(T)); // one a second
    const cadence = Math.max(0, T - confirm.sum - commit.sum);
    const pct = (x) => `${((100 * x) / T).toFixed(1)} %`;
    const loadSeconds = (loadCpu.user + loadCpu.system) / 1e6;
    console.log(
      '\nWhere the time goes (T = first submission → last inclusion = ' +
        T.toFixed(2) +
        ' s; node CPU ' +
        (after.cpu - before.cpu).toFixed(1) +
        ' s = ' +
        ((after.cpu - before.cpu) / T).toFixed(2) +
        ' cores; this load generator ' +
        loadSeconds.toFixed(1) +
        ' s = ' +
        (loadSeconds / submitSeconds).toFixed(2) +
        ' cores while submitting)\n',
    );
    console.log('| stage | seconds | share of T | per unit |');
    console.log('|---|---|---|---|');
    console.log(
      `| HTTP intake: POST /blocks requests, end to end (concurrent) | ${post.sum.toFixed(2)} request-s | ${(post.sum / T).toFixed(1)} in flight | ${((1000 * post.sum) / Math.max(1, post.count)).toFixed(2)} ms a request |`,
    );
    console.log(
      `| store intake: batching, validation, RocksDB write (concurrent, inside the above) | ${intake.sum.toFixed(2)} request-s | ${(intake.sum / T).toFixed(1)} in flight | ${((1000 * intake.sum) / Math.max(1, intake.count)).toFixed(2)} ms a block |`,
    );
    console.log(
      `| HTTP layer alone (request minus store intake) | ${(post.sum - intake.sum).toFixed(2)} request-s | ${((post.sum - intake.sum) / T).toFixed(1)} in flight | ${((1000 * (post.sum - intake.sum)) / Math.max(1, post.count)).toFixed(2)} ms a request |`,
    );
    console.log(
      `| milestone white flag (walk, UTXO reads, checks) | ${confirm.sum.toFixed(2)} | ${pct(confirm.sum)} | ${((1000 * confirm.sum) / Math.max(1, used.length)).toFixed(1)} ms a milestone with transactions |`,
    );
    console.log(
      `| … of which signature checks (estimated: ${included} × ${sigMicros.toFixed(1)} µs measured here) | ${signatures.toFixed(2)} | ${pct(signatures)} | ${sigMicros.toFixed(1)} µs a transfer |`,
    );
    console.log(
      `| milestone commit (one RocksDB batch) | ${commit.sum.toFixed(2)} | ${pct(commit.sum)} | ${((1000 * commit.sum) / Math.max(1, used.length)).toFixed(1)} ms a milestone with transactions |`,
    );
    console.log(
      `| coordinator cadence (between milestones: 1 s interval, ${milestonesInRun} milestones) | ${cadence.toFixed(2)} | ${pct(cadence)} | |`,
    );

    // Pruning during the measurement, and the data directory per confirmed transfer.
    const inLoad = pruningRuns.filter((r) => r.at >= submitStart && r.at <= lastIncludedAt);
    // A pruning run moves the index in bounded steps: every step seen while the load lasted.
    if (keep > 0)
      console.log(
        `\npruning while the load lasted (first submission → last inclusion): ` +
          (inLoad.length
            ? `the pruning index advanced ${inLoad[0].from} → ${inLoad[inLoad.length - 1].to} in ${inLoad.length} steps`
            : 'none') +
          `; pruning index ${pruningIndex} at the end`,
      );
    // On disk (allocated, as du counts: RocksDB preallocates its write-ahead log) and the files' lengths.
    const perTransfer = (bytes) => Math.round(bytes / Math.max(1, included));
    const sizesEnd = dirSizes(node.dataDir);
    const bytesEnd = sizesEnd.disk;
    console.log(
      `data directory after the run: ${mib(bytesEnd)} MiB on disk, ${perTransfer(bytesEnd)} bytes per confirmed transfer (${included}); ` +
        `files ${mib(sizesEnd.apparent)} MiB, ${perTransfer(sizesEnd.apparent)} bytes per transfer`,
    );
    let bytesPruned = NaN;
    let apparentPruned = NaN;
    if (keep > 0 && used.length > 0) {
      // Wait until pruning has passed the run's last milestone with transfers (at most 90 s).
      const last = used[used.length - 1].index;
      const until = Date.now() + 90_000;
      let status;
      while ((status = (await getJson('/api/core/v2/info')).status).pruningIndex < last && Date.now() < until)
        await sleep(250);
      const sizes = dirSizes(node.dataDir);
      bytesPruned = sizes.disk;
      apparentPruned = sizes.apparent;
      console.log(
        `data directory once the pruning index (${status.pruningIndex}) passed the run's last milestone (${last}): ` +
          `${mib(bytesPruned)} MiB on disk, ${perTransfer(bytesPruned)} bytes per confirmed transfer; ` +
          `files ${mib(sizes.apparent)} MiB, ${perTransfer(sizes.apparent)} bytes per transfer`,
      );
    }
    return {
      keep,
      complete: included === all.length,
      confirmedTps: included / confirmSeconds,
      sustained,
      bytesEnd,
      bytesPruned,
      apparentEnd: sizesEnd.apparent,
      apparentPruned,
      included,
      prunedInLoad: inLoad.length ? `${inLoad[0].from} → ${inLoad[inLoad.length - 1].to}` : 'none',
    };
  } finally {
    clearTimeout(limit);
    await node.stop();
    if (configFile) rmSync(configFile, { force: true });
  }
}

async function main() {
  if (!PRUNING) {
    await runOnce(0);
    return;
  }
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const keep of [0, KEEP]) {
      console.log(`\n=== round ${round} of ${ROUNDS}: ${keep > 0 ? `pruning, keep ${keep}` : 'no pruning'} ===`);
      runs.push(await runOnce(keep));
    }
  }
  const of = (pruned) => runs.filter((r) => r.keep > 0 === pruned);
  const med = (list, key) => median(list.map((r) => r[key]));
  const none = of(false);
  const pruned = of(true);
  console.log(
    `\nbench:ledger, pruning against none: ${ROUNDS} alternating pair(s), medians; keep ${KEEP} milestones\n`,
  );
  console.log('| measure | no pruning | pruning | pruning ÷ none |');
  console.log('|---|---|---|---|');
  const row = (label, key, digits = 0) => {
    const a = med(none, key);
    const b = med(pruned, key);
    console.log(`| ${label} | ${a.toFixed(digits)} | ${b.toFixed(digits)} | ${(b / a).toFixed(2)} |`);
  };
  row('confirmed tx/s (first submit → last included)', 'confirmedTps');
  row('confirmed tx/s while submitting (milestone to milestone)', 'sustained');
  const perTx = (r, key) => r[key] / Math.max(1, r.included);
  const perTxRow = (label, endKey, prunedKey) => {
    const a = median(none.map((r) => perTx(r, endKey)));
    const b = median(pruned.map((r) => perTx(r, endKey)));
    const c = median(pruned.map((r) => perTx(r, prunedKey)));
    console.log(`| ${label}, right after the run | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)} |`);
    console.log(
      `| … once pruning passed the run's milestones | ${a.toFixed(0)} | ${c.toFixed(0)} | ${(c / a).toFixed(2)} |`,
    );
  };
  perTxRow('data dir bytes on disk per confirmed transfer', 'bytesEnd', 'bytesPruned');
  perTxRow("data dir files' bytes per confirmed transfer", 'apparentEnd', 'apparentPruned');
  console.log(
    `\nratio of confirmed tx/s, pruning ÷ none: ${(med(pruned, 'confirmedTps') / med(none, 'confirmedTps')).toFixed(2)} (target ≥ 0.90); ` +
      `pruning index during the load: ${pruned.map((r) => r.prunedInLoad).join(', ')}; ` +
      `incomplete runs: ${runs.filter((r) => !r.complete).length}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
