// The `ledger-node` command line. Subcommands:
//   bench pow|codec   benchmark the installed native binary (hash rate and scaling; codec throughput)
//   --version, --help
// The REST node itself (`ledger-node start`) is being built; see README.md.

import { decodeBlock, encodeBlock } from './core/codec';
import { blockId } from './core/ids';
import { powHashRate, powInfo } from './core/pow';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('../package.json') as { version: string };

const HELP = `ledger-node ${version}: a Stardust (protocol 2) node core

Usage:
  ledger-node bench pow      proof-of-work hash rate per thread and scaling
  ledger-node bench codec    block encode/decode throughput
  ledger-node --version
  ledger-node --help
`;

export async function main(argv: string[]): Promise<void> {
  const [command, sub] = argv;
  if (command === '--version' || command === '-v') return void console.log(version);
  if (command === undefined || command === '--help' || command === '-h') return void process.stdout.write(HELP);
  if (command === 'bench' && sub === 'pow') return benchPow();
  if (command === 'bench' && sub === 'codec') return benchCodec();
  process.stderr.write(`ledger-node: unknown command '${argv.join(' ')}'\n\n${HELP}`);
  process.exitCode = 2;
}

async function benchPow(): Promise<void> {
  const info = powInfo();
  console.log(`engine ${info.engine} (${info.lanes} nonces a pass), ${info.threads} threads available`);
  console.log('| threads | hashes/s | per thread | scaling |');
  console.log('|---|---|---|---|');
  await powHashRate(info.threads, 300); // warm up: the first window otherwise reads low
  let single = 0;
  for (let threads = 1; threads <= info.threads; threads++) {
    progress(`measuring ${threads} thread(s)…`);
    const rate = await powHashRate(threads, 1500);
    if (threads === 1) single = rate;
    progress('');
    console.log(`| ${threads} | ${(rate / 1e6).toFixed(2)} M | ${(rate / threads / 1e6).toFixed(2)} M | ${(rate / single).toFixed(2)}× |`);
  }
}

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
  const enc = measure(() => blockId(encodeBlock(block)));
  const dec = measure(() => (decodeBlock(bytes), blockId(bytes)));
  console.log(`| ${bytes.length}-byte tagged-data block | ops/s | MB/s |`);
  console.log('|---|---|---|');
  console.log(`| encode + id | ${enc} | ${((enc * bytes.length) / 1e6).toFixed(1)} |`);
  console.log(`| decode + id | ${dec} | ${((dec * bytes.length) / 1e6).toFixed(1)} |`);
}

function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}
