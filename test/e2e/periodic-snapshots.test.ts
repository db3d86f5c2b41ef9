// Snapshots the node writes by itself (docs/snapshots.md, Hornet's snapshots.* keys), and a
// snapshot write cut by kill -9.
//
// Periodic: a coordinator with `snapshots.interval` 5 and `depth` 20 (belowMaxDepth + 5, the
// least Hornet allows) writes a full snapshot once milestone 41 is confirmed (target 21: the
// first target with 20 milestones of history behind it), then a delta every 5 milestones that
// extends the same delta file; a new node started from the pair begins at the delta's target.
// Milestones are issued by the test, so which index the node sees is never a matter of time.
//
// kill -9: a node writing a full snapshot slowly (the test hook paces every record) is killed
// while the temporary file grows; restarted, it opens, its ledger is whole, it has no snapshot file
// at the requested name (only a complete file ever gets it) and writes the snapshot again.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, issueToken, milestone, spawnNode, startTestNode, tempDataDir, type TestNode } from './node-harness';
import { getJson, poll, sleep, testKey } from './transactions';

const root = resolve(__dirname, '../..');
const COORDINATOR = testKey('periodic snapshots coordinator');

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'bin/ledger-node.js'), ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function configFile(dataDir: string, config: object): string {
  const file = `${dataDir}-config.json`;
  writeFileSync(file, JSON.stringify(config));
  return file;
}

function header(file: string) {
  const info = cli('snapshot', 'info', file);
  expect(info.stderr).toBe('');
  return JSON.parse(info.stdout);
}

function healthy(dataDir: string): boolean {
  const run = cli('tool', 'db-health', '--data-dir', dataDir);
  if (run.status !== 0) console.error(run.stdout, run.stderr);
  return run.status === 0;
}

async function confirmedIndex(url: string): Promise<number> {
  return (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index;
}

/** Issue milestones until `index` is confirmed, then wait until no snapshot is being written
 * and the node has looked at `index` (its snapshot index is `expected` then). */
async function confirmUpTo(node: TestNode, index: number, expected: number): Promise<void> {
  while ((await confirmedIndex(node.url)) < index) await milestone(node);
  await poll(`snapshot index ${expected} at milestone ${index}`, async () => {
    const status = node.store.snapshotStatus();
    return !status.busy && status.snapshotIndex === expected ? true : undefined;
  });
}

describe('periodic snapshots', () => {
  it('writes a full snapshot, then deltas on it, by Hornet’s interval and depth; a node starts from the pair', async () => {
    const dataDir = tempDataDir();
    const snapshots = { enabled: true, interval: 5, depth: 20, deltaSizeThresholdPercentage: 50 };
    const node = await startTestNode(
      [
        '--config',
        configFile(dataDir, { snapshots }),
        '--milestone-interval',
        '3600',
        '--coordinator-key',
        COORDINATOR.seed,
      ],
      dataDir,
    );
    const full = join(dataDir, 'snapshots', 'full_snapshot.bin');
    const delta = join(dataDir, 'snapshots', 'delta_snapshot.bin');
    let joiner: TestNode | undefined;
    try {
      // Not before milestone 41: the target must have 20 milestones of history behind it.
      await confirmUpTo(node, 40, 0);
      expect(existsSync(full)).toBe(false);
      await confirmUpTo(node, 41, 21);
      const fullHeader = header(full);
      expect(fullHeader).toMatchObject({ kind: 'full', targetMilestoneIndex: 21 });
      expect(existsSync(delta)).toBe(false);

      // Every 5 milestones a delta on that full snapshot, the same file extended.
      await confirmUpTo(node, 45, 21);
      expect(existsSync(delta)).toBe(false);
      await confirmUpTo(node, 46, 26);
      expect(header(delta)).toMatchObject({
        kind: 'delta',
        targetMilestoneIndex: 26,
        milestoneDiffCount: 5,
        fullSnapshotTargetMilestoneId: fullHeader.targetMilestoneId,
      });
      await confirmUpTo(node, 51, 31);
      expect(header(delta)).toMatchObject({ kind: 'delta', targetMilestoneIndex: 31, milestoneDiffCount: 10 });
      expect(header(full).targetMilestoneIndex).toBe(21);

      const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
      const metrics = await (
        await fetch(`${node.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
      ).text();
      expect(metrics).toMatch(/^ledger_node_snapshot_index 31$/m);
      expect(metrics).toMatch(/^ledger_node_snapshot_last_index\{kind="delta"\} 31$/m);

      // A new node from the pair (Hornet's snapshots.fullPath + deltaPath) starts at 31.
      const joinDir = tempDataDir();
      joiner = await startTestNode(
        [
          '--config',
          configFile(joinDir, { snapshots: { fullPath: full, deltaPath: delta } }),
          '--no-coordinator',
          '--coordinator-public-key',
          COORDINATOR.publicKey,
        ],
        joinDir,
      );
      const info = (await getJson(joiner.url, '/api/core/v2/info')).body.status;
      expect(info.confirmedMilestone.index).toBe(31);
      expect(info.pruningIndex).toBe(31);
      const outputs = async (url: string) => (await getJson(url, '/api/indexer/v1/outputs')).body.items;
      expect(await outputs(joiner.url)).toEqual(await outputs(node.url));
    } finally {
      await joiner?.stop();
      await node.stop();
    }
  }, 240_000);
});

describe('kill -9 while a snapshot is written', () => {
  it('reopens whole (supply, indexer, references), leaves no file under the snapshot’s name, and writes it again', async () => {
    const dataDir = tempDataDir();
    const flags = ['--milestone-interval', '1', '--coordinator-key', COORDINATOR.seed, '--log-level', 'warn'];
    // 100 ms after every record (the header, each output, each milestone diff, the entry
    // points): a write of a few dozen records lasts seconds and is cut in the middle.
    const paced = { LEDGER_NODE_TEST_SNAPSHOT_PACE_US: '100000' };
    let node = await spawnNode(flags, dataDir, [], paced);
    const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
    const snapshotsDir = join(dataDir, 'snapshots');
    const create = (url: string, index: number) =>
      fetch(`${url}/api/core/v2/control/snapshots/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ index }),
      });
    try {
      // A snapshot's target needs 20 milestones of history on either side of it.
      await poll('milestone 44', async () => ((await confirmedIndex(node.url)) >= 44 ? true : undefined), 180_000);
      // Each round cuts the write at another point: the header, the outputs, the diffs.
      for (const [round, pause] of [0, 350, 1500].entries()) {
        const index = 21 + round;
        const file = join(snapshotsDir, `full_snapshot_${index}.bin`);
        const request = create(node.url, index).catch(() => undefined);
        await poll('the temporary file', async () =>
          existsSync(snapshotsDir) && readdirSync(snapshotsDir).some((f) => f.endsWith('.tmp')) ? true : undefined,
        );
        await sleep(pause);
        node.child.kill('SIGKILL');
        await exited(node.child);
        await request;
        expect(existsSync(file)).toBe(false);

        // The ledger is whole (db-health reads it beside the running node: supply, indexer,
        // references), and the node takes the same request again.
        node = await spawnNode(flags, dataDir);
        expect(node.stdout()).toMatch(/the last run did not shut down cleanly: the ledger was checked and is whole/);
        expect(healthy(dataDir)).toBe(true);
        const again = await create(node.url, index);
        expect(again.status, await again.clone().text()).toBe(200);
        expect((await again.json()).filePath).toBe(file);
        expect(header(file)).toMatchObject({ kind: 'full', targetMilestoneIndex: index });
        expect(statSync(file).size).toBeGreaterThan(0);
        node.child.kill('SIGKILL');
        await exited(node.child);
        node = await spawnNode(flags, dataDir, [], paced);
      }
    } finally {
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    }
  }, 600_000);
});
