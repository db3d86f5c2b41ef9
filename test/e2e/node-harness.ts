// Starting real nodes for the end-to-end tests: in-process (startNode from the compiled
// package, port 0, temporary data directory, low minPowScore) or as a child process of
// bin/ledger-node.js (for signals and kill -9).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';

const root = resolve(__dirname, '../..');
const { loadConfig } = require(join(root, 'dist/config/load.js')) as typeof import('../../src/config/load');
const { startNode } = require(join(root, 'dist/node.js')) as typeof import('../../src/node');

type RunningNode = Awaited<ReturnType<typeof startNode>>;
type StartOptions = NonNullable<Parameters<typeof startNode>[1]>;

export interface TestNode {
  url: string;
  port: number;
  dataDir: string;
  /**
   * The node's store, for tests that pace milestones themselves: a node started with
   * `--milestone-interval 3600` issues milestone 1 and then none during a test, and
   * `milestone(node)` issues the next one as the coordinator would.
   */
  store: RunningNode['store'];
  /** The INX server, when started with `--inx`. */
  inx?: RunningNode['inx'];
  stop(): Promise<void>;
}

export const LOW_POW = '5';

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'ledger-node-e2e-'));
}

export async function startTestNode(
  flags: string[] = [],
  dataDir = tempDataDir(),
  options: Omit<StartOptions, 'logger'> = {},
): Promise<TestNode> {
  const config = loadConfig(
    ['--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW, ...flags],
    {},
  );
  const node = await startNode(config, { ...options, logger: pino({ level: 'silent' }) });
  return { url: node.url, port: node.port, dataDir, store: node.store, inx: node.inx, stop: node.stop };
}

/**
 * The node of a test file or a `describe` block: started before its tests, stopped after
 * them. The object returned is filled in when the node has started, so its fields are read
 * inside tests and hooks, not where the node is declared.
 */
export function useTestNode(flags: string[] = []): TestNode {
  const node = {} as TestNode;
  beforeAll(async () => {
    Object.assign(node, await startTestNode(flags));
  });
  afterAll(async () => {
    await node.stop?.();
  });
  return node;
}

/**
 * Issue the next milestone of an in-process node now, as its coordinator's clock would
 * (checkpoints first when more tips wait than one milestone approves): for tests whose
 * outcome depends on which blocks a milestone finds, on a node started with
 * `--milestone-interval 3600`.
 */
export async function milestone(node: TestNode): Promise<{ index: number; timestamp: number }> {
  await node.store.issueCheckpoints();
  return node.store.issueMilestone();
}

export interface ChildNode {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Everything the process wrote to stdout so far: its log lines. */
  stdout(): string;
}

/** A port that was free a moment ago (the child binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Whether `port` can be listened on at 127.0.0.1 right now. */
function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free ports, for commands that take one port and use the
 * next ones too (devnet). They are drawn below the kernel's ephemeral range (32768 and up on
 * Linux): a port taken from that range is free when checked, but the one after it can be
 * handed to any outgoing connection or `freePort()` of a test running beside this one.
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * (12_000 - count));
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if ((await Promise.all(ports.map(canListen))).every(Boolean)) return first;
  }
  throw new Error(`no ${count} consecutive free ports found between 20000 and 32000`);
}

/**
 * Run bin/ledger-node.js and wait until it answers HTTP (any log level works: readiness is
 * probed, not read from the log). Rejects if the process exits first or after 30 s.
 * `nodeOptions` go to Node itself, before the script.
 */
export async function spawnNode(
  flags: string[],
  dataDir: string,
  nodeOptions: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ChildNode> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [
      ...nodeOptions,
      join(root, 'bin/ledger-node.js'),
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--min-pow-score',
      LOW_POW,
      ...flags,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`node exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/routes`)).status === 200)
        return { child, url, stderr: () => stderr, stdout: () => stdout };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`node did not answer within 30 s: ${stderr}`);
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code)),
  );
}

export const core = require(join(root, 'dist/index.js')) as typeof import('../../src/index');
export const { issueToken } = require(join(root, 'dist/jwt-secret.js')) as typeof import('../../src/jwt-secret');
