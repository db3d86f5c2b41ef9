// `ledger-node tool db-health` (ledger-store integrity.rs, whose damage cases are tested in
// Rust): a data directory a node wrote with a transfer and milestones is healthy, also
// while the node still runs on it; a directory without a ledger is a one-line refusal.

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { milestone, startTestNode, tempDataDir } from './node-harness';
import { buildTransfer, genesisSpendable, networkIdOf, submitPayload, testKey, waitForInclusion } from './transactions';

const root = resolve(__dirname, '../..');
const tool = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/ledger-node.js'), 'tool', ...args], { encoding: 'utf8' });

it('finds a ledger with a transfer and milestones healthy, with the node running and after it stopped', async () => {
  const dataDir = tempDataDir();
  const node = await startTestNode(['--milestone-interval', '3600'], dataDir);
  try {
    await submitPayload(node.url, { type: 5, tag: '0x6865616c7468', data: '0x01' });
    const genesis = await genesisSpendable(node.url);
    const transfer = buildTransfer(
      await networkIdOf(node.url),
      [genesis],
      [
        { to: testKey('db-health'), amount: 1_000_000n },
        { to: genesis.key, amount: BigInt(genesis.output.amount) - 1_000_000n },
      ],
    );
    await submitPayload(node.url, transfer.payload);
    await milestone(node);
    await waitForInclusion(node.url, transfer.transactionId);
    const running = tool('db-health', '--data-dir', dataDir);
    expect(running.stderr).toBe('');
    expect(running.status).toBe(0);
    expect(running.stdout).toMatch(
      /: healthy \(\d+ milestone\(s\), \d+ block\(s\), \d+ unspent output\(s\), the indexer\)\n$/,
    );
  } finally {
    await node.stop();
  }
  const stopped = tool('db-health', '--data-dir', dataDir);
  expect(stopped.status).toBe(0);
});

it('refuses a directory without a ledger in one line, and an unknown tool', () => {
  const empty = tool('db-health', '--data-dir', tempDataDir());
  expect(empty.status).toBe(2);
  expect(empty.stderr).toMatch(/^ledger-node: tool db-health: no ledger in .* \(no-ledger\)\n$/);
  const unknown = tool('nothing');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toBe("ledger-node: tool: unknown tool 'nothing' (use: tool db-health)\n");
});
