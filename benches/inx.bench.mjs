// Benchmarks of the INX side (issue 22): `npm run bench:inx [-- --phases
// indexer,mqtt,ledger-updates …]`. Each phase measures the node's built-in part against
// Hornet 2.0.1's real extension attached over INX, in the same run, and prints its figures;
// the end gives every figure in one table with the ratios ours ÷ theirs. Nothing asserted.
//
// - indexer (inx-indexer.mjs): built-in indexer vs inx-indexer 1.0.1 on each of --engines
//   (sqlite,postgresql; PostgreSQL only where its binaries are, PG_BIN) on a ledger of
//   --outputs (1,000,000) unspent outputs: build vs import time, query req/s and p50/p99 with
//   --connections (4) for --duration s (5), --rounds (3) alternating, --pages (100) cursors;
//   disk; and the floor: the node's GET /health with the same connections, the rate no
//   built-in query can pass over HTTP, against inx-indexer's one-match query.
// - mqtt (inx-mqtt.mjs): built-in event API vs inx-mqtt 1.0.0 (its own port and through the
//   node's proxy), --clients (100,1000) subscribers, --probes (10), --rate (100) blocks/s
//   for --seconds (15): messages/s, latency p50/p99, broker CPU.
// - ledger-updates (inx-ledger-updates.mjs): an INX client on ListenToLedgerUpdates while
//   bench:ledger's load (--transactions 20480, --chains 64, --pow 0) is confirmed,
//   --ledger-rounds (1): batches/s, outputs/s, lag, confirmed tx/s with ÷ without it.
//
// Binaries: INX_INDEXER, INX_MQTT (default /work/interop/bin/…); the ledger of the indexer
// phase is written with cargo, or INDEXER_LEDGER_BIN (indexer-ledger.mjs). BENCH_PORTS
// keeps the ports in a range (node-process.mjs).

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_NAMES, indexerPhase } from './inx-indexer.mjs';
import { ledgerUpdatesPhase } from './inx-ledger-updates.mjs';
import { mqttPhase } from './inx-mqtt.mjs';
import { load, postgresMissing } from './inx-extensions.mjs';
import { arg, fmt, listArg, median, mib, table } from './measure.mjs';

const PHASES = listArg('phases', ['indexer', 'mqtt', 'ledger-updates']);
const ratio = (ours, theirs) => (Number.isFinite(ours / theirs) ? `${(ours / theirs).toFixed(2)}×` : '—');
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '—');
const s2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');

/** The final table's rows: [phase, measure, ours, theirs, ours ÷ theirs]. */
const rows = [];

function reportIndexer(r) {
  console.log(`\n## indexer: ${r.outputs} unspent outputs\n`);
  const perEngine = (label, value) => r.engines.map((e) => [`inx-indexer ${e.name}: ${label}`, value(e)]);
  table(
    ['measure', 'value'],
    [
      ['built-in: node start with the index rebuild / without, s', `${s2(r.rebuiltStart)} / ${s2(r.plainStart)}`],
      ['built-in: build time (the difference), s', s2(r.buildSeconds)],
      ['load average (1/5/15 min) at the build', r.loadAtBuild],
      [
        'built-in: index table files (RocksDB), MiB / all table files',
        `${mib(r.ourIndexBytes)} / ${mib(r.ourTableBytes)}`,
      ],
      ...perEngine('node start with --no-indexer --inx on its copy of the ledger, s', (e) => s2(e.nodeStart)),
      ...perEngine('start → indexer/v1 registered, s', (e) => s2(e.registeredSeconds)),
      ...perEngine('start → answers at the confirmed milestone, s', (e) => s2(e.syncedSeconds)),
      ...perEngine('its own "Importing initial ledger … took", s', (e) => s2(e.ownSeconds)),
      ...perEngine('CPU s until synced (inx-indexer; the PostgreSQL server)', (e) =>
        Number.isFinite(e.serverCpu) ? `${s2(e.importCpu)}; ${s2(e.serverCpu)}` : s2(e.importCpu),
      ),
      ...perEngine('load average at the import', (e) => e.loadAtImport),
      ...perEngine('disk, MiB', (e) =>
        e.engine === 'postgresql'
          ? `pg_database_size ${mib(e.diskBytes)}; the cluster's data folder ${mib(e.folderBytes)} on disk / ${mib(e.fileBytes)} in files`
          : `database folder ${mib(e.folderBytes)} on disk / ${mib(e.fileBytes)} in files`,
      ),
    ],
  );
  console.log(
    `queries: ${r.connections} connections, ${r.duration} s a run, median of ${r.rounds} alternating rounds; load during the queries ${r.loadAtQueries.join(' → ')}\n`,
  );
  const others = r.targets.map((t, i) => ({ ...t, i })).filter((t) => t.engine);
  table(
    [
      'query',
      `items (${r.targets.map((t) => t.name).join(' / ')})`,
      'same items',
      ...r.targets.map((t) => `${t.name}: req/s, p50/p99 ms`),
      ...others.map((t) => `req/s ours ÷ ${t.name}`),
    ],
    r.queries.map((q) => [
      q.title,
      q.items.join(' / '),
      q.same === undefined ? '—' : q.same ? 'yes' : 'no',
      ...q.results.map((x) => `${Math.round(x.rps)}, ${x.p50}/${x.p99}${x.bad ? ` (${x.bad} bad)` : ''}`),
      ...others.map((t) => ratio(q.results[0].rps, q.results[t.i].rps)),
    ]),
  );
  // What HTTP alone allows: the node's /health against each inx-indexer's one-match query.
  const one = r.queries[0];
  const floorRatios = others.map((t) => `${ratio(r.floor.rps, one.results[t.i].rps)} ${t.name}`).join(', ');
  console.log(
    `\nfloor: the node's GET /health (no query) ${Math.round(r.floor.rps)} req/s, p50/p99 ${r.floor.p50}/${r.floor.p99} ms${r.floor.bad ? ` (${r.floor.bad} bad)` : ''}; ÷ the one-match query of: ${floorRatios}\n`,
  );
  for (const e of r.engines) {
    const theirs = `inx-indexer ${e.name}`;
    rows.push(
      [
        'indexer',
        `build (ours) vs import to synced (${theirs}), s, ${r.outputs} outputs`,
        s2(r.buildSeconds),
        s2(e.syncedSeconds),
        ratio(r.buildSeconds, e.syncedSeconds),
      ],
      [
        'indexer',
        `disk of the index, MiB (${theirs}: ${e.engine === 'postgresql' ? 'pg_database_size' : 'database folder'})`,
        mib(r.ourIndexBytes),
        mib(e.diskBytes),
        ratio(r.ourIndexBytes, e.diskBytes),
      ],
    );
  }
  for (const e of r.engines) {
    const proxy = r.targets.findIndex((t) => t.engine === e.engine && t.via === 'proxy');
    const direct = r.targets.findIndex((t) => t.engine === e.engine && t.via === 'direct');
    rows.push([
      'indexer',
      `floor: the node's GET /health ÷ ${one.title} of inx-indexer ${e.name} via proxy`,
      Math.round(r.floor.rps),
      Math.round(one.results[proxy].rps),
      ratio(r.floor.rps, one.results[proxy].rps),
    ]);
    for (const q of r.queries) {
      const [o, p, d] = [q.results[0], q.results[proxy], q.results[direct]];
      rows.push(
        [
          'indexer',
          `${q.title}: req/s (${e.name} via proxy; direct ${Math.round(d.rps)}, ours ÷ direct ${ratio(o.rps, d.rps)})`,
          Math.round(o.rps),
          Math.round(p.rps),
          ratio(o.rps, p.rps),
        ],
        [
          'indexer',
          `${q.title}: p50/p99 ms (${e.name} via proxy; direct ${d.p50}/${d.p99})`,
          `${o.p50}/${o.p99}`,
          `${p.p50}/${p.p99}`,
          ratio(o.p99, p.p99),
        ],
      );
    }
  }
}

function reportMqtt(results, { rate, seconds }) {
  console.log(
    `\n## mqtt: ${rate} tagged-data blocks/s for ${seconds} s, subscribers on blocks and milestone-info/latest\n`,
  );
  table(
    [
      'clients',
      'target',
      'messages/s delivered',
      '`blocks` messages received ÷ clients × load blocks (milestones add)',
      'probes: load blocks received / sent',
      'probes: p50 / p90 / p99 / max ms',
      'CPU s node / inx-mqtt',
      'broker-side CPU µs a message',
      'CPU s subscribers',
      'clients dropped',
      'connect s',
      'load',
    ],
    results.map((r) => [
      r.clients,
      r.target,
      fmt(r.deliveredPerSecond),
      `${((r.blocksToAll / r.expected) * 100).toFixed(1)} %`,
      `${r.probeReceipts} / ${r.probeExpected}`,
      `${ms(r.p50)} / ${ms(r.p90)} / ${ms(r.p99)} / ${ms(r.max)}`,
      r.brokerCpu.map((c) => c.toFixed(1)).join(' / '),
      ((r.brokerCpu.reduce((a, b) => a + b, 0) * 1e6) / r.delivered).toFixed(1),
      r.subscriberCpu.toFixed(1),
      r.closed,
      r.connectSeconds.toFixed(1),
      r.load,
    ]),
  );
  for (const clients of new Set(results.map((r) => r.clients))) {
    const ours = results.find((r) => r.clients === clients && r.target === 'built-in');
    for (const theirs of results.filter((r) => r.clients === clients && r.target !== 'built-in')) {
      const cpuOurs = ours.brokerCpu.reduce((a, b) => a + b, 0);
      const cpuTheirs = theirs.brokerCpu.reduce((a, b) => a + b, 0);
      rows.push(
        [
          'mqtt',
          `${clients} clients, messages/s delivered (theirs: ${theirs.target})`,
          fmt(ours.deliveredPerSecond),
          fmt(theirs.deliveredPerSecond),
          ratio(ours.deliveredPerSecond, theirs.deliveredPerSecond),
        ],
        [
          'mqtt',
          `${clients} clients, latency p50/p99 ms (${theirs.target})`,
          `${ms(ours.p50)}/${ms(ours.p99)}`,
          `${ms(theirs.p50)}/${ms(theirs.p99)}`,
          ratio(ours.p99, theirs.p99),
        ],
        [
          'mqtt',
          `${clients} clients, broker-side CPU s, node + extension (${theirs.target})`,
          cpuOurs.toFixed(1),
          cpuTheirs.toFixed(1),
          ratio(cpuOurs, cpuTheirs),
        ],
      );
    }
  }
}

function reportLedgerUpdates(results) {
  console.log('\n## ledger-updates\n');
  table(
    [
      'round',
      'INX client',
      'confirmed tx/s',
      'submitted blocks/s',
      'included',
      'node CPU s',
      'client CPU s',
      'batches/s',
      'outputs/s',
      'lag p50/p99/max ms',
      'max milestones behind',
      'replay: outputs/s, batches/s',
      'load',
    ],
    results.map((r) => [
      r.round,
      r.withClient ? 'yes' : 'no',
      Math.round(r.confirmedTps),
      Math.round(r.submitTps),
      `${r.included} / ${r.transactions}`,
      r.nodeCpu.toFixed(1),
      r.withClient ? r.clientCpu.toFixed(1) : '—',
      r.withClient ? s2(r.batchesPerSecond) : '—',
      r.withClient ? fmt(r.outputsPerSecond) : '—',
      r.withClient ? `${ms(r.lagP50)}/${ms(r.lagP99)}/${ms(r.lagMax)}` : '—',
      r.withClient ? r.behindMax : '—',
      r.withClient
        ? `${fmt(r.replayOutputsPerSecond)}, ${s2(r.replayBatchesPerSecond)} (${r.replayOutputs} in ${s2(r.replaySeconds)} s)`
        : '—',
      r.load,
    ]),
  );
  const mean = (list, key) => median(list.map((r) => r[key]));
  const without = results.filter((r) => !r.withClient);
  const withClient = results.filter((r) => r.withClient);
  rows.push(
    [
      'ledger-updates',
      "the node's CPU s over the load with the INX client (ours) and without (reference), median",
      mean(withClient, 'nodeCpu').toFixed(2),
      mean(without, 'nodeCpu').toFixed(2),
      ratio(mean(withClient, 'nodeCpu'), mean(without, 'nodeCpu')),
    ],
    [
      'ledger-updates',
      'confirmed tx/s with an INX client on ListenToLedgerUpdates (ours) and without (reference), median',
      Math.round(mean(withClient, 'confirmedTps')),
      Math.round(mean(without, 'confirmedTps')),
      ratio(mean(withClient, 'confirmedTps'), mean(without, 'confirmedTps')),
    ],
    [
      'ledger-updates',
      'INX client: outputs/s received during the load; replay outputs/s (medians)',
      fmt(mean(withClient, 'outputsPerSecond')),
      fmt(mean(withClient, 'replayOutputsPerSecond')),
      '—',
    ],
    [
      'ledger-updates',
      'INX client: lag behind the confirmed milestone p50/p99 ms (medians of the runs)',
      `${ms(mean(withClient, 'lagP50'))}/${ms(mean(withClient, 'lagP99'))}`,
      '—',
      '—',
    ],
  );
}

async function main() {
  console.log(`bench:inx, phases ${PHASES.join(', ')}; ${cpus().length} cores, load average ${load()}`);
  const work = mkdtempSync(join(tmpdir(), 'ledger-node-inx-bench-'));
  try {
    if (PHASES.includes('indexer')) {
      const missing = postgresMissing();
      const engines = listArg('engines', missing ? ['sqlite'] : ['sqlite', 'postgresql']);
      for (const e of engines)
        if (!ENGINE_NAMES[e]) throw new Error(`--engines: ${e} is neither sqlite nor postgresql`);
      if (missing && engines.includes('postgresql')) throw new Error(`--engines postgresql: ${missing}`);
      if (missing) console.log(`indexer: inx-indexer on SQLite only, not on PostgreSQL: ${missing}`);
      reportIndexer(
        await indexerPhase({
          outputs: arg('outputs', 1_000_000),
          engines,
          connections: arg('connections', 4),
          duration: arg('duration', 5),
          rounds: arg('rounds', 3),
          pages: arg('pages', 100),
        }),
      );
    }
    if (PHASES.includes('mqtt')) {
      const options = {
        clientCounts: listArg('clients', ['100', '1000']).map(Number),
        probes: arg('probes', 10),
        rate: arg('rate', 100),
        seconds: arg('seconds', 15),
        work,
      };
      reportMqtt(await mqttPhase(options), options);
    }
    if (PHASES.includes('ledger-updates')) {
      reportLedgerUpdates(
        await ledgerUpdatesPhase({
          transactions: arg('transactions', 20480),
          chains: arg('chains', 64),
          pow: arg('pow', 0),
          rounds: arg('ledger-rounds', 1),
        }),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `\n## every figure (ours ÷ the reference: Hornet's extension, or the run without the INX client; load average at the end ${load()})\n`,
  );
  table(['phase', 'measure', 'ours', 'reference', 'ours ÷ reference'], rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
