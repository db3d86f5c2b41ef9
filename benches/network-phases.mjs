// bench:network's phases: how a phase is run and measured (a snapshot of the nodes' CPU,
// gossip counters, bytes and stored blocks before and after it), and the three phases that
// do more than wait under the load: the partition, the churn and the joiners. The sequence
// itself is in network.bench.mjs, so that it reads at a glance there.

import { cpuSeconds, rssMiB } from './measure.mjs';
import { pool, sleep } from './ledger-load.mjs';
import { connect, edges, gossipBytes } from './network-links.mjs';
import { healthStatus, info, issueToken, killNode, metrics, plan, startNode, timeToSynced } from './network-nodes.mjs';
import {
  CHURN,
  CUT,
  JOINERS,
  JWT_SECRET,
  KILLS,
  load,
  log,
  MINORITY,
  now,
  random,
  randomInt,
  SETTLE,
  shuffle,
} from './network-options.mjs';

// ---- phase figures ---------------------------------------------------------------------------

async function snapshot(ctx) {
  const nodes = ctx.nodes.filter((n) => n.up);
  const m = await Promise.all(nodes.map((n) => metrics(n).catch(() => undefined)));
  return {
    at: now(),
    stored: (await metrics(ctx.coordinator)).stored,
    cpu: new Map(ctx.nodes.map((n) => [n.index, n.deadCpu + (n.up ? cpuSeconds(n.process.pid) || 0 : 0)])),
    known: new Map(nodes.map((n, i) => [n.index, n.deadKnown + (m[i]?.known ?? 0)])),
    bytes: gossipBytes(new Set([...ctx.nodes, ...ctx.hornets].map((n) => n.p2pPort))),
    hornets: new Map(
      ctx.hornets
        .filter((h) => h.up)
        .map((h) => [h.name, { cpu: cpuSeconds(h.pid), mqtt: h.mqtt ? cpuSeconds(h.mqtt.pid) : NaN }]),
    ),
    probe: cpuSeconds(ctx.probe.pid),
    toxiproxy: cpuSeconds(ctx.toxiproxy.child.pid),
    self: process.cpuUsage(),
  };
}

/** The phase's figures from two snapshots; the blocks' arrivals are added at the end. */
function phaseFigures(name, before, after, ctx) {
  const seconds = (after.at - before.at) / 1000;
  const blocks = Math.max(1, after.stored - before.stored);
  const nodes = ctx.nodes.filter((n) => before.cpu.has(n.index) && after.cpu.has(n.index));
  const cpu = nodes.map((n) => after.cpu.get(n.index) - before.cpu.get(n.index));
  const known = nodes
    .filter((n) => before.known.has(n.index) && after.known.has(n.index))
    .map((n) => after.known.get(n.index) - before.known.get(n.index));
  const rss = ctx.nodes.filter((n) => n.up).map((n) => rssMiB(n.process.pid));
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  return {
    name,
    seconds,
    blocks,
    nodes: ctx.nodes.filter((n) => n.up).length,
    duplicates: mean(known) / blocks,
    bytesPerNode: (after.bytes - before.bytes) / (ctx.nodes.length + ctx.hornets.length) / blocks,
    cpuMsPerBlockPerNode: (mean(cpu) * 1000) / blocks,
    nodeCores: cpu.reduce((s, x) => s + x, 0) / seconds,
    probeCores: (after.probe - before.probe) / seconds,
    toxiproxyCores: (after.toxiproxy - before.toxiproxy) / seconds,
    selfCores: (after.self.user - before.self.user + after.self.system - before.self.system) / 1e6 / seconds,
    rssMean: mean(rss),
    rssMax: Math.max(...rss),
    rssTotal: rss.reduce((s, x) => s + x, 0),
    hornets: ctx.hornets
      .filter((h) => before.hornets.has(h.name) && after.hornets.has(h.name))
      .map((h) => {
        const cpu = after.hornets.get(h.name).cpu - before.hornets.get(h.name).cpu;
        const mqtt = after.hornets.get(h.name).mqtt - before.hornets.get(h.name).mqtt;
        return {
          name: h.name,
          cpuMsPerBlock: (cpu * 1000) / blocks,
          cores: cpu / seconds,
          mqttCores: mqtt / seconds,
          rss: rssMiB(h.pid),
        };
      }),
    load: load(),
    from: before.at,
    to: after.at,
  };
}

export async function runPhase(ctx, name, body) {
  ctx.load.phase = name;
  const before = await snapshot(ctx);
  log(`phase ${name}: start; load ${load()}`);
  const extra = await body();
  const after = await snapshot(ctx);
  const figures = { ...phaseFigures(name, before, after, ctx), ...extra };
  ctx.phases.push(figures);
  log(
    `phase ${name}: ${figures.blocks} blocks in ${figures.seconds.toFixed(0)} s; nodes ${figures.nodeCores.toFixed(2)} cores, ` +
      `RSS per node ${figures.rssMean.toFixed(0)} MiB (max ${figures.rssMax.toFixed(0)}); load ${load()}`,
  );
  if (ctx.hornets.length > 0) {
    const coo = (await info(ctx.coordinator).catch(() => undefined))?.confirmedMilestone.index;
    const at = await Promise.all(
      ctx.hornets.map(async (h) => (await info(h).catch(() => undefined))?.confirmedMilestone.index),
    );
    log(
      `phase ${name}: coordinator at milestone ${coo}; ` +
        ctx.hornets
          .map((h, i) => {
            const f = figures.hornets.find((x) => x.name === h.name);
            return `${h.name} at ${at[i]}${f ? `, ${f.cores.toFixed(2)} cores, RSS ${f.rss.toFixed(0)} MiB` : ''}`;
          })
          .join('; '),
    );
  }
}

// ---- phases ----------------------------------------------------------------------------------

/**
 * A connected set of about MINORITY × nodes, from a submitter, without the coordinator, whose
 * rest is connected too; with at most a third of the submitters where such a set is found.
 */
function pickMinority(ctx) {
  const size = Math.max(1, Math.round(ctx.nodes.length * MINORITY));
  let fallback;
  for (let attempt = 0; attempt < 200; attempt++) {
    const start = ctx.submitters[attempt % ctx.submitters.length].index;
    const side = new Set([start]);
    const frontier = [start];
    while (side.size < size && frontier.length > 0) {
      const at = frontier.splice(Math.floor(random() * frontier.length), 1)[0];
      for (const b of shuffle([...ctx.graph[at]])) {
        if (side.size >= size) break;
        if (b === 0 || side.has(b)) continue;
        side.add(b);
        frontier.push(b);
      }
    }
    if (side.size < size) continue;
    // The rest must hold together without the minority.
    const rest = ctx.nodes.map((n) => n.index).filter((i) => !side.has(i));
    const seen = new Set([0]);
    const queue = [0];
    while (queue.length > 0) {
      const at = queue.pop();
      for (const b of ctx.graph[at]) if (!side.has(b) && !seen.has(b)) seen.add(b), queue.push(b);
    }
    if (seen.size !== rest.length) continue;
    fallback ??= side;
    // Most of the load stays on the larger side.
    const submitters = ctx.submitters.filter((n) => side.has(n.index)).length;
    if (submitters <= Math.ceil(ctx.submitters.length / 3)) return side;
  }
  if (fallback) return fallback;
  throw new Error('no connected minority with a connected majority found (another --seed?)');
}

export async function partition(ctx) {
  const side = pickMinority(ctx);
  const minority = ctx.nodes.filter((n) => side.has(n.index));
  for (const n of minority) n.minority = true;
  const crossing = edges.filter((e) => side.has(e.a) !== side.has(e.b));
  const cmiAtCut = (await info(ctx.coordinator)).confirmedMilestone.index;
  const minorityCmiAtCut = Math.max(
    ...(await Promise.all(minority.map(async (n) => (await info(n)).confirmedMilestone.index))),
  );
  log(
    `partition: ${minority.length} nodes (${minority.map((n) => n.name).join(' ')}) cut off over ${crossing.length} links; ` +
      `coordinator at milestone ${cmiAtCut}`,
  );
  await pool(
    crossing.flatMap((e) => e.proxies),
    8,
    (name) => ctx.toxiproxy.enable(name, false),
  );
  const cutAt = now();
  // /health and isHealthy of the smaller side every 5 s.
  const polls = { health200: 0, health503: 0, other: 0, infoHealthy: 0, infoUnhealthy: 0, maxCmi: minorityCmiAtCut };
  const timeline = [];
  while (now() - cutAt < CUT * 1000) {
    const t = (now() - cutAt) / 1000;
    const answers = await Promise.all(
      minority.map(async (n) => {
        const status = await healthStatus(n);
        const s = await info(n).catch(() => undefined);
        return { status, healthy: s?.isHealthy, cmi: s?.confirmedMilestone.index ?? 0 };
      }),
    );
    let healthy = 0;
    for (const a of answers) {
      if (a.status === 200) polls.health200++, healthy++;
      else if (a.status === 503) polls.health503++;
      else polls.other++;
      if (a.healthy === true) polls.infoHealthy++;
      else polls.infoUnhealthy++;
      polls.maxCmi = Math.max(polls.maxCmi, a.cmi);
    }
    timeline.push(`${t.toFixed(0)} s: ${healthy}/${minority.length} /health 200`);
    await sleep(5000);
  }
  log(`partition: smaller side over the cut: ${timeline.join(', ')}`);
  const cmiAtHeal = (await info(ctx.coordinator)).confirmedMilestone.index;
  await pool(
    crossing.flatMap((e) => e.proxies),
    8,
    (name) => ctx.toxiproxy.enable(name, true),
  );
  const healAt = now();
  log(`partition: healed at coordinator milestone ${cmiAtHeal}`);
  // Catch-up: every node's confirmed milestone ≥ the coordinator's at the heal.
  const caughtUp = new Map();
  while (caughtUp.size < ctx.nodes.length && now() - healAt < 300_000) {
    await Promise.all(
      ctx.nodes
        .filter((n) => !caughtUp.has(n.index))
        .map(async (n) => {
          const s = await info(n).catch(() => undefined);
          if (s && s.confirmedMilestone.index >= cmiAtHeal) caughtUp.set(n.index, now() - healAt);
        }),
    );
    await sleep(500);
  }
  const catchUp = Math.max(...caughtUp.values());
  const notCaughtUp = ctx.nodes.filter((n) => !caughtUp.has(n.index)).map((n) => n.name);
  log(
    `partition: catch-up ${caughtUp.size === ctx.nodes.length ? `${(catchUp / 1000).toFixed(1)} s` : `not within 300 s (${notCaughtUp.join(' ')})`}; ` +
      `smaller side: /health 200 ${polls.health200}×, 503 ${polls.health503}×, isHealthy true ${polls.infoHealthy}×; ` +
      `its highest confirmed milestone during the cut ${polls.maxCmi} (at the cut ${minorityCmiAtCut})`,
  );
  for (const n of minority) n.minority = false;
  return {
    minority: minority.length,
    crossing: crossing.length,
    polls,
    minorityCmiAtCut,
    cmiAtCut,
    cmiAtHeal,
    catchUpMs: caughtUp.size === ctx.nodes.length ? catchUp : NaN,
    cutAt,
    healAt,
  };
}

export async function churn(ctx) {
  const candidates = shuffle(ctx.nodes.filter((n) => n.index !== 0 && !ctx.submitters.includes(n)));
  const victims = candidates.slice(0, KILLS);
  const start = now();
  const results = [];
  await Promise.all(
    victims.map(async (n) => {
      await sleep(random() * Math.max(1, CHURN - 30) * 1000);
      await killNode(n);
      const down = randomInt(5, 15);
      log(`churn: ${n.name} killed (SIGKILL), restarting in ${down} s`);
      await sleep(down * 1000);
      const target = (await info(ctx.coordinator)).confirmedMilestone.index;
      try {
        await startNode(n);
      } catch (err) {
        log(`churn: ${n.name} did not start again: ${err.message.slice(0, 300)}`);
        results.push({ name: n.name, down, ms: NaN, failed: true });
        return;
      }
      const ms = await timeToSynced(n, target, 180_000);
      n.downs.at(-1).to = now();
      log(
        `churn: ${n.name} synced ${Number.isNaN(ms) ? 'NOT within 180 s' : `${(ms / 1000).toFixed(1)} s after its start`}`,
      );
      results.push({ name: n.name, down, ms });
    }),
  );
  await sleep(Math.max(0, CHURN * 1000 - (now() - start)));
  return { restarts: results };
}

export async function joiners(ctx) {
  const results = [];
  const jobs = [];
  for (let j = 0; j < JOINERS; j++) {
    const n = await plan(ctx.nodes.length);
    n.name = `new${j + 1}`;
    const peers = shuffle(ctx.nodes.filter((x) => x.up)).slice(0, 4);
    for (const p of peers) {
      const edge = await connect(ctx.toxiproxy, n, p);
      ctx.graph[p.index].add(n.index);
      (ctx.graph[n.index] ??= new Set()).add(p.index);
      void edge;
    }
    ctx.nodes.push(n);
    const target = (await info(ctx.coordinator)).confirmedMilestone.index;
    await startNode(n);
    ctx.probe.add(n);
    const token = await issueToken(JWT_SECRET);
    await Promise.all(
      peers.map(async (p) => {
        const res = await fetch(`${p.http.base}/api/core/v2/peers`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ multiAddress: p.dials.get(n.index), alias: n.name }),
        });
        if (res.status !== 201 && res.status !== 200)
          log(`joiners: POST peer at ${p.name}: ${res.status} ${await res.text()}`);
      }),
    );
    log(`joiners: ${n.name} started, peered with ${peers.map((p) => p.name).join(' ')}`);
    jobs.push(
      timeToSynced(n, target, 300_000).then((ms) => {
        n.startedFirst = now(); // from here on, it is expected to store every new block
        log(
          `joiners: ${n.name} synced ${Number.isNaN(ms) ? 'NOT within 300 s' : `${(ms / 1000).toFixed(1)} s after its start`}`,
        );
        results.push({ name: n.name, ms });
      }),
    );
    await sleep(10_000);
  }
  await Promise.all(jobs);
  await sleep(SETTLE * 1000);
  return { joined: results };
}
