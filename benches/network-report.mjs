// bench:network's end: whether every node agrees with the coordinator (milestones,
// included blocks), and the tables it prints: per phase, the probe's arrival times turned
// into propagation and inclusion percentiles, the costs, the partition, churn and joiners,
// and the Hornets beside ours. Only the Hornets' mismatches set the exit code; the rest are
// figures to read.

import { table } from './measure.mjs';
import { percentile, pool } from './ledger-load.mjs';
import { edges } from './network-links.mjs';
import { healthStatus, info } from './network-nodes.mjs';
import { CUT, HORNET_MQTT, INTERVAL, load, MAX_IN_FLIGHT, NODES, POW, RATE, shuffle } from './network-options.mjs';

// ---- the end: agreement and figures ------------------------------------------------------------

export async function agreement(ctx) {
  const up = ctx.nodes.filter((n) => n.up);
  const statuses = await Promise.all(up.map((n) => info(n).catch(() => undefined)));
  const cmis = statuses.map((s) => s?.confirmedMilestone.index ?? -1);
  const common = Math.min(...cmis);
  // Milestone payloads at up to 20 indexes below the common one, compared with the coordinator's.
  const indexes = Array.from({ length: Math.min(20, common) }, (_, i) =>
    Math.max(1, common - i * Math.ceil(common / 20)),
  );
  let differing = 0;
  for (const index of indexes) {
    const reference = (await ctx.coordinator.http.http('GET', `/api/core/v2/milestones/by-index/${index}`)).text;
    await pool(up, 8, async (n) => {
      if ((await n.http.http('GET', `/api/core/v2/milestones/by-index/${index}`)).text !== reference) differing++;
    });
  }
  // included-block of confirmed transfers, each node against the coordinator.
  const sample = shuffle(ctx.load.confirmedTransfers).slice(0, 40);
  ctx.sample = sample;
  const mismatches = new Map();
  for (const id of sample) {
    const path = `/api/core/v2/transactions/${id}/included-block/metadata`;
    const reference = await ctx.coordinator.http.http('GET', path);
    const referenceId = reference.status === 200 ? JSON.parse(reference.text).blockId : `status ${reference.status}`;
    await pool(up, 8, async (n) => {
      const answer = await n.http.http('GET', path);
      const blockId = answer.status === 200 ? JSON.parse(answer.text).blockId : `status ${answer.status}`;
      if (blockId !== referenceId) mismatches.set(n.name, (mismatches.get(n.name) ?? 0) + 1);
    });
  }
  const health = await Promise.all(up.map((n) => healthStatus(n)));
  return {
    cmis: Object.fromEntries(up.map((n, i) => [n.name, cmis[i]])),
    spread: Math.max(...cmis) - common,
    halted: up.filter((_, i) => statuses[i]?.isHealthy === false).map((n) => n.name),
    unhealthy: up.filter((_, i) => health[i] !== 200).map((n) => n.name),
    milestonesCompared: indexes.length * up.length,
    differing,
    includedCompared: sample.length * up.length,
    mismatches: Object.fromEntries(mismatches),
  };
}

/** Per block: the times to reach 50/90/100 % of the nodes that existed when it was sent, and to be referenced at all of them. */
function blockFigures(ctx, records, observed) {
  const out = {
    to50: [],
    to90: [],
    to100: [],
    referencedAll: [],
    referencedCoo: 0,
    incomplete: 0,
    acknowledged: 0,
    /** Every (block, counted node): submit → stored there, submit → referenced there (beside a Hornet's). */
    storedEach: [],
    referencedEach: [],
  };
  for (const r of records) {
    if (r.status !== 201) continue;
    out.acknowledged++;
    const seen = observed[r.blockId];
    // The nodes there when it was sent, less those killed within 10 s of it (or down then).
    const expected = ctx.nodes
      .filter((n) => n.startedFirst <= r.sentAt)
      .filter((n) => !n.downs.some((d) => d.from <= r.sentAt + 10_000 && d.to >= r.sentAt))
      .map((n) => n.index);
    const stored = expected
      .map((i) => seen?.stored[i])
      .filter((t) => t !== undefined)
      .map((t) => t - r.sentAt)
      .sort((x, y) => x - y);
    const reach = (share) => {
      const k = Math.ceil(share * expected.length);
      return stored.length >= k ? stored[k - 1] : undefined;
    };
    for (const [share, list] of [
      [0.5, out.to50],
      [0.9, out.to90],
      [1, out.to100],
    ]) {
      const t = reach(share);
      if (t !== undefined) list.push(t);
    }
    if (stored.length < expected.length) out.incomplete++;
    if (seen?.referenced[0] !== undefined) out.referencedCoo++;
    const referenced = expected.map((i) => seen?.referenced[i]).filter((t) => t !== undefined);
    if (referenced.length === expected.length) out.referencedAll.push(Math.max(...referenced) - r.sentAt);
    out.storedEach.push(...stored);
    out.referencedEach.push(...referenced.map((t) => t - r.sentAt));
  }
  for (const k of ['to50', 'to90', 'to100', 'referencedAll', 'storedEach', 'referencedEach'])
    out[k].sort((x, y) => x - y);
  return out;
}

const ms = (sorted, p) => (sorted.length === 0 ? '—' : `${Math.round(percentile(sorted, p))}`);

/** A Hornet's submit → stored and submit → referenced (its inx-mqtt) for the blocks sent once the probe heard it. */
function hornetBlockFigures(h, records, observed) {
  const out = { stored: [], referenced: [], counted: 0, missing: 0 };
  for (const r of records) {
    if (r.status !== 201 || r.sentAt < h.startedFirst) continue;
    out.counted++;
    const seen = observed[r.blockId];
    if (seen?.stored[h.index] === undefined) out.missing++;
    else out.stored.push(seen.stored[h.index] - r.sentAt);
    if (seen?.referenced[h.index] !== undefined) out.referenced.push(seen.referenced[h.index] - r.sentAt);
  }
  out.stored.sort((x, y) => x - y);
  out.referenced.sort((x, y) => x - y);
  return out;
}

/** The Hornets beside ours; any mismatch sets the exit code to 1 (an interop check). */
function reportHornets(ctx, result, lags, records, observed) {
  const names = ctx.hornets.map((h) => h.name);
  const each = (fn) => ctx.hornets.map((h) => fn(h, result.figures[h.name]));
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  table(
    ['Hornet 2.0.1 in the crowd', ...names],
    [
      [
        'peers (our nodes, each through its proxy pair)',
        ...each((h) => `${h.peers.length}: ${h.peers.map((p) => p.name).join(' ')}`),
      ],
      [
        'synced from genesis after its start',
        ...each((h) => (Number.isNaN(h.syncedMs) ? 'not within 180 s' : `${(h.syncedMs / 1000).toFixed(1)} s`)),
      ],
      [
        "under the load: milestones behind the coordinator's, max / mean (polls every 2 s)",
        ...each((h) => {
          const l = lags.get(h.name);
          return l.length === 0 ? '—' : `${Math.max(...l)} / ${mean(l).toFixed(2)} (${l.length} polls)`;
        }),
      ],
      [
        `at the end: confirmed milestone (the coordinator's ${result.target})`,
        ...each((_h, f) => `${f.cmi} after ${(f.waitedMs / 1000).toFixed(1)} s`),
      ],
      ['milestones compared (payload, id, found by id)', ...each((_h, f) => `${f.milestones}`)],
      ['utxo-changes compared', ...each((_h, f) => `${f.changes}`)],
      [
        `outputs compared (output + metadata; ${result.unspent} unspent, ${result.outputs - result.unspent} spent)`,
        ...each((_h, f) => `${f.outputs}`),
      ],
      ['included-block and its metadata compared (sampled transfers)', ...each((_h, f) => `${f.included}`)],
      ['**differing from ours**', ...each((_h, f) => `${f.differing}`)],
    ],
  );
  console.log(
    `our followers against the coordinator on the same outputs (one follower per output, in turn): ` +
      `${result.oursCompared} compared, ${result.oursDiffering} differing`,
  );
  // Propagation and time to referenced, and CPU and RSS, per phase, beside ours.
  if (HORNET_MQTT) {
    const rows = [];
    for (const f of ctx.phases) {
      if (f.name === 'idle') continue;
      const inPhase = records.filter((r) => r.phase === f.name);
      const b = blockFigures(ctx, inPhase, observed);
      rows.push([
        f.name,
        `ours: ${ms(b.storedEach, 50)} / ${ms(b.storedEach, 99)}`,
        `${ms(b.referencedEach, 50)} / ${ms(b.referencedEach, 99)}`,
        '',
      ]);
      for (const h of ctx.hornets) {
        const x = hornetBlockFigures(h, inPhase, observed);
        rows.push([
          '',
          `${h.name}: ${ms(x.stored, 50)} / ${ms(x.stored, 99)}`,
          `${ms(x.referenced, 50)} / ${ms(x.referenced, 99)}`,
          `${x.counted} (${x.missing} never seen)`,
        ]);
      }
    }
    table(
      [
        'phase',
        'submit → stored at a node p50 / p99 ms',
        'submit → referenced at a node p50 / p99 ms',
        "blocks counted (Hornet's inx-mqtt)",
      ],
      rows,
    );
  }
  const costRows = [];
  for (const f of ctx.phases) {
    costRows.push([f.name, `ours: ${f.cpuMsPerBlockPerNode.toFixed(2)}`, '—', `${f.rssMean.toFixed(0)} (mean)`]);
    for (const x of f.hornets)
      costRows.push([
        '',
        `${x.name}: ${x.cpuMsPerBlock.toFixed(2)}`,
        `${x.cores.toFixed(2)}${HORNET_MQTT ? ` + inx-mqtt ${x.mqttCores.toFixed(2)}` : ''}`,
        `${x.rss.toFixed(0)}`,
      ]);
  }
  table(['phase', 'CPU ms / block / node', 'Hornet cores', 'RSS MiB at the end of the phase'], costRows);
  if (result.mismatches.length > 0) {
    console.log(`MISMATCH: ${result.mismatches.length} differences between Hornet and ours (first 40):`);
    for (const line of result.mismatches.slice(0, 40)) console.log(`  ${line}`);
    process.exitCode = 1;
  } else
    console.log(
      `ok: ${ctx.hornets.length} Hornet 2.0.1 nodes reached milestone ${result.target} and agree with ours on every milestone, ` +
        `utxo-changes, output and included block compared`,
    );
}

/** Every table of the run, from the load's records and what the probe saw of them. */
export async function report(ctx, results, agreed, withHornet, lags) {
  const records = ctx.load.records;
  const observed = await ctx.probe.report(records.filter((r) => r.status === 201).map((r) => r.blockId));
  console.log(
    `\nbench:network — ${NODES} nodes (+${ctx.nodes.length - NODES} joiners), ${edges.length} links, ${RATE} blocks/s asked, ` +
      `minPowScore ${POW}, milestone every ${INTERVAL} s; load average at the end ${load()}\n`,
  );
  const rows = [];
  const costRows = [];
  for (const f of ctx.phases) {
    const inPhase = records.filter((r) => r.phase === f.name);
    const b = blockFigures(ctx, inPhase, observed);
    const errors = inPhase.filter((r) => r.status !== 201).length;
    rows.push([
      f.name,
      `${(inPhase.length / f.seconds).toFixed(1)}`,
      `${b.acknowledged} / ${errors}`,
      `${ms(b.to50, 50)} / ${ms(b.to50, 99)}`,
      `${ms(b.to90, 50)} / ${ms(b.to90, 99)}`,
      `${ms(b.to100, 50)} / ${ms(b.to100, 99)} (${b.incomplete} not at all)`,
      `${ms(b.referencedAll, 50)} / ${ms(b.referencedAll, 99)}`,
      `${((100 * b.referencedCoo) / Math.max(1, b.acknowledged)).toFixed(1)} %`,
    ]);
    costRows.push([
      f.name,
      `${f.nodes}`,
      `${f.blocks}`,
      f.duplicates.toFixed(2),
      `${Math.round(f.bytesPerNode)}${f.name === 'partition' || f.name === 'churn' ? ' (low: closed connections)' : ''}`,
      f.cpuMsPerBlockPerNode.toFixed(2),
      f.nodeCores.toFixed(2),
      `${f.probeCores.toFixed(2)} / ${f.toxiproxyCores.toFixed(2)} / ${f.selfCores.toFixed(2)}`,
      `${f.rssMean.toFixed(0)} / ${f.rssMax.toFixed(0)} / ${(f.rssTotal / 1024).toFixed(1)} GiB`,
      f.load,
    ]);
  }
  table(
    [
      'phase',
      'submitted /s',
      '201 / errors',
      'to 50 % p50 / p99 ms',
      'to 90 % p50 / p99 ms',
      'to 100 % p50 / p99 ms',
      'referenced at every node p50 / p99 ms',
      'referenced (coordinator)',
    ],
    rows,
  );
  table(
    [
      'phase',
      'nodes up',
      'blocks',
      'duplicates / block / node',
      'bytes sent / block / node',
      'CPU ms / block / node',
      'nodes, cores',
      'probe / toxiproxy / bench, cores',
      'RSS per node mean / max MiB, total',
      'load average',
    ],
    costRows,
  );
  console.log(`skipped submissions (more than ${MAX_IN_FLIGHT} in flight): ${ctx.load.skipped}`);
  // Every distinct error answer, with how often it came.
  const errors = new Map();
  for (const r of records.filter((r) => r.status !== 201 && r.status !== undefined)) {
    const key = `${r.status || 'no answer'} ${r.error ?? ''}`.slice(0, 200);
    errors.set(key, (errors.get(key) ?? 0) + 1);
  }
  for (const [key, count] of errors) console.log(`  ${count}× ${key}`);
  if (results.partition) {
    const p = results.partition;
    const cut = records.filter((r) => r.minority && r.sentAt >= p.cutAt && r.sentAt < p.healAt);
    const acked = cut.filter((r) => r.status === 201);
    const referencedLater = [];
    const lost = [];
    await pool(acked, 8, async (r) => {
      const res = await ctx.coordinator.http.http('GET', `/api/core/v2/blocks/${r.blockId}/metadata`);
      const meta = res.status === 200 ? JSON.parse(res.text) : undefined;
      if (meta?.referencedByMilestoneIndex !== undefined) referencedLater.push(r);
      else lost.push(r);
    });
    const errors = new Map();
    for (const r of cut.filter((r) => r.status !== 201)) errors.set(r.status, (errors.get(r.status) ?? 0) + 1);
    table(
      ['partition', 'value'],
      [
        ['smaller side', `${p.minority} of ${NODES} nodes, ${p.crossing} links cut for ${CUT} s`],
        [
          'smaller side /health during the cut (polls every 5 s)',
          `200: ${p.polls.health200}, 503: ${p.polls.health503}, no answer: ${p.polls.other}`,
        ],
        ['smaller side isHealthy during the cut', `true: ${p.polls.infoHealthy}, false: ${p.polls.infoUnhealthy}`],
        [
          'smaller side confirmed a milestone on its own',
          p.polls.maxCmi > p.cmiAtHeal ? `yes (${p.polls.maxCmi})` : `no (highest ${p.polls.maxCmi})`,
        ],
        [
          "catch-up after the heal (every node ≥ the coordinator's milestone at the heal)",
          Number.isNaN(p.catchUpMs) ? 'not within 300 s' : `${(p.catchUpMs / 1000).toFixed(1)} s`,
        ],
        ['submitted on the smaller side during the cut', `${cut.length}`],
        ['… 201, referenced after the heal', `${referencedLater.length}`],
        ['… 201, never referenced (silently lost)', `${lost.length}`],
        ['… answered with an error', [...errors].map(([s, c]) => `${c}× ${s || 'no answer'}`).join(', ') || '0'],
      ],
    );
  }
  if (results.churn)
    table(
      ['restarted after SIGKILL', 'down s', 'synced after its start'],
      results.churn.restarts.map((r) => [
        r.name,
        `${r.down}`,
        r.failed ? 'did not start' : Number.isNaN(r.ms) ? 'not within 180 s' : `${(r.ms / 1000).toFixed(1)} s`,
      ]),
    );
  if (results.joiners)
    table(
      ['late joiner (fresh, from genesis)', 'synced after its start'],
      results.joiners.joined.map((r) => [
        r.name,
        Number.isNaN(r.ms) ? 'not within 300 s' : `${(r.ms / 1000).toFixed(1)} s`,
      ]),
    );
  table(
    ['at the end', 'value'],
    [
      [
        'confirmed milestones (spread max − min)',
        `${agreed.spread} (${Math.min(...Object.values(agreed.cmis))}–${Math.max(...Object.values(agreed.cmis))})`,
      ],
      ['nodes not healthy', agreed.unhealthy.join(' ') || 'none'],
      ['milestone payloads compared / differing', `${agreed.milestonesCompared} / ${agreed.differing}`],
      [
        'included-block answers compared / differing from the coordinator',
        `${agreed.includedCompared} / ${Object.values(agreed.mismatches).reduce((s, x) => s + x, 0)} ${JSON.stringify(agreed.mismatches)}`,
      ],
    ],
  );
  if (withHornet) reportHornets(ctx, withHornet, lags, records, observed);
}
