// bench:network --hornets: Hornet 2.0.1 followers among our nodes (issue 24 item 5), planned,
// peered and started like ours but from our coordinator's genesis snapshot, each with an
// inx-mqtt for the probe; watched for lag under the load and, at the end, compared with our
// nodes milestone by milestone and output by output. An interop check rather than a figure,
// so it lives apart from the bench proper, which runs the same without it.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHornetFollower } from './hornet.mjs';
import { BenchNode, core, GENESIS_OUTPUT_ID, pool, sleep } from './ledger-load.mjs';
import { COORDINATOR_PUBLIC_KEY, info, native } from './network-nodes.mjs';
import {
  DEGREE_MAX,
  DEGREE_MIN,
  HORNET_INDEX,
  HORNET_MQTT,
  hornetRandom,
  INX_MQTT,
  log,
  now,
  POW,
  randomInt,
  shuffle,
  takePort,
} from './network-options.mjs';

/** A Hornet's identity and ports, fixed before our nodes start (they list it as a static peer). */
export async function planHornet(i) {
  const seed = createHash('sha256').update(`ledger-node bench:network hornet ${i}`).digest('hex');
  const identityPrivateKey = seed + core.publicKey(`0x${seed}`).slice(2);
  const keyDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-network-hornet-key-'));
  const peerId = native.identityPeerId(join(keyDir, 'identity.key'), identityPrivateKey);
  rmSync(keyDir, { recursive: true, force: true });
  return {
    index: HORNET_INDEX + i,
    name: `hornet${i + 1}`,
    identityPrivateKey,
    peerId,
    restPort: await takePort(),
    p2pPort: await takePort(),
    inxPort: HORNET_MQTT ? await takePort() : 0,
    mqttPort: HORNET_MQTT ? await takePort() : 0,
    dials: new Map(),
    peers: [],
    up: false,
    /** From when the probe hears it (inx-mqtt up): the blocks sent since count for its figures. */
    startedFirst: Infinity,
  };
}

/**
 * Each Hornet's peers: --degree-min … --degree-max of our nodes (drawn as ours are), those
 * still below --degree-max first, so that our nodes keep their degree where the graph allows.
 */
export function placeHornets(graph, count) {
  const degree = graph.map((s) => s.size);
  return Array.from({ length: count }, () => {
    const k = Math.min(degree.length, randomInt(DEGREE_MIN, DEGREE_MAX, hornetRandom));
    const order = shuffle([...degree.keys()], hornetRandom);
    const picked = [
      ...order.filter((i) => degree[i] < DEGREE_MAX),
      ...order.filter((i) => degree[i] >= DEGREE_MAX),
    ].slice(0, k);
    for (const i of picked) degree[i]++;
    return picked;
  });
}

/** Hornet from our coordinator's genesis snapshot, dialing its peers through its own proxies. */
export async function startHornet(h, genesisFile) {
  h.startedAt = now();
  h.follower = await startHornetFollower({
    snapshotFile: genesisFile,
    coordinatorPublicKey: COORDINATOR_PUBLIC_KEY,
    peers: [...h.dials.values()],
    identityPrivateKey: h.identityPrivateKey,
    flags: HORNET_MQTT ? ['--inx.enabled=true', `--inx.bindAddress=127.0.0.1:${h.inxPort}`] : [],
    restPort: h.restPort,
    p2pPort: h.p2pPort,
  });
  h.pid = h.follower.pid;
  h.http = new BenchNode(undefined, undefined, h.follower.url, POW);
  h.up = true;
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Hornet's inx-mqtt (the event API Hornet has not by itself), its WebSocket added to the
 * probe: then a Hornet's propagation and time to referenced are read as ours are. Started
 * once Hornet is synced.
 */
export async function startInxMqtt(h, probe) {
  h.mqttDir = mkdtempSync(join(tmpdir(), 'ledger-node-bench-network-inx-mqtt-'));
  h.mqtt = spawn(
    INX_MQTT,
    [
      '--app.checkForUpdates=false',
      `--inx.address=127.0.0.1:${h.inxPort}`,
      `--mqtt.websocket.bindAddress=127.0.0.1:${h.mqttPort}`,
    ],
    { cwd: h.mqttDir, stdio: ['ignore', 'ignore', 'ignore'] },
  );
  for (let i = 0; i < 300 && !(await portOpen(h.mqttPort)); i++) {
    if (h.mqtt.exitCode !== null) throw new Error(`inx-mqtt of ${h.name} exited with ${h.mqtt.exitCode}`);
    await sleep(100);
  }
  probe.add(h, `ws://127.0.0.1:${h.mqttPort}`);
  await sleep(2000); // the probe's client connects and subscribes
  h.startedFirst = now();
}

export async function stopHornet(h) {
  if (h.mqtt && h.mqtt.exitCode === null) {
    const exited = new Promise((r) => h.mqtt.once('exit', r));
    h.mqtt.kill('SIGTERM');
    await exited;
  }
  if (h.mqttDir) rmSync(h.mqttDir, { recursive: true, force: true });
  h.http?.agent.destroy();
  if (h.follower) {
    await h.follower.stop();
    if (process.env.KEEP_HORNET) log(`${h.name}: kept ${h.follower.state}`);
    else h.follower.remove();
  }
  h.up = false;
}

/** Every 2 s under the load: how far each Hornet's confirmed milestone is behind the coordinator's. */
export function watchHornets(ctx) {
  const lags = new Map(ctx.hornets.map((h) => [h.name, []]));
  let running = true;
  const loop = (async () => {
    while (running) {
      const coo = await info(ctx.coordinator).catch(() => undefined);
      if (coo)
        await Promise.all(
          ctx.hornets.map(async (h) => {
            const s = await info(h).catch(() => undefined);
            if (s) lags.get(h.name).push(coo.confirmedMilestone.index - s.confirmedMilestone.index);
            else if (!alive(h.pid) && !h.exitLogged) {
              h.exitLogged = true;
              log(`${h.name}: Hornet exited; see ${h.follower.state}/hornet.log (kept with KEEP_HORNET=1)`);
            }
          }),
        );
      await sleep(2000);
    }
  })();
  return {
    lags,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The first difference between two JSON values, as `path: a ≠ b`, or undefined when equal. */
function difference(a, b, path = '') {
  if (a === b) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return `${path || '.'}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = difference(a[key], b[key], `${path}.${key}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function getJson(n, path) {
  const { status, text } = await n.http.http('GET', path);
  return { status, json: status === 200 ? JSON.parse(text) : undefined, text };
}

/**
 * Each Hornet against our nodes once the load has stopped and the network settled: its
 * confirmed milestone reaches the coordinator's (read once, waited for up to 120 s); for
 * every milestone index up to there, the payload (and its id) and `utxo-changes` equal the
 * coordinator's, and Hornet finds the milestone by that id; every output those milestones
 * created (the genesis output too) equals ours — `output` and its metadata (less
 * `ledgerIndex`, the answering node's own confirmed index) at the coordinator, at one of our
 * followers in turn, and at each Hornet; `included-block` and its metadata of the sampled
 * transfers equal the coordinator's. Every difference is a mismatch.
 */
export async function hornetAgreement(ctx) {
  const coo = ctx.coordinator;
  const mismatches = [];
  const mismatch = (line) => mismatches.push(line);
  const target = (await info(coo)).confirmedMilestone.index;
  const figures = {};
  const start = now();
  await Promise.all(
    ctx.hornets.map(async (h) => {
      if (!alive(h.pid)) {
        const tail = readFileSync(join(h.follower.state, 'hornet.log'), 'utf8').trim().split('\n').slice(-5);
        mismatch(`${h.name}: Hornet is not running any more; the end of its log:\n    ${tail.join('\n    ')}`);
      }
      let cmi = -1;
      while (now() - start < 120_000) {
        cmi = (await info(h).catch(() => undefined))?.confirmedMilestone.index ?? -1;
        if (cmi >= target) break;
        await sleep(500);
      }
      figures[h.name] = {
        cmi,
        waitedMs: now() - start,
        milestones: 0,
        changes: 0,
        outputs: 0,
        included: 0,
        differing: 0,
      };
      if (cmi < target) mismatch(`${h.name}: confirmed milestone ${cmi} < the coordinator's ${target} after 120 s`);
    }),
  );
  const count = (h, what) => figures[h.name][what]++;
  const differ = (h, line) => (figures[h.name].differing++, mismatch(`${h.name}: ${line}`));
  // Milestones and their ledger changes, every index.
  const created = new Set([GENESIS_OUTPUT_ID]);
  const consumed = new Set();
  const sorted = (xs) => [...xs].sort();
  await pool(
    Array.from({ length: target }, (_, i) => i + 1),
    4,
    async (index) => {
      const path = `/api/core/v2/milestones/by-index/${index}`;
      const [ref, refChanges] = [await getJson(coo, path), await getJson(coo, `${path}/utxo-changes`)];
      if (ref.status !== 200 || refChanges.status !== 200) {
        mismatch(`coordinator: milestone ${index}: ${ref.status}, utxo-changes ${refChanges.status}`);
        return;
      }
      const id = core.milestoneId(ref.json);
      for (const o of refChanges.json.createdOutputs) created.add(o);
      for (const o of refChanges.json.consumedOutputs) consumed.add(o);
      for (const h of ctx.hornets) {
        if (index > figures[h.name].cmi) continue;
        const m = await getJson(h, path);
        count(h, 'milestones');
        if (m.status !== 200) differ(h, `milestone ${index}: status ${m.status}`);
        else if (core.milestoneId(m.json) !== id)
          differ(h, `milestone ${index}: id ${core.milestoneId(m.json)} ≠ ours ${id}`);
        else {
          const d = difference(m.json, ref.json);
          if (d) differ(h, `milestone ${index} payload: ${d}`);
          const byId = await getJson(h, `/api/core/v2/milestones/${id}`);
          if (byId.status !== 200 || byId.json.index !== index)
            differ(h, `milestone ${id} (index ${index}) by id: status ${byId.status}, index ${byId.json?.index}`);
        }
        const c = await getJson(h, `${path}/utxo-changes`);
        count(h, 'changes');
        if (c.status !== 200) differ(h, `utxo-changes ${index}: status ${c.status}`);
        else {
          const d = difference(
            {
              ...c.json,
              createdOutputs: sorted(c.json.createdOutputs),
              consumedOutputs: sorted(c.json.consumedOutputs),
            },
            {
              ...refChanges.json,
              createdOutputs: sorted(refChanges.json.createdOutputs),
              consumedOutputs: sorted(refChanges.json.consumedOutputs),
            },
          );
          if (d) differ(h, `utxo-changes ${index}: ${d}`);
        }
      }
    },
  );
  // Every output created up to there: unspent (the ledger) and spent.
  const followers = ctx.nodes.filter((n) => n.up && n.index !== 0);
  const outputs = [...created];
  const unspent = outputs.filter((o) => !consumed.has(o)).length;
  let turn = 0;
  let oursCompared = 0;
  let oursDiffering = 0;
  const comparable = (answer) =>
    answer.status === 200
      ? { output: answer.json.output, metadata: { ...answer.json.metadata, ledgerIndex: undefined } }
      : { status: answer.status };
  await pool(outputs, 8, async (outputId) => {
    const path = `/api/core/v2/outputs/${outputId}`;
    const ref = comparable(await getJson(coo, path));
    if (ref.status !== undefined) return void mismatch(`coordinator: output ${outputId}: status ${ref.status}`);
    if (ref.metadata.isSpent !== consumed.has(outputId))
      mismatch(`coordinator: output ${outputId}: isSpent ${ref.metadata.isSpent}, utxo-changes say the opposite`);
    const follower = followers[turn++ % followers.length];
    if (follower) {
      oursCompared++;
      const d = difference(comparable(await getJson(follower, path)), ref);
      if (d) oursDiffering++, mismatch(`${follower.name}: output ${outputId}: ${d}`);
    }
    for (const h of ctx.hornets) {
      count(h, 'outputs');
      const d = difference(comparable(await getJson(h, path)), ref);
      if (d) differ(h, `output ${outputId}: ${d}`);
    }
  });
  // included-block (and its metadata) of the sampled confirmed transfers.
  for (const transactionId of ctx.sample ?? []) {
    for (const suffix of ['', '/metadata']) {
      const path = `/api/core/v2/transactions/${transactionId}/included-block${suffix}`;
      const ref = await getJson(coo, path);
      for (const h of ctx.hornets) {
        count(h, 'included');
        const answer = await getJson(h, path);
        const d = difference(answer.json ?? { status: answer.status }, ref.json ?? { status: ref.status });
        if (d) differ(h, `included-block${suffix} of ${transactionId}: ${d}`);
      }
    }
  }
  return { target, figures, mismatches, outputs: outputs.length, unspent, oursCompared, oursDiffering };
}
