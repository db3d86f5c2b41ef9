// `ledger-node bench pow|codec|node`: benchmarks of the installed native binary (and, for
// `node`, of a whole node: bench-node.ts), printed as Markdown tables on stdout; progress
// (on a terminal only) goes to stderr.

import { decodeBlockWithId, encodeBlock, encodeBlockWithId } from '../core/codec';
import { mine, powHashRate, powInfo, powScore } from '../core/pow';
import { Progress, withProgress } from '../progress';
import { benchNode } from './bench-node';

export async function benchCommand(args: string[]): Promise<void> {
  const [what, ...rest] = args;
  if (what === 'pow') return benchPow(rest);
  if (what === 'codec') return benchCodec();
  if (what === 'node') return benchNode(rest);
  process.stderr.write(`ledger-node bench: unknown benchmark '${what ?? ''}' (pow, codec or node)\n`);
  process.exitCode = 2;
}

/** `--score <n>` (the score mined to; default the dev minPowScore 1500) and `--blocks <n>`. */
function powOptions(args: string[]): { score: number; blocks: number } | undefined {
  const options = { score: 1500, blocks: 5 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    const n = Number(value);
    const key = flag === '--score' ? 'score' : flag === '--blocks' ? 'blocks' : undefined;
    if (key === undefined || !/^\d+$/.test(value ?? '') || n < 1 || n > (key === 'score' ? 0xffffffff : 1000)) {
      process.stderr.write(
        `ledger-node bench pow: expected [--score <1..4294967295>] [--blocks <1..1000>], got '${args.slice(i).join(' ')}'\n`,
      );
      process.exitCode = 2;
      return undefined;
    }
    options[key] = n;
  }
  return options;
}

async function benchPow(args: string[]): Promise<void> {
  const options = powOptions(args);
  if (options === undefined) return;
  const info = powInfo();
  console.log(
    `miner engine ${info.engine} (${info.lanes} nonces a pass); engines this CPU runs: ${info.engines.join(', ')}; ${info.threads} threads`,
  );
  console.log('');
  console.log('| engine | threads | hashes/s | per thread | of linear |');
  console.log('|---|---|---|---|---|');
  await withProgress('warming up', () => powHashRate(info.threads, 300)); // the first window otherwise reads low
  let all = 0;
  for (const engine of [info.engine, ...info.engines.filter((e) => e !== info.engine)]) {
    let single = 0;
    for (let threads = 1; threads <= info.threads; threads++) {
      const rate = await withProgress(`measuring ${engine} on ${threads} thread${threads > 1 ? 's' : ''}`, () =>
        powHashRate(threads, 1500, engine),
      );
      if (threads === 1) single = rate;
      if (engine === info.engine) all = rate;
      console.log(
        `| ${engine} | ${threads} | ${mega(rate)} | ${mega(rate / threads)} | ${((100 * rate) / single / threads).toFixed(0)} % |`,
      );
    }
  }
  console.log('');
  await benchMining(options.score, options.blocks, all);
  console.log('');
  benchScoring();
}

/** Mine `count` different tagged-data blocks to `score` on every thread: median and p90. */
async function benchMining(score: number, count: number, hashRate: number): Promise<void> {
  const block = (i: number) => ({
    protocolVersion: 2,
    parents: ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)],
    payload: { type: 5, tag: '0x62656e6368', data: '0x' + 'ab'.repeat(204) + i.toString(16).padStart(8, '0') },
    nonce: '0',
  });
  const length = encodeBlock(block(0)).length;
  // Smallest z with 3^z ≥ score × length (pow.md §6); about 3^z hashes on average.
  let zeros = 0;
  while (3 ** zeros < score * length) zeros++;
  const expected = 3 ** zeros;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const progress = new Progress(`mining block ${i + 1}/${count} to score ${score}`, (ms) => {
      const done = (hashRate * ms) / 1000;
      return `≈ ${mega(done)} of ${mega(expected)} hashes expected`;
    });
    const started = performance.now();
    try {
      await mine(block(i), { targetScore: score });
    } finally {
      progress.done();
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  // The work per block is geometric (pow.md §6): the median and the 90th percentile.
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
  console.log(
    `| mining a ${length}-byte block to score ${score} (${zeros} trailing zeros) | median | p90 | expected |`,
  );
  console.log('|---|---|---|---|');
  console.log(
    `| ${count} block${count > 1 ? 's' : ''}, all threads | ${duration(at(0.5))} | ${duration(at(0.9))} | ${duration((expected / hashRate) * 1000)} (${mega(expected)} hashes) |`,
  );
}

/** Time to score one block (the submit path's check). */
function benchScoring(): void {
  const bytes = encodeBlock({ ...scoredBlock, nonce: '1' });
  const rounds: number[] = [];
  for (let r = 0; r < 11; r++) {
    const n = 5000;
    const started = performance.now();
    for (let i = 0; i < n; i++) powScore(bytes);
    rounds.push(((performance.now() - started) * 1000) / n);
  }
  rounds.sort((a, b) => a - b);
  console.log(`| scoring a ${bytes.length}-byte block | µs, median of 11 × 5000 |`);
  console.log('|---|---|');
  console.log(`| powScore | ${rounds[5].toFixed(2)} |`);
}

const scoredBlock = {
  protocolVersion: 2,
  parents: ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)],
  payload: { type: 5, tag: '0x6265', data: '0x' + 'ab'.repeat(211) },
};

function benchCodec(): void {
  const block = {
    protocolVersion: 2,
    parents: ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)],
    payload: { type: 5, tag: '0x6265', data: '0x' + 'ab'.repeat(220) },
    nonce: '1',
  };
  const bytes = encodeBlock(block);
  const measure = (fn: () => void) => {
    const end = Date.now() + 1000;
    let n = 0;
    while (Date.now() < end) for (let i = 0; i < 100; i++, n++) fn();
    return n;
  };
  const enc = measure(() => encodeBlockWithId(block));
  const dec = measure(() => decodeBlockWithId(bytes));
  console.log(`| ${bytes.length}-byte tagged-data block | ops/s | MB/s |`);
  console.log('|---|---|---|');
  console.log(`| encode + id | ${kilo(enc)} | ${((enc * bytes.length) / 1e6).toFixed(1)} |`);
  console.log(`| decode + id | ${kilo(dec)} | ${((dec * bytes.length) / 1e6).toFixed(1)} |`);
}

const mega = (n: number) => `${(n / 1e6).toFixed(2)} M`;
const kilo = (n: number) => `${(n / 1e3).toFixed(1)} k`;
const duration = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
