// Joining a network with history: `npm run bench:sync [-- --milestones 10000 --interval 0.1]`
// (issue 23, docs/benchmarks.md). How long a new node takes to be synced, and what the history
// costs on disk. BENCH_PORTS=27000-27999 keeps every port it opens (ours and Hornet's) in a range.
//
// 1. History. A coordinator node (bin/ledger-node.js, a milestone every --interval seconds,
//    default 1; fractions down to 0.1 build a long history quickly; minPowScore 0; genesis
//    style `hornet`, so that Hornet can follow) takes, between milestones, --transfers value transfers and --tagged tagged-data
//    blocks a second (the node selects parents; each transfer spends an output of a pool of
//    128 once a milestone has confirmed the transfer that made it) until its confirmed
//    milestone reaches --milestones. The load then stops; the coordinator goes on issuing.
// 2. Followers, one after the other, each on a fresh data directory, dialing the coordinator
//    over gossip; "synced" is the moment the follower's confirmed milestone reaches the
//    coordinator's confirmed milestone at the follower's start (polled every 100 ms), and the
//    time runs from the start of the follower's process (its start-up included):
//    (a) ours from genesis (warp sync): blocks/s = the coordinator's stored blocks ÷ the time;
//    (H) when Hornet 2.0.1 is there (HORNET_BIN with `hornet`, HORNET_INTEROP with
//        start-hornet-follower.sh, as benches/hornet.mjs): a Hornet follower from the genesis
//        snapshot our coordinator writes (`ledger-node snapshot write`), the same history over
//        the same gossip; the ratio of blocks/s ours ÷ Hornet's (target ≥ 2);
//    (b) ours from a full snapshot the coordinator writes 25 milestones behind its confirmed
//        one (`POST /api/core/v2/control/snapshots/create`; `--snapshot`, i.e.
//        snapshot.loadPath): target < 10 s;
//    (c) ours from genesis with Hornet's milestone pruning (`maxMilestonesToKeep` --keep):
//        once synced and pruned, its data directory (a `du`) ÷ the transfers the history
//        confirmed, beside the same for (a) (no pruning) and for Hornet; every follower's
//        directory is measured after a clean stop, as Hornet's, and also while it runs;
//    (d) ours from genesis without the indexer (`--no-indexer`): the data directory to set
//        beside Hornet's, which keeps no indexer; and (a)'s bytes per column family.
// (a) and (H) run --repeats times (default 3), alternating, after the first (a), (d), (H);
// the ratio is of their median blocks/s. BENCH_ADDONS=/tmp/a.node,/tmp/b.node gives the (a)
// followers these two builds of the addon in turn (NAPI_RS_NATIVE_LIBRARY_PATH): an A/B of
// a change on one history (the other nodes use the checkout's build). The CPU seconds each follower used are printed
// beside its time. --history DIR keeps the history: the first run builds it and copies the
// coordinator's stopped data directory to DIR, later runs with the same DIR start the
// coordinator on a copy of it instead of building (an A/B at 10,000 milestones then takes
// minutes, not 17 of them first); --followers a,d,H,b,c runs only the followers named. Prints figures, asserts
// nothing. With a small --milestones (e.g. 300) the whole run takes a few minutes; the
// history is built in real time, so 10,000 milestones take 2.8 hours to build at 1 s and
// 17 minutes at 0.1 s (timestamps then run ahead of the clock: docs/coordinator.md#cadence).

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { arg, cpuSeconds, dirSizes, listArg, loadAverage, median, mib, table } from './measure.mjs';
import {
  BenchNode,
  benchKey,
  core,
  genesisKey,
  GENESIS_OUTPUT_ID,
  pool,
  sleep,
  split,
  transfer,
} from './ledger-load.mjs';
import { hornetFollowerUnavailable, startHornetFollower, writeGenesisSnapshot } from './hornet.mjs';
import { followerFlags, planNode } from './node-process.mjs';

const require = createRequire(import.meta.url);
const { issueToken } = require('../dist/jwt-secret.js');

const MILESTONES = arg('milestones', 10_000);
const TRANSFERS = arg('transfers', 20);
const TAGGED = arg('tagged', 20);
const KEEP = arg('keep', 20);
const INTERVAL = arg('interval', 1);
const WATCH = arg('watch', 0) !== 0;
const HORNET = arg('hornet', 1) !== 0;
const REPEATS = Math.max(1, arg('repeats', 3));
const FOLLOWERS = new Set(listArg('followers', ['a', 'd', 'H', 'b', 'c']));
const HISTORY = (() => {
  const at = process.argv.indexOf('--history');
  return at > 0 ? process.argv[at + 1] : undefined;
})();
const HISTORY_FACTS = 'bench-sync-history.json';
const POOL = 128;
const SNAPSHOT_DEPTH = 25;
const JWT_SECRET = 'ledger-node bench:sync';
const COORDINATOR_SEED = '0x' + createHash('sha256').update('ledger-node bench:sync coordinator').digest('hex');
const COORDINATOR_PUBLIC_KEY = core.publicKey(COORDINATOR_SEED);
const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const load = loadAverage;

// ---- nodes ----------------------------------------------------------------------------------

const COMMON = ['--jwt-secret', JWT_SECRET, '--no-dashboard', '--no-faucet', '--genesis-style', 'hornet'];

/** The coordinator, on a fresh data directory or on `dataDir` (a kept history's copy). */
async function startCoordinator(dataDir) {
  const p = await planNode('coordinator', dataDir);
  const node = await BenchNode.start({
    pow: 0,
    dataDir: p.dataDir,
    args: [
      ...COMMON,
      '--coordinator-key',
      COORDINATOR_SEED,
      '--milestone-interval',
      String(INTERVAL),
      '--gossip',
      '--p2p-bind',
      p.bind,
    ],
  });
  node.address = p.address;
  return node;
}

/** BENCH_ADDONS=a.node,b.node: the (a) followers take these builds of the addon in turn. */
const ADDONS = (process.env.BENCH_ADDONS ?? '').split(',').filter(Boolean);
let addonTurn = 0;

/** A follower of `coordinator` over gossip; `extra` adds flags (a snapshot, a config file). */
async function startFollower(name, coordinator, extra = []) {
  const p = await planNode(name);
  const addon = name === 'warp' && ADDONS.length > 0 ? ADDONS[addonTurn++ % ADDONS.length] : undefined;
  if (addon !== undefined) console.log(`  addon ${addon}`);
  return BenchNode.start({
    env: addon === undefined ? undefined : { NAPI_RS_NATIVE_LIBRARY_PATH: addon },
    pow: 0,
    dataDir: p.dataDir,
    args: [...COMMON, ...followerFlags(COORDINATOR_PUBLIC_KEY, p.bind, coordinator.address), ...extra],
  });
}

/**
 * A follower's data directory while it runs and once it has shut down cleanly (files and
 * disk of the stopped one, as Hornet's folder is measured after its stop; a running node of
 * ours also holds a write-ahead log, which Hornet does not write).
 */
async function sizesRunningAndStopped(node) {
  const running = dirSizes(node.dataDir);
  await node.halt();
  return { ...dirSizes(node.dataDir), running };
}

async function status(url) {
  const response = await fetch(`${url}/api/core/v2/info`);
  if (response.status !== 200) throw new Error(`GET ${url}/api/core/v2/info: ${response.status}`);
  return (await response.json()).status;
}

async function metricsText(url) {
  const token = await issueToken(JWT_SECRET);
  return (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
}

/** One figure of a node's /metrics: `name` or `name{label="value"}`. */
function figure(text, name) {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.slice(name.length + 1) ?? NaN);
}

async function metric(node, name) {
  return figure(await metricsText(node.base), name);
}

/** A node's RocksDB column families and their approximate sizes on disk, largest first. */
async function familySizes(node) {
  const pattern = /^ledger_node_rocksdb_family_size_bytes\{family="([^"]+)"\} (\d+)/;
  const sizes = [];
  for (const line of (await metricsText(node.base)).split('\n')) {
    const m = pattern.exec(line);
    if (m) sizes.push({ family: m[1], bytes: Number(m[2]) });
  }
  return sizes.sort((x, y) => y.bytes - x.bytes);
}

/**
 * With --watch 1: every 2 s while a follower of ours syncs, where it is and what it waits
 * for (held blocks, warp sync's requests, packets dropped on either side), to see where a
 * sync spends its time.
 */
function watch(label, follower, coordinator) {
  if (!WATCH) return () => {};
  let on = true;
  const g = (name) => `ledger_node_gossip_messages{counter="${name}"}`;
  (async () => {
    while (on) {
      await sleep(2_000);
      try {
        const [f, c, s] = [
          await metricsText(follower.url),
          await metricsText(coordinator.base),
          await status(follower.url),
        ];
        console.log(
          `    ${label} [${clock()}] confirmed ${s.confirmedMilestone.index} latest ${s.latestMilestone.index}; held ` +
            `${figure(f, 'ledger_node_gossip_held_blocks{kind="blocks"}')} blocks ${figure(f, 'ledger_node_gossip_held_blocks{kind="milestones"}')} milestones; ` +
            `sent ${figure(f, g('sentBlockRequests'))} block + ${figure(f, g('sentMilestoneRequests'))} milestone requests, ` +
            `received ${figure(f, g('receivedBlocks'))} blocks (${figure(f, g('newBlocks'))} new); dropped ${figure(f, g('droppedPackets'))} here, ` +
            `${figure(c, g('droppedPackets'))} at the coordinator; load ${load()}`,
        );
      } catch {
        // not up yet, or stopping
      }
    }
  })();
  return () => {
    on = false;
  };
}

/**
 * Poll `url` until its confirmed milestone reaches `target`: the performance.now() of that
 * moment, or undefined after `limitMs`.
 */
async function waitConfirmed(url, target, limitMs) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      if ((await status(url)).confirmedMilestone.index >= target) return performance.now();
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) return undefined;
    await sleep(100);
  }
}

// ---- 1. the history -------------------------------------------------------------------------

async function buildHistory(coordinator) {
  const info = await coordinator.getJson('/api/core/v2/info');
  const networkId = core.networkId(info.protocol.networkName);
  const genesis = {
    outputId: GENESIS_OUTPUT_ID,
    output: (await coordinator.getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).output,
  };
  const fan = transfer(networkId, genesis, genesisKey, split(BigInt(info.protocol.tokenSupply), POOL));
  await coordinator.fanOut([fan], 'fan-out');
  /** Outputs a transfer can spend now (their transaction is confirmed). */
  const spendable = [...fan.outputs];
  /** Transfers submitted, not yet seen confirmed: transaction ID → its output. */
  const pending = new Map();
  const counts = { transfers: 0, confirmed: 0, tagged: 0, failed: 0 };
  let confirmedIndex = (await status(coordinator.base)).confirmedMilestone.index;
  let building = true;

  // Milestone by milestone: the outputs of our confirmed transfers become spendable again.
  const watcher = (async () => {
    while (building) {
      const latest = (await status(coordinator.base)).confirmedMilestone.index;
      for (let index = confirmedIndex + 1; index <= latest; index++) {
        const changes = await coordinator.getJson(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
        for (const outputId of changes.createdOutputs) {
          const made = pending.get(outputId.slice(0, 66));
          if (made === undefined) continue;
          pending.delete(outputId.slice(0, 66));
          spendable.push(made);
          counts.confirmed++;
        }
      }
      confirmedIndex = latest;
      await sleep(200);
    }
  })();

  const submit = async (body) => {
    try {
      await coordinator.post(Buffer.from(JSON.stringify(body)));
      return true;
    } catch (err) {
      if (counts.failed++ < 5) console.error(`submission failed: ${err.message}`);
      return false;
    }
  };
  const tag = '0x' + Buffer.from('bench:sync').toString('hex');
  let lastReport = performance.now();
  const buildStart = performance.now();
  // Ten slices a second: each slice submits its share of transfers and tagged data.
  for (let slice = 0; confirmedIndex < MILESTONES; slice++) {
    const sliceStart = performance.now();
    const transfers = [];
    const quota = Math.floor(((slice % 10) + 1) * (TRANSFERS / 10)) - Math.floor((slice % 10) * (TRANSFERS / 10));
    for (let i = 0; i < quota && spendable.length > 0; i++) {
      const input = spendable.shift();
      const t = transfer(networkId, input, benchKey, [BigInt(input.output.amount)]);
      pending.set(t.transactionId, t.outputs[0]);
      transfers.push(t);
    }
    const taggedQuota = Math.floor(((slice % 10) + 1) * (TAGGED / 10)) - Math.floor((slice % 10) * (TAGGED / 10));
    const bodies = [
      ...transfers.map((t) => ({ protocolVersion: 2, payload: t.payload })),
      ...Array.from({ length: taggedQuota }, (_, i) => ({
        protocolVersion: 2,
        payload: { type: 5, tag, data: '0x' + Buffer.from(`slice ${slice} block ${i}`).toString('hex') },
      })),
    ];
    await pool(bodies, 8, async (body) => {
      if (await submit(body)) counts[body.payload.type === 6 ? 'transfers' : 'tagged']++;
    });
    if (performance.now() - lastReport >= 60_000) {
      lastReport = performance.now();
      const perSecond = confirmedIndex / ((performance.now() - buildStart) / 1000);
      console.log(
        `  [${clock()}] milestone ${confirmedIndex} of ${MILESTONES}, ${counts.transfers} transfers (${counts.confirmed} confirmed), ` +
          `${counts.tagged} tagged-data blocks, ${spendable.length} outputs free; about ${Math.round((MILESTONES - confirmedIndex) / perSecond / 60)} min to go; load ${load()}`,
      );
    }
    await sleep(Math.max(0, 100 - (performance.now() - sliceStart)));
  }
  // The last transfers get their milestone (two intervals), then the load is over.
  await sleep(Math.max(2_500, 2_500 * INTERVAL));
  building = false;
  await watcher;
  return { counts, seconds: (performance.now() - buildStart) / 1000 };
}

// ---- 2. followers ---------------------------------------------------------------------------

/**
 * Start a follower with `start()`, wait until synced (at most `limitMs`: then `seconds` is
 * NaN and the follower's state is printed); its figures. `start` returns { url, pid }.
 */
async function timeToSynced(label, coordinator, start, limitMs) {
  const cooStatus = await status(coordinator.base);
  const target = cooStatus.confirmedMilestone.index;
  const blocks = await metric(coordinator, 'ledger_node_blocks_stored');
  const cooCpuBefore = cpuSeconds(coordinator.child.pid);
  const launched = performance.now();
  const follower = await start();
  const up = performance.now();
  // From the follower's process start (Hornet's start script does work of its own first).
  const t0 = Math.max(launched, processStart(follower.pid) ?? launched);
  const unwatch = follower.child ? watch(label.slice(0, 3), follower, coordinator) : () => {};
  const synced = await waitConfirmed(follower.url, target, limitMs);
  unwatch();
  const seconds = synced === undefined ? NaN : (synced - t0) / 1000;
  const cpu = cpuSeconds(follower.pid);
  // What serving the history cost the coordinator (both share the machine's cores).
  const cooCpu = cpuSeconds(coordinator.child.pid) - cooCpuBefore;
  const figures = { label, target, blocks, seconds, upSeconds: (up - t0) / 1000, cpu, cooCpu, follower };
  if (synced === undefined) {
    const s = await status(follower.url).catch(() => undefined);
    console.log(
      `  ${label}: NOT synced to milestone ${target} within ${limitMs / 1000} s: confirmed ${s?.confirmedMilestone.index}, ` +
        `latest ${s?.latestMilestone.index}, pruning index ${s?.pruningIndex}; ${cpu.toFixed(1)} CPU-s; load ${load()}`,
    );
    return figures;
  }
  console.log(
    `  ${label}: synced to milestone ${target} (${blocks} blocks) in ${seconds.toFixed(2)} s ` +
      `(REST up after ${figures.upSeconds.toFixed(2)} s), ${Math.round(blocks / seconds)} blocks/s, ${cpu.toFixed(1)} CPU-s ` +
      `(the coordinator's meanwhile ${cooCpu.toFixed(1)}); load ${load()}`,
  );
  return figures;
}

/** When a process started, on performance.now()'s clock (Linux /proc; 10 ms steps), or undefined. */
function processStart(pid) {
  try {
    const ticks = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return performance.now() - (uptime - ticks / 100) * 1000;
  } catch {
    return undefined;
  }
}

/** A copy of a kept history's data directory for this run's coordinator (which goes on issuing). */
function copyOf(history) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-coordinator-'));
  cpSync(history, dataDir, { recursive: true, filter: (source) => !source.endsWith(HISTORY_FACTS) });
  return dataDir;
}

/** Copy the coordinator's data directory, stopped cleanly, to --history; restart it on its own. */
async function keepHistory(coordinator, facts) {
  await coordinator.halt();
  rmSync(HISTORY, { recursive: true, force: true });
  cpSync(coordinator.dataDir, HISTORY, { recursive: true });
  writeFileSync(join(HISTORY, HISTORY_FACTS), JSON.stringify(facts));
  console.log(`history kept in ${HISTORY}`);
  return startCoordinator(coordinator.dataDir);
}

/** `values` without the NaN of a follower that never synced. */
const finite = (values) => values.filter((v) => !Number.isNaN(v));

const ours = (node) => Object.assign(node, { url: node.base, pid: node.child.pid });

async function main() {
  const why = !HORNET ? '--hornet 0' : !FOLLOWERS.has('H') ? '--followers without H' : hornetFollowerUnavailable();
  console.log(
    `bench:sync: ${MILESTONES} milestones every ${INTERVAL} s, ${TRANSFERS} transfers and ${TAGGED} tagged-data blocks a second, ` +
      `pruning follower keeps ${KEEP}; Hornet: ${why ?? 'yes'}; load ${load()}`,
  );
  const kept = HISTORY !== undefined && existsSync(join(HISTORY, HISTORY_FACTS));
  let coordinator = await startCoordinator(kept ? copyOf(HISTORY) : undefined);
  const cleanup = [];
  try {
    // 1. The history: built, or a kept one's copy.
    let counts;
    let seconds;
    if (kept) {
      ({ counts, seconds } = JSON.parse(readFileSync(join(HISTORY, HISTORY_FACTS), 'utf8')));
    } else {
      ({ counts, seconds } = await buildHistory(coordinator));
      if (HISTORY !== undefined) coordinator = await keepHistory(coordinator, { counts, seconds });
    }
    const cooInfo = await status(coordinator.base);
    const cooBytes = dirSizes(coordinator.dataDir);
    const cooBlocks = await metric(coordinator, 'ledger_node_blocks_stored');
    console.log(
      `history ${kept ? 'kept, built' : 'built'} in ${(seconds / 60).toFixed(1)} min: milestone ${cooInfo.confirmedMilestone.index}, ${cooBlocks} blocks, ` +
        `${counts.confirmed} of ${counts.transfers} transfers confirmed, ${counts.tagged} tagged-data blocks, ${counts.failed} failed submissions; ` +
        `coordinator's data directory ${mib(cooBytes.disk)} MiB on disk; load ${load()}`,
    );
    const perTransfer = (bytes) => Math.round(bytes / Math.max(1, counts.confirmed));

    // (a) Ours by warp sync from genesis.
    // Generous limits: a follower that gets stuck is reported, and the run goes on.
    const syncLimit = Math.max(120_000, cooBlocks * 2);
    const warp = await timeToSynced(
      '(a) ours, warp sync from genesis',
      coordinator,
      async () => ours(await startFollower('warp', coordinator)),
      syncLimit,
    );
    await sleep(2_000); // its last writes reach the files
    const warpFamilies = await familySizes(warp.follower);
    const warpBytes = await sizesRunningAndStopped(warp.follower);
    console.log(
      `  (a) data directory once stopped ${mib(warpBytes.disk)} MiB on disk, ${mib(warpBytes.apparent)} MiB of files; running, ${mib(warpBytes.running.apparent)} MiB of files, ${mib(warpBytes.running.wal)} MiB of them write-ahead log`,
    );
    await warp.follower.stop();

    // (d) Ours by warp sync from genesis without the indexer: Hornet keeps no indexer (that
    // is inx-indexer's, in its own database), so this is the data directory to set beside
    // Hornet's.
    let bareBytes;
    if (FOLLOWERS.has('d')) {
      const bare = await timeToSynced(
        '(d) ours, warp sync from genesis, --no-indexer',
        coordinator,
        async () => ours(await startFollower('bare', coordinator, ['--no-indexer'])),
        syncLimit,
      );
      await sleep(2_000);
      bareBytes = await sizesRunningAndStopped(bare.follower);
      console.log(
        `  (d) data directory once stopped ${mib(bareBytes.disk)} MiB on disk, ${mib(bareBytes.apparent)} MiB of files; running, ${mib(bareBytes.running.apparent)} MiB of files, ${mib(bareBytes.running.wal)} MiB of them write-ahead log`,
      );
      await bare.follower.stop();
    }

    // (H) Hornet, the same history from the same coordinator.
    let hornet;
    let hornetBytes = { disk: NaN, apparent: NaN };
    const genesis = why ? undefined : await writeGenesisSnapshot(coordinator.dataDir);
    if (genesis) cleanup.push(() => genesis.remove());
    const hornetRun = async (label) => {
      const run = await timeToSynced(
        label,
        coordinator,
        () =>
          startHornetFollower({
            snapshotFile: genesis.file,
            coordinatorPublicKey: COORDINATOR_PUBLIC_KEY,
            peerAddress: coordinator.address,
          }),
        syncLimit,
      );
      await run.follower.stop();
      return run;
    };
    if (genesis) {
      try {
        hornet = await hornetRun('(H) Hornet 2.0.1, warp sync from genesis');
        hornetBytes = dirSizes(hornet.follower.state);
        console.log(
          `  (H) Hornet's folder ${mib(hornetBytes.disk)} MiB on disk, ${mib(hornetBytes.apparent)} MiB of files`,
        );
        hornet.follower.remove();
      } catch (err) {
        console.log(`  Hornet follower failed: ${err.message.split('\n')[0]}`);
        hornet = undefined;
      }
    }

    // (a) and (H) again, alternating, --repeats in all: one warp sync's time moves by a
    // third from run to run on the same history, so the ratio is taken of the medians.
    const warpRuns = [warp];
    const hornetRuns = hornet ? [hornet] : [];
    for (let k = 2; k <= REPEATS; k++) {
      const again = await timeToSynced(
        `(a) ours, warp sync from genesis, run ${k}`,
        coordinator,
        async () => ours(await startFollower('warp', coordinator)),
        syncLimit,
      );
      await again.follower.stop();
      warpRuns.push(again);
      if (hornet) {
        try {
          const run = await hornetRun(`(H) Hornet 2.0.1, warp sync from genesis, run ${k}`);
          run.follower.remove();
          hornetRuns.push(run);
        } catch (err) {
          console.log(`  Hornet follower, run ${k}, failed: ${err.message.split('\n')[0]}`);
        }
      }
    }

    // (b) Ours from a full snapshot near the end.
    let joiner;
    let snapshotIndex = NaN;
    let snapshotBytes = NaN;
    if (FOLLOWERS.has('b')) {
      snapshotIndex = (await status(coordinator.base)).confirmedMilestone.index - SNAPSHOT_DEPTH;
      const token = await issueToken(JWT_SECRET);
      const created = await fetch(`${coordinator.base}/api/core/v2/control/snapshots/create`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ index: snapshotIndex }),
      });
      if (created.status === 200) {
        const { filePath } = await created.json();
        snapshotBytes = readFileSync(filePath).length;
        joiner = await timeToSynced(
          `(b) ours from a full snapshot at ${snapshotIndex}`,
          coordinator,
          async () => ours(await startFollower('snapshot', coordinator, ['--snapshot', filePath])),
          120_000,
        );
        await joiner.follower.stop();
      } else console.log(`  (b) no snapshot: ${created.status} ${await created.text()} (a longer --milestones)`);
    }

    // (c) Ours from genesis with pruning: its disk once pruned.
    let pruned;
    let prunedBytes;
    if (FOLLOWERS.has('c')) {
      const configFile = join(tmpdir(), `ledger-node-bench-sync-pruning-${process.pid}.json`);
      writeFileSync(
        configFile,
        JSON.stringify({ pruning: { milestones: { enabled: true, maxMilestonesToKeep: KEEP } } }),
      );
      cleanup.push(() => rmSync(configFile, { force: true }));
      pruned = await timeToSynced(
        `(c) ours, warp sync with pruning (keep ${KEEP})`,
        coordinator,
        async () => ours(await startFollower('pruning', coordinator, ['--config', configFile])),
        syncLimit,
      );
      // Pruned as far as the rules let it (docs/configuration.md#pruning): within 20 + 16 of the confirmed milestone.
      const prunedDeadline = Date.now() + (Number.isNaN(pruned.seconds) ? 0 : 300_000);
      let prunedStatus;
      for (;;) {
        prunedStatus = await status(pruned.follower.url);
        if (prunedStatus.pruningIndex >= prunedStatus.confirmedMilestone.index - Math.max(KEEP, 20) - 16) break;
        if (Date.now() > prunedDeadline) break;
        await sleep(500);
      }
      await sleep(2_000);
      prunedBytes = await sizesRunningAndStopped(pruned.follower);
      console.log(
        `  (c) pruning index ${prunedStatus.pruningIndex} at confirmed ${prunedStatus.confirmedMilestone.index}: data directory ${mib(prunedBytes.disk)} MiB on disk`,
      );
      await pruned.follower.stop();
    }

    // ---- summary ----
    console.log(
      `\nbench:sync — history of ${MILESTONES} milestones at ${INTERVAL} s (${cooBlocks} blocks, ${counts.confirmed} confirmed transfers, ` +
        `${counts.tagged} tagged-data blocks); load average at the end ${load()}\n`,
    );
    const row = (f, target) => [
      f.label,
      f.target,
      f.blocks,
      Number.isNaN(f.seconds) ? 'not synced' : f.seconds.toFixed(2),
      Number.isNaN(f.seconds) ? '—' : String(Math.round(f.blocks / f.seconds)),
      f.cpu.toFixed(1),
      target,
    ];
    table(
      ['follower', 'synced to milestone', 'blocks', 'seconds', 'blocks/s', 'CPU-s', 'target'],
      [
        ...warpRuns.map((f) => row(f, '—')),
        ...hornetRuns.map((f) => row(f, '—')),
        ...(joiner ? [row(joiner, `< 10 s: ${joiner.seconds < 10 ? 'met' : 'not met'}`)] : []),
        ...(pruned ? [row(pruned, '—')] : []),
      ],
    );
    const rate = (f) => f.blocks / f.seconds;
    const ourRate = median(finite(warpRuns.map(rate)));
    const ourCpu = median(warpRuns.map((f) => f.cpu));
    console.log(
      `(a) warp sync, ${warpRuns.length} runs: ${warpRuns.map((f) => `${f.seconds.toFixed(2)} s`).join(', ')}; ` +
        `median ${Math.round(ourRate)} blocks/s, ${ourCpu.toFixed(1)} CPU-s`,
    );
    if (hornet) {
      const theirRate = median(finite(hornetRuns.map(rate)));
      const theirCpu = median(hornetRuns.map((f) => f.cpu));
      const ratio = ourRate / theirRate;
      console.log(
        `(H) warp sync, ${hornetRuns.length} runs: ${hornetRuns.map((f) => `${f.seconds.toFixed(2)} s`).join(', ')}; ` +
          `median ${Math.round(theirRate)} blocks/s, ${theirCpu.toFixed(1)} CPU-s`,
      );
      console.log(
        `warp sync blocks/s, medians ours ÷ Hornet's: ${ratio.toFixed(2)} (target ≥ 2: ${ratio >= 2 ? 'met' : 'not met'}); ` +
          `CPU-s ours ÷ Hornet's: ${(ourCpu / theirCpu).toFixed(2)}\n`,
      );
    } else console.log(`Hornet: not run (${why})\n`);
    // On disk: allocated blocks, as du counts them (RocksDB preallocates its write-ahead log);
    // files: the sum of their lengths. Followers once stopped, as Hornet's (the coordinator
    // still runs); their files while running beside it.
    const diskRow = (label, sizes) => [
      label,
      mib(sizes.disk),
      perTransfer(sizes.disk),
      mib(sizes.apparent),
      perTransfer(sizes.apparent),
      sizes.running ? perTransfer(sizes.running.apparent) : '—',
      sizes.running ? perTransfer(sizes.running.wal) : '—',
    ];
    table(
      [
        'data directory',
        'MiB on disk',
        'bytes on disk per confirmed transfer',
        'MiB of files',
        'bytes of files per transfer',
        'running: bytes of files per transfer',
        'running: of them write-ahead log',
      ],
      [
        diskRow('coordinator (history, no pruning; running)', cooBytes),
        diskRow('(a) follower, no pruning', warpBytes),
        ...(bareBytes ? [diskRow('(d) follower, no pruning, no indexer', bareBytes)] : []),
        ...(prunedBytes ? [diskRow(`(c) follower, pruning (keep ${KEEP})`, prunedBytes)] : []),
        ...(hornet ? [diskRow('Hornet follower, no pruning', hornetBytes)] : []),
      ],
    );
    if (joiner) console.log(`full snapshot at ${snapshotIndex}: ${snapshotBytes} bytes\n`);
    // Where (a)'s bytes are: RocksDB's own estimate per column family, its SST files and
    // memtables (the metric ledger_node_rocksdb_family_size_bytes). A family written to
    // holds a memtable of at least 1 MiB until it is flushed, so in a small run most rows
    // read 1 MiB; the write-ahead log and RocksDB's other files are in no row.
    table(
      ['(a) column family', 'MiB (SST files and memtables)', 'bytes per confirmed transfer'],
      warpFamilies.filter((f) => f.bytes > 0).map((f) => [f.family, mib(f.bytes), perTransfer(f.bytes)]),
    );
  } finally {
    await coordinator.stop();
    for (const f of cleanup) f();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
