// bench:inx, phase `ledger-updates`: INX's ListenToLedgerUpdates while the node confirms
// bench:ledger's transfers (ledger-load.mjs: fan-out, one signed transfer per output in
// chains of pre-mined blocks, submitted as bytes) at the highest rate it sustains.
//
// Each round runs the load twice on fresh nodes, both with --inx: without a client and
// with one INX client (which goes first alternates from round to round). The client is a
// process of its own (this file's `--client` mode: @grpc/grpc-js with
// crates/ledger-inx/proto/inx.proto, as an extension connects) on ListenToLedgerUpdates from
// the milestone after the fan-out. Both runs watch the milestones' utxo-changes over REST
// for the load's spent inputs (as bench:ledger) and poll /info every 25 ms for the time
// each milestone is first seen confirmed.
// Figures: confirmed tx/s (first submission → last inclusion) without and with the client;
// batches/s and outputs/s (created + consumed) the client received over the milestones of
// the load; its lag: the time from a milestone first seen confirmed over REST to the
// client's END marker of its batch (p50/p99/max), and the most milestones it was behind;
// then a replay: the same range read again as a bounded stream, batches/s and outputs/s at
// the stream's own pace. CPU seconds of the node and the client.

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load, sleep } from './inx-extensions.mjs';
import { BenchNode, percentile, prepareLoad, submitLoad } from './ledger-load.mjs';
import { cpuSeconds } from './measure.mjs';
import { freePort } from './node-process.mjs';

const now = () => performance.timeOrigin + performance.now();
const PROTO = fileURLToPath(new URL('../crates/ledger-inx/proto/inx.proto', import.meta.url));

// ---- the client's process --------------------------------------------------------------

/**
 * ListenToLedgerUpdates from `start` (to `end`, 0: open) on `address`. Keeps per batch the
 * times of BEGIN and END and the counts; answers `report` messages with them, and sends
 * `{ ended }` when a bounded stream ends.
 */
function client(address, start, end) {
  const require = createRequire(import.meta.url);
  const grpc = require('@grpc/grpc-js');
  const protoLoader = require('@grpc/proto-loader');
  const definition = protoLoader.loadSync(PROTO, { keepCase: false, longs: String, enums: String, defaults: true });
  const { inx } = grpc.loadPackageDefinition(definition);
  const inxClient = new inx.INX(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': 64 << 20,
  });
  const batches = [];
  let open;
  let messages = 0;
  const stream = inxClient.ListenToLedgerUpdates({ startMilestoneIndex: start, endMilestoneIndex: end });
  stream.on('data', (update) => {
    messages++;
    const marker = update.batchMarker;
    if (!marker) return;
    if (marker.markerType === 'BEGIN') open = { index: marker.milestoneIndex, beginAt: now() };
    else
      batches.push({
        ...open,
        endAt: now(),
        consumed: marker.consumedCount,
        created: marker.createdCount,
      });
  });
  stream.on('error', (err) => {
    if (err.code !== grpc.status.CANCELLED) process.send({ error: String(err) });
  });
  stream.on('end', () => process.send({ ended: true, batches, messages }));
  process.on('message', (m) => {
    if (m.report) process.send({ batches, messages });
  });
  process.send({ ready: true });
}

// ---- the benchmark ---------------------------------------------------------------------

function startClient(address, start, end = 0) {
  const child = fork(fileURLToPath(import.meta.url), ['--client', address, String(start), String(end)], {
    stdio: 'inherit',
  });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m.error) reject(new Error(m.error));
        if (m[key] !== undefined) {
          child.off('message', onMessage);
          resolve(m);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`INX client exited with ${code}`)));
    });
  const ended = next('ended');
  ended.catch(() => {}); // a client stopped before its stream ended
  return {
    pid: child.pid,
    ready: next('ready'),
    ended,
    report: () => (child.send({ report: true }), next('batches')),
    stop: () => child.kill(),
  };
}

async function run(withClient, { transactions, chains, pow }) {
  const inxPort = await freePort();
  const address = `127.0.0.1:${inxPort}`;
  const node = await BenchNode.start({ pow, args: ['--inx', '--inx-bind', address] });
  let inxClient;
  let done = false;
  try {
    const { chains: load_ } = await prepareLoad(node, { transactions, chains });
    const all = load_.flat();
    const byInput = new Map(all.map((t) => [t.input, t]));
    const info = async () => (await node.getJson('/api/core/v2/info')).status;
    const startIndex = (await info()).confirmedMilestone.index + 1;
    if (withClient) {
      inxClient = startClient(address, startIndex);
      await inxClient.ready;
    }
    // Confirmation times over REST, and inclusion of the load's transfers.
    const confirmedAt = new Map();
    let seen = startIndex - 1;
    let included = 0;
    let lastIncludedAt = 0;
    let firstLoadIndex = Number.POSITIVE_INFINITY;
    let lastLoadIndex = 0;
    const watcher = (async () => {
      while (!done) {
        const confirmed = (await info()).confirmedMilestone.index;
        const at = now();
        for (let index = seen + 1; index <= confirmed; index++) {
          confirmedAt.set(index, at);
          const changes = await node.getJson(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
          for (const id of changes.consumedOutputs) {
            if (byInput.has(id)) {
              included++;
              lastIncludedAt = performance.now();
              firstLoadIndex = Math.min(firstLoadIndex, index);
              lastLoadIndex = Math.max(lastLoadIndex, index);
            }
          }
        }
        seen = confirmed;
        await sleep(25);
      }
    })();
    const pids = [node.child.pid, inxClient?.pid].filter(Boolean);
    const cpuBefore = pids.map(cpuSeconds);
    const loadBefore = load();
    const { submitStart, submitEnd } = await submitLoad(node, load_);
    while (included < all.length && performance.now() - Math.max(submitEnd, lastIncludedAt) < 10_000) await sleep(50);
    const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
    const result = {
      transactions: all.length,
      included,
      confirmedTps: included / ((lastIncludedAt - submitStart) / 1000),
      submitTps: all.length / ((submitEnd - submitStart) / 1000),
      nodeCpu: cpu[0],
      load: `${loadBefore} → ${load()}`,
      milestones: `${firstLoadIndex}..${lastLoadIndex}`,
    };
    if (withClient) {
      // Until the client has the END of the last milestone of the load.
      let report = await inxClient.report();
      const deadline = performance.now() + 30_000;
      while (!report.batches.some((b) => b.index >= lastLoadIndex) && performance.now() < deadline) {
        await sleep(50);
        report = await inxClient.report();
      }
      done = true;
      await watcher;
      result.clientCpu = cpuSeconds(inxClient.pid) - cpuBefore[1];
      const ofLoad = report.batches.filter((b) => b.index >= firstLoadIndex && b.index <= lastLoadIndex);
      const span = (ofLoad.at(-1).endAt - ofLoad[0].beginAt) / 1000;
      const outputs = ofLoad.reduce((sum, b) => sum + b.consumed + b.created, 0);
      // Every batch since the client's start, empty milestones included.
      const lags = report.batches
        .filter((b) => confirmedAt.has(b.index))
        .map((b) => b.endAt - confirmedAt.get(b.index))
        .sort((a, b) => a - b);
      // Milestones behind: at each END, how many milestones REST had seen confirmed past it.
      const confirmedBy = [...confirmedAt.entries()];
      const behind = report.batches.map(
        (b) => confirmedBy.filter(([, at]) => at <= b.endAt).length - 1 - (b.index - startIndex),
      );
      Object.assign(result, {
        batches: report.batches.length,
        loadBatches: ofLoad.length,
        batchesPerSecond: ofLoad.length / span,
        outputs,
        outputsPerSecond: outputs / span,
        lagP50: percentile(lags, 50),
        lagP99: percentile(lags, 99),
        lagMax: lags.at(-1),
        behindMax: Math.max(0, ...behind),
        messages: report.messages,
      });
      inxClient.stop();
      // Replay: the same milestones again as a bounded stream.
      const replay = startClient(address, firstLoadIndex, lastLoadIndex);
      const replayCpuBefore = [cpuSeconds(node.child.pid), cpuSeconds(replay.pid)];
      await replay.ready;
      const ended = await replay.ended;
      // From the first BEGIN to the last END, as the client saw them.
      const seconds = (ended.batches.at(-1).endAt - ended.batches[0].beginAt) / 1000;
      const replayed = ended.batches.reduce((sum, b) => sum + b.consumed + b.created, 0);
      Object.assign(result, {
        replayBatches: ended.batches.length,
        replayOutputs: replayed,
        replaySeconds: seconds,
        replayOutputsPerSecond: replayed / seconds,
        replayBatchesPerSecond: ended.batches.length / seconds,
        replayNodeCpu: cpuSeconds(node.child.pid) - replayCpuBefore[0],
        replayClientCpu: cpuSeconds(replay.pid) - replayCpuBefore[1],
      });
      replay.stop();
    }
    done = true;
    await watcher;
    return result;
  } finally {
    done = true;
    inxClient?.stop();
    await node.stop();
  }
}

export async function ledgerUpdatesPhase({ transactions, chains, pow, rounds }) {
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    // Alternating which goes first: on a shared machine the load drifts within a round.
    for (const withClient of round % 2 ? [false, true] : [true, false]) {
      const r = await run(withClient, { transactions, chains, pow });
      console.log(
        `ledger-updates round ${round} ${withClient ? 'with' : 'without'} the INX client: ${Math.round(r.confirmedTps)} confirmed tx/s, ${r.included} of ${r.transactions} (load ${r.load})`,
      );
      results.push({ round, withClient, ...r });
    }
  }
  return results;
}

if (process.argv[2] === '--client') client(process.argv[3], Number(process.argv[4]), Number(process.argv[5]));
