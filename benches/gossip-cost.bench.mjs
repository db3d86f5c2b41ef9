// What a gossiped block costs a receiver, beside Hornet: `npm run bench:gossip-cost [--
// --rates 150,300,600,1000,1500 --seconds 20 --pow 0 --chains 32 --idle 10 --hornet 1]`
// (issue 24, docs/benchmarks.md "npm run bench:gossip-cost"). Linux only (/proc). Needs Hornet 2.0.1 (HORNET_BIN with `hornet`,
// HORNET_INTEROP with start-hornet-follower.sh, as bench:sync); without it, ours alone.
// BENCH_PORTS=<from>-<to> keeps every port it opens in a range.
//
// Three processes on loopback: our coordinator (bin/ledger-node.js, embedded coordinator, a
// milestone every second, minPowScore --pow, genesis style `hornet`) and two followers that
// each peer with the coordinator only: ours (a fresh data directory, the coordinator's key)
// and Hornet 2.0.1 started from the genesis snapshot our coordinator writes (`ledger-node
// snapshot write`). Both are synced (healthy, confirmed milestone within one of the
// coordinator's) before anything is measured; then --idle seconds without load give what
// each process costs by itself (milestones, heartbeats, this script's polls).
//
// Per rate, a phase: round(rate × --seconds) tagged-data blocks posted as bytes to the
// coordinator at that rate (block i is due at start + i / rate). Parents: the blocks run in
// --chains chains (block i in chain i mod chains, each chain posted in order, the next
// block once the previous one is answered); a block's parents are the previous block of its
// chain plus two of the coordinator's tips (GET /tips) taken when its slice of a fifth of a
// second was built, which is when posting reaches the slice before: one slice ahead of the
// posts, not of the clock, so that parents stay young when the coordinator lags. So every
// block but a chain's last one is approved by its successor, the chains' heads are tips the
// coordinator's milestones pick up, and no block's cone is older than a slice: the blocks
// stay referenced (checked on a sample of each phase at the coordinator, ten seconds after
// the last phase). Building (encoding, the nonce at --pow) is done a slice ahead, so posting
// is all the generator does in time.
//
// A follower "has the phase" when its gossip counters (`newBlocks` summed over its peers,
// GET /api/core/v2/peers, which Hornet serves too) grew by the phase's blocks and the last
// 16 blocks of the phase answer GET /api/core/v2/blocks/{id}/metadata (both APIs), polled
// every 100 ms from the coordinator's last answer on (not before, so that the polls cost the
// followers little). Its CPU over the phase (user + system of its process, /proc/<pid>/stat) runs
// from the first post to that moment, so the catch-up after the last post is in it; µs per
// block = that CPU ÷ the new blocks it received (milestones included); the rate it kept =
// those blocks ÷ the same time. The coordinator's CPU per block (first post until both
// followers have the phase) is printed for context. The phase time is the coordinator's
// submit window (first post to last answer, at least --seconds): a follower that needs more
// than twice it has not sustained the rate, and the curve stops there for it (it is stopped,
// so that it takes no CPU from the others). After each phase, 200 of its blocks are asked
// of each follower (stored?), and its RSS is read. Prints figures with the load average, and
// the ratio ours ÷ Hornet's per rate; target ≤ 0.33 at 1,000 blocks/s and above. Asserts
// nothing.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { hornetFollowerUnavailable, startHornetFollower, writeGenesisSnapshot } from './hornet.mjs';
import { BenchNode, SERIALIZER, core, pool, sleep } from './ledger-load.mjs';
import { arg, cpuSeconds, loadAverage, rssMiB, table } from './measure.mjs';
import { followerFlags, gossipCounters, planNode } from './node-process.mjs';

const require = createRequire(import.meta.url);
const { issueToken } = require('../dist/jwt-secret.js');

const RATES = (() => {
  const at = process.argv.indexOf('--rates');
  return (at > 0 ? process.argv[at + 1] : '150,300,600,1000,1500').split(',').map(Number);
})();
const SECONDS = arg('seconds', 20);
const POW = arg('pow', 0);
const CHAINS = arg('chains', 32);
const IDLE = arg('idle', 10);
const HORNET = arg('hornet', 1) !== 0;
const SLICES_PER_SECOND = 5;
const TAIL = 16;
const SAMPLE = 200;
const JWT_SECRET = 'ledger-node bench:gossip-cost';
const COORDINATOR_SEED = '0x' + createHash('sha256').update('ledger-node bench:gossip-cost coordinator').digest('hex');
const COORDINATOR_PUBLIC_KEY = core.publicKey(COORDINATOR_SEED);
const TAG = '0x' + Buffer.from('bench:gossip-cost').toString('hex');
const COMMON = ['--jwt-secret', JWT_SECRET, '--no-dashboard', '--no-faucet', '--genesis-style', 'hornet'];
const started = performance.now();
const log = (line) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// ---- the three nodes ------------------------------------------------------------------------

async function startCoordinator() {
  const p = await planNode('gossip-cost-coordinator');
  const node = await BenchNode.start({
    pow: POW,
    dataDir: p.dataDir,
    args: [...COMMON, '--coordinator-key', COORDINATOR_SEED, '--gossip', '--p2p-bind', p.bind],
  });
  return Object.assign(node, { address: p.address, pid: node.child.pid, url: node.base });
}

async function startOurs(coordinator) {
  const p = await planNode('gossip-cost-ours');
  const node = await BenchNode.start({
    pow: POW,
    dataDir: p.dataDir,
    args: [...COMMON, ...followerFlags(COORDINATOR_PUBLIC_KEY, p.bind, coordinator.address)],
  });
  return Object.assign(node, { name: 'ours', pid: node.child.pid, url: node.base, token: true });
}

async function startHornet(coordinator) {
  const genesis = await writeGenesisSnapshot(coordinator.dataDir);
  try {
    const hornet = await startHornetFollower({
      snapshotFile: genesis.file,
      coordinatorPublicKey: COORDINATOR_PUBLIC_KEY,
      peerAddress: coordinator.address,
    });
    const stopFollower = hornet.stop;
    return Object.assign(hornet, {
      name: 'Hornet',
      stop: async () => {
        await stopFollower();
        hornet.remove();
      },
    });
  } finally {
    genesis.remove();
  }
}

async function status(url) {
  const res = await fetch(`${url}/api/core/v2/info`);
  if (res.status !== 200) throw new Error(`GET ${url}/api/core/v2/info: ${res.status}`);
  return (await res.json()).status;
}

/** Wait until `follower` is healthy and within one milestone of the coordinator. */
async function waitSynced(follower, coordinator, limitMs) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      const [f, c] = [await status(follower.url), await status(coordinator.url)];
      if (f.isHealthy && f.confirmedMilestone.index >= c.confirmedMilestone.index - 1) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${follower.name} did not sync within ${limitMs / 1000} s`);
    await sleep(500);
  }
}

const counters = async (node) => gossipCounters(node.url, node.token ? await issueToken(JWT_SECRET) : undefined);
const stored = async (node, blockId) =>
  (await fetch(`${node.url}/api/core/v2/blocks/${blockId}/metadata`).catch(() => ({ status: 0 }))).status === 200;

// ---- the load -------------------------------------------------------------------------------

/**
 * The phase's blocks, built a slice ahead of the posts (see the header): `heads` holds each
 * chain's last block across phases. Returns `{ blocks, sliceSize, slices, slice(s) }`.
 */
function planLoad(coordinator, rate, count, phase, heads) {
  const sliceSize = Math.max(1, Math.ceil(rate / SLICES_PER_SECOND));
  const slices = Math.ceil(count / sliceSize);
  const blocks = new Array(count);
  const ready = [];
  let built = 0;
  const build = async (s) => {
    const { tips } = await coordinator.getJson('/api/core/v2/tips');
    for (let i = s * sliceSize; i < Math.min(count, (s + 1) * sliceSize); i++) {
      const chain = i % CHAINS;
      const parents = [
        ...new Set([heads[chain], tips[i % tips.length], tips[(i + 1) % tips.length]].filter(Boolean)),
      ].sort();
      const data = Buffer.from(`bench:gossip-cost phase ${phase} block ${i} at ${Date.now()}`);
      const bytes = core.encodeBlock({
        protocolVersion: 2,
        parents,
        payload: { type: 5, tag: TAG, data: '0x' + data.toString('hex') },
        nonce: '0',
      });
      if (POW > 0)
        bytes.writeBigUInt64LE(
          BigInt((await core.mine(bytes, { targetScore: POW, threads: 1 })).nonce),
          bytes.length - 8,
        );
      const blockId = core.blockId(bytes);
      blocks[i] = { bytes, blockId };
      heads[chain] = blockId;
    }
  };
  /** Slice `s`, built (in order) once asked for: when posting reaches slice s - 1. */
  const slice = (s) => {
    while (built <= Math.min(s, slices - 1)) {
      const next = built++;
      ready[next] = (ready[next - 1] ?? Promise.resolve()).then(() => build(next));
    }
    return ready[s];
  };
  return { blocks, sliceSize, slices, slice };
}

/** Post the phase's blocks at `rate` (chains in order, each block at its due time). */
async function submit(coordinator, load, rate, t0) {
  const failures = [];
  let last = t0;
  await Promise.all(
    Array.from({ length: CHAINS }, async (_, chain) => {
      for (let i = chain; i < load.blocks.length; i += CHAINS) {
        const s = Math.floor(i / load.sliceSize);
        load.slice(s + 1); // one slice ahead of the posts, not of the clock: parents stay young when posting lags
        await load.slice(s);
        const wait = t0 + (i * 1000) / rate - performance.now();
        if (wait > 1) await sleep(wait);
        const b = load.blocks[i];
        try {
          if ((await coordinator.post(b.bytes, SERIALIZER)) !== b.blockId) throw new Error('another block ID');
        } catch (err) {
          failures.push(err.message);
        }
        last = Math.max(last, performance.now());
      }
    }),
  );
  return { end: last, failures };
}

// ---- a phase --------------------------------------------------------------------------------

/**
 * Poll the followers until each has the phase (or its limit passes): per follower the
 * moment, its CPU seconds then and its new blocks.
 */
async function watchArrivals(followers, load, before, limitAt) {
  const done = new Map();
  while (done.size < followers.length && performance.now() < limitAt()) {
    await Promise.all(
      followers
        .filter((f) => !done.has(f))
        .map(async (f) => {
          const fresh = (await counters(f)).fresh - before.get(f).fresh;
          if (fresh < load.blocks.length) return;
          const have = await Promise.all(load.blocks.slice(-TAIL).map((b) => stored(f, b.blockId)));
          if (have.every(Boolean)) done.set(f, { at: performance.now(), cpu: cpuSeconds(f.pid), fresh });
        }),
    );
    await sleep(100);
  }
  for (const f of followers)
    if (!done.has(f))
      done.set(f, { at: NaN, cpu: cpuSeconds(f.pid), fresh: (await counters(f)).fresh - before.get(f).fresh });
  return done;
}

async function phase(coordinator, followers, rate, index, heads) {
  const count = Math.round(rate * SECONDS);
  const load = planLoad(coordinator, rate, count, index, heads);
  await load.slice(0);
  const before = new Map();
  for (const f of followers) before.set(f, { ...(await counters(f)), cpu: cpuSeconds(f.pid) });
  const cooBefore = { ...(await counters(coordinator)), cpu: cpuSeconds(coordinator.pid) };
  const t0 = performance.now();
  let submitEnd;
  const submitted = submit(coordinator, load, rate, t0).then((r) => {
    submitEnd = r.end;
    return r;
  });
  // The limit: twice the phase time (at least --seconds; longer while the coordinator is still taking posts).
  const phaseMs = () => Math.max(SECONDS * 1000, (submitEnd ?? performance.now()) - t0);
  // No polling while the coordinator takes posts: no follower can have the phase before the last one.
  const { failures } = await submitted;
  const arrivals = await watchArrivals(followers, load, before, () => t0 + 2 * phaseMs());
  const cooCpu = cpuSeconds(coordinator.pid) - cooBefore.cpu;
  const cooAfter = await counters(coordinator);
  const seconds = (submitEnd - t0) / 1000;
  const results = new Map();
  for (const f of followers) {
    const a = arrivals.get(f);
    const taken = (a.at - t0) / 1000;
    const after = await counters(f);
    results.set(f, {
      sustained: Number.isFinite(a.at) && taken <= 2 * Math.max(SECONDS, seconds),
      seconds: taken,
      fresh: a.fresh,
      cpu: a.cpu - before.get(f).cpu,
      micros: ((a.cpu - before.get(f).cpu) * 1e6) / a.fresh,
      kept: a.fresh / taken,
      dropped: after.dropped - before.get(f).dropped,
      asked: after.asked - before.get(f).asked,
      rss: rssMiB(f.pid),
    });
  }
  // Outside the CPU windows: a sample of the phase's blocks asked of each follower.
  const sample = Array.from(
    { length: Math.min(SAMPLE, count) },
    (_, k) => load.blocks[Math.floor((k * count) / Math.min(SAMPLE, count))],
  );
  for (const f of followers) {
    let have = 0;
    await pool(sample, 8, async (b) => {
      if (await stored(f, b.blockId)) have++;
    });
    results.get(f).sampleStored = have;
  }
  return {
    rate,
    count,
    seconds,
    submittedRate: (count - failures.length) / seconds,
    failures,
    cooMicros: (cooCpu * 1e6) / count,
    cooDropped: cooAfter.dropped - cooBefore.dropped,
    results,
    sample,
    load: loadAverage(),
  };
}

// ---- the run --------------------------------------------------------------------------------

async function main() {
  const why = HORNET ? hornetFollowerUnavailable() : '--hornet 0';
  log(
    `bench:gossip-cost: rates ${RATES.join(', ')} blocks/s, ${SECONDS} s each, minPowScore ${POW}, ${CHAINS} chains; ` +
      `Hornet: ${why ?? 'yes'}; load ${loadAverage()}`,
  );
  const coordinator = await startCoordinator();
  const running = [];
  try {
    const ours = await startOurs(coordinator);
    running.push(ours);
    if (!why) {
      try {
        running.push(await startHornet(coordinator));
      } catch (err) {
        log(`Hornet follower failed to start: ${err.message.split('\n')[0]}`);
      }
    }
    for (const f of running) await waitSynced(f, coordinator, 120_000);
    log(`followers synced: ${running.map((f) => f.name).join(', ')}; load ${loadAverage()}`);

    // Idle: what each process costs without load.
    const idleBefore = [coordinator, ...running].map((n) => cpuSeconds(n.pid));
    await sleep(IDLE * 1000);
    const idle = [coordinator, ...running].map((n, i) => ((cpuSeconds(n.pid) - idleBefore[i]) / IDLE) * 100);
    log(
      `idle ${IDLE} s, % of a core: coordinator ${idle[0].toFixed(1)}, ` +
        running.map((f, i) => `${f.name} ${idle[i + 1].toFixed(1)}`).join(', ') +
        `; RSS MiB ${running.map((f) => `${f.name} ${rssMiB(f.pid).toFixed(0)}`).join(', ')}; load ${loadAverage()}`,
    );

    const heads = new Array(CHAINS);
    const phases = [];
    let measured = [...running];
    for (const [index, rate] of RATES.entries()) {
      if (measured.length === 0) break;
      const p = await phase(coordinator, measured, rate, index, heads);
      phases.push(p);
      log(
        `${rate} blocks/s: ${p.count} blocks posted in ${p.seconds.toFixed(1)} s (${p.submittedRate.toFixed(0)}/s, ${p.failures.length} failed${p.failures.length ? `: ${p.failures[0]}` : ''}); ` +
          `coordinator ${p.cooMicros.toFixed(0)} µs/block, dropped ${p.cooDropped}; load ${p.load}`,
      );
      for (const [f, r] of p.results)
        log(
          `  ${f.name}: ${r.sustained ? 'has them' : 'NOT sustained:'} ${r.fresh} new blocks in ${r.seconds.toFixed(1)} s ` +
            `(${r.kept.toFixed(0)}/s), ${r.cpu.toFixed(2)} CPU-s, ${r.micros.toFixed(0)} µs/block; dropped ${r.dropped}, ` +
            `asked for ${r.asked}; sample ${r.sampleStored}/${p.sample.length} stored; RSS ${r.rss.toFixed(0)} MiB`,
        );
      for (const [f, r] of p.results) {
        if (r.sustained) continue;
        log(`  ${f.name} stops here (not sustained at ${rate} blocks/s)`);
        measured = measured.filter((m) => m !== f);
        await f.stop();
        running.splice(running.indexOf(f), 1);
      }
    }

    // Referenced at the coordinator: each phase's sample, ten milestones after the last phase.
    await sleep(10_000);
    for (const p of phases) {
      let referenced = 0;
      await pool(p.sample, 8, async (b) => {
        const m = await coordinator.getJson(`/api/core/v2/blocks/${b.blockId}/metadata`).catch(() => ({}));
        if (m.referencedByMilestoneIndex !== undefined) referenced++;
      });
      p.referenced = referenced;
    }

    // ---- summary ----
    const hornetName = 'Hornet';
    const cell = (p, name, fn) => {
      const r = [...p.results].find(([f]) => f.name === name)?.[1];
      return r === undefined ? '—' : fn(r);
    };
    console.log(
      `\nbench:gossip-cost — ${SECONDS} s a rate, minPowScore ${POW}; µs of CPU (user + system) per new block at each follower, ` +
        `from the first post to having the phase; load average at the end ${loadAverage()}\n`,
    );
    table(
      [
        'rate (blocks/s)',
        'posted/s',
        'ours µs/block',
        'Hornet µs/block',
        'ours ÷ Hornet',
        'ours kept/s',
        'Hornet kept/s',
        'coordinator µs/block',
        'referenced (sample)',
        'load average',
      ],
      phases.map((p) => {
        const o = cell(p, 'ours', (r) => r);
        const h = cell(p, hornetName, (r) => r);
        const us = (r) => (r === '—' ? '—' : `${r.micros.toFixed(0)}${r.sustained ? '' : ' (not sustained)'}`);
        const kept = (r) => (r === '—' ? '—' : r.kept.toFixed(0));
        const ratio = o !== '—' && h !== '—' && o.sustained && h.sustained ? (o.micros / h.micros).toFixed(2) : '—';
        return [
          p.rate,
          p.submittedRate.toFixed(0),
          us(o),
          us(h),
          ratio,
          kept(o),
          kept(h),
          p.cooMicros.toFixed(0),
          `${p.referenced}/${p.sample.length}`,
          p.load,
        ];
      }),
    );
    console.log('target: ours ÷ Hornet ≤ 0.33 at 1,000 blocks/s and above (reported, not asserted)');
  } finally {
    for (const f of running) await f.stop().catch(() => {});
    await coordinator.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
