// `npm run bench:pow` (also the PoW part of `npm run bench`): our miner against the
// reference miners, measured on this machine in the same run, in alternating windows
// (every miner once per round, 1 thread and then all threads, medians over the rounds):
// hashes per second per engine, ratios against iota.go (Hornet's miner), iota-crypto and
// the JS miners; then the time to reach score 1500 on a 300-byte block, and the cost of
// scoring blocks. Options: --rounds <n> (default 5), --window <ms> (default 1000),
// --blocks <n> (default 50).

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { arg, fmt, median, table } from './measure.mjs';
import { iotaCryptoMiner, iotaGoMiner, jsMiner } from './pow-references.mjs';

const require = createRequire(import.meta.url);
const core = require('../dist/index.js');

function ourMiner(engine) {
  return {
    version: `ledger-node ${engine}`,
    run: async (threads, ms) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const rate = await core.powHashRate(threads, ms, engine);
      const { user, system } = process.cpuUsage(cpu);
      return { rate, cpuRate: (rate * (performance.now() - started)) / 1000 / ((user + system) / 1e6) };
    },
  };
}

const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export async function powBench() {
  const rounds = arg('rounds', 5);
  const window = arg('window', 1000);
  const blockCount = arg('blocks', 50);
  const { threads, engine: best, engines: all } = core.powInfo();
  const engines = [best, ...all.filter((e) => e !== best)];
  console.log('## Proof of work (Curl-P-81)\n');
  console.log(
    `engines on this CPU: ${engines.join(', ')} (default ${engines[0]}); ${threads} threads; ${rounds} rounds of ${window} ms windows, medians\n`,
  );

  const miners = engines.map((e) => ({ name: `ledger-node ${e}`, ours: true, ...ourMiner(e) }));
  const notes = [];
  for (const [name, build] of [
    ['iota.go (Hornet)', iotaGoMiner],
    ['iota-crypto (Rust)', iotaCryptoMiner],
    ['@iota/pow-node.js', () => jsMiner('@iota/pow-node.js')],
    ['@iota/pow-wasm.js', () => jsMiner('@iota/pow-wasm.js')],
  ]) {
    process.stderr.write(`preparing ${name}…\n`);
    const miner = build();
    if (miner.skipped) notes.push(`${name}: skipped — ${miner.skipped}`);
    else miners.push({ name, ...miner });
  }

  await core.powHashRate(threads, 300); // warm up: the first window otherwise reads low
  const rates = new Map(miners.map((m) => [m.name, { 1: [], [threads]: [] }]));
  // Each run gives { rate, cpuRate }.
  for (let round = 1; round <= rounds; round++) {
    for (const t of [1, threads]) {
      for (const m of miners) {
        process.stderr.write(`round ${round}/${rounds}, ${t} thread${t > 1 ? 's' : ''}: ${m.name}        \r`);
        rates.get(m.name)[t].push(await m.run(t, window));
      }
    }
  }
  process.stderr.write('\n');

  const rate = (name, t, key = 'rate') =>
    median(
      rates
        .get(name)
        [t].map((r) => r[key])
        .filter((r) => r !== undefined),
    );
  const ours = miners[0].name;
  const ratio = (m, t, key) =>
    m.name === ours ? '1×' : `${(rate(ours, t, key) / rate(m.name, t, key)).toFixed(m.ours ? 2 : 1)}×`;
  for (const [key, what] of [
    ['rate', 'hashes/s'],
    ['cpuRate', 'hashes per CPU second'],
  ]) {
    const rows = miners.map((m) => {
      const [one, all] = [rate(m.name, 1, key), rate(m.name, threads, key)];
      if (Number.isNaN(one)) return [m.name, '—', '—', '—', '—', '—'];
      const scaling =
        key === 'rate' ? `${((100 * all) / one / threads).toFixed(0)} %` : `${((100 * all) / one).toFixed(0)} %`;
      return [m.name, fmt(one), ratio(m, 1, key), fmt(all), ratio(m, threads, key), scaling];
    });
    const scalingHead = key === 'rate' ? 'of linear' : `${threads} threads ÷ 1`;
    table([`miner (${what})`, '1 thread', `${ours} ÷ it`, `${threads} threads`, `${ours} ÷ it`, scalingHead], rows);
  }
  console.log('Hashes per CPU second divide by the CPU time each miner used, so they leave out the time');
  console.log('other processes held the cores; on a quiet machine the two tables agree.\n');
  // Time to reach score 1500 on a 300-byte block with all threads, over `blockCount`
  // different blocks (the work per block is geometric: hence median and p90).
  const block = (i, size) => ({
    protocolVersion: 2,
    parents: ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)],
    payload: { type: 5, tag: '0x' + (i + 1).toString(16).padStart(8, '0'), data: '0x' + 'cd'.repeat(size) },
  });
  let size = 200;
  while (core.encodeBlock({ ...block(0, size), nonce: '0' }).length < 300) size++;
  const len = core.encodeBlock({ ...block(0, size), nonce: '0' }).length;
  let zeros = 0;
  while (3 ** zeros < 1500 * len) zeros++;
  const times = [];
  for (let i = 0; i < blockCount; i++) {
    process.stderr.write(`mining block ${i + 1}/${blockCount}\r`);
    const t = performance.now();
    await core.mine(block(i, size), { targetScore: 1500 });
    times.push(performance.now() - t);
  }
  process.stderr.write('\n');
  const expected = (hashRate) => `${((1000 * 3 ** zeros) / hashRate).toFixed(0)} ms`;
  table(
    [
      `score 1500 on a ${len}-byte block (${zeros} zeros, ${fmt(3 ** zeros)} hashes expected), ${threads} threads`,
      'median',
      'p90',
    ],
    [
      [
        `${ours}, mine(), ${blockCount} blocks`,
        `${median(times).toFixed(0)} ms`,
        `${percentile(times, 90).toFixed(0)} ms`,
      ],
      ...miners.map((m) => [`${m.name}, expected from its rate`, expected(rate(m.name, threads)), '—']),
    ],
  );

  // Scoring: one block a call (the submit path), and many a call (batches).
  const scored = core.encodeBlock({ ...block(0, size), nonce: '12345' });
  const single = [];
  for (let i = 0; i < 20; i++) {
    const n = 20000;
    const t = process.hrtime.bigint();
    for (let k = 0; k < n; k++) core.powScore(scored);
    single.push(Number(process.hrtime.bigint() - t) / 1000 / n);
  }
  const many = Array.from({ length: 1024 }, (_, i) => {
    const b = Buffer.from(scored);
    b.writeUInt32LE(i, b.length - 8);
    return b;
  });
  const batched = [];
  for (let i = 0; i < 20; i++) {
    const t = process.hrtime.bigint();
    core.powScores(many);
    batched.push(Number(process.hrtime.bigint() - t) / 1000 / many.length);
  }
  table(
    ['scoring', 'µs per block, median', 'p90'],
    [
      [`powScore, one ${len}-byte block a call`, median(single).toFixed(2), percentile(single, 90).toFixed(2)],
      [`powScores, 1024 ${len}-byte blocks a call`, median(batched).toFixed(2), percentile(batched, 90).toFixed(2)],
    ],
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`ledger-node PoW benchmark — ${new Date().toISOString()} — node ${process.version}\n`);
  await powBench();
  process.exit(0);
}
