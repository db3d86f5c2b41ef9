// `ledger-node bench pow|codec`: benchmarks of the installed native binary.

import { decodeBlock, encodeBlock } from '../core/codec';
import { blockId } from '../core/ids';
import { powHashRate, powInfo } from '../core/pow';

export async function benchCommand(args: string[]): Promise<void> {
  const [what] = args;
  if (what === 'pow') return benchPow();
  if (what === 'codec') return benchCodec();
  process.stderr.write(`ledger-node bench: unknown benchmark '${what ?? ''}' (pow or codec)\n`);
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
