// `ledger-node devnet` as a person runs it: one line per node (name, role, URL, p2p
// multiaddress with peer id), log lines prefixed with the node's name, every node
// answering, SIGTERM stops all of them with exit code 0, and a second run reuses the data
// (same peer ids, the ledgers go on).

import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { exited, freePortRange, tempDataDir } from './node-harness';
import { getJson, poll } from './transactions';

const root = resolve(__dirname, '../..');

async function runDevnet(dataDir: string, port: number, p2pPort: number, extra: string[] = []) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/ledger-node.js'),
      'devnet',
      '--nodes',
      '2',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--p2p-port',
      String(p2pPort),
      '--data-dir',
      dataDir,
      '--min-pow-score',
      '5',
      '--milestone-interval',
      '1',
      '--no-dashboard',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const lines = await poll(
    'the devnet to print its nodes',
    async () => {
      if (child.exitCode !== null) throw new Error(`devnet exited with ${child.exitCode}: ${err}`);
      const found = out.split('\n').filter((l) => /^node\d /.test(l));
      return found.length === 2 ? found : undefined;
    },
    60_000,
    100,
  );
  return { child, lines, output: () => out };
}

it('starts a coordinator and a follower, prints them, and stops on SIGTERM; a second run reuses the data', async () => {
  const dataDir = tempDataDir();
  const port = await freePortRange(2);
  const p2pPort = await freePortRange(2);
  const first = await runDevnet(dataDir, port, p2pPort);
  const [coordinator, follower] = first.lines.map((l) => l.split(/\s+/));
  expect(coordinator.slice(0, 3)).toEqual(['node1', 'coordinator', `http://127.0.0.1:${port}`]);
  expect(follower.slice(0, 3)).toEqual(['node2', 'follower', `http://127.0.0.1:${port + 1}`]);
  expect(coordinator[3]).toMatch(new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/${p2pPort}/p2p/12D3KooW\\w+$`));
  expect(follower[3]).toMatch(new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/${p2pPort + 1}/p2p/12D3KooW\\w+$`));
  // The follower confirms the coordinator's milestones over gossip.
  const followerUrl = `http://127.0.0.1:${port + 1}`;
  const reached = await poll(
    'the follower to confirm milestone 3',
    async () => {
      const info = (await getJson(followerUrl, '/api/core/v2/info')).body;
      return info.status.confirmedMilestone.index >= 3 ? info.status.confirmedMilestone.index : undefined;
    },
    30_000,
    200,
  );
  expect(first.output()).toMatch(/"node":"node2"/);
  expect(first.output()).toMatch(/"msg":"\[node2\] /);
  for (const name of ['node1', 'node2']) expect(existsSync(join(dataDir, name, 'p2p-identity.key'))).toBe(true);
  first.child.kill('SIGTERM');
  expect(await exited(first.child)).toBe(0);

  const second = await runDevnet(dataDir, port, p2pPort);
  expect(second.lines).toEqual(first.lines.map((l) => l));
  const info = (await getJson(followerUrl, '/api/core/v2/info')).body;
  expect(info.status.confirmedMilestone.index).toBeGreaterThanOrEqual(reached);
  second.child.kill('SIGINT');
  expect(await exited(second.child)).toBe(0);
}, 120_000);

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

it('with --inx, every node serves INX on a port of its own, and prints it', async () => {
  const port = await freePortRange(2);
  const p2pPort = await freePortRange(2);
  const inxPort = await freePortRange(2);
  const run = await runDevnet(tempDataDir(), port, p2pPort, ['--inx', '--inx-bind', `127.0.0.1:${inxPort}`]);
  expect(run.lines[0]).toMatch(new RegExp(`  INX 127\\.0\\.0\\.1:${inxPort}$`));
  expect(run.lines[1]).toMatch(new RegExp(`  INX 127\\.0\\.0\\.1:${inxPort + 1}$`));
  expect(await listening(inxPort)).toBe(true);
  expect(await listening(inxPort + 1)).toBe(true);
  run.child.kill('SIGTERM');
  expect(await exited(run.child)).toBe(0);
}, 120_000);
