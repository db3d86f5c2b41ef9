// Starting real nodes for the end-to-end tests: in-process (startNode from the compiled
// package, port 0, temporary data directory, low minPowScore) or as a child process of
// bin/ledger-node.js (for signals and kill -9).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';

const root = resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { loadConfig } = require(join(root, 'dist/config/load.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startNode } = require(join(root, 'dist/node.js'));

export interface TestNode {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export const LOW_POW = '5';

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'ledger-node-e2e-'));
}

export async function startTestNode(flags: string[] = [], dataDir = tempDataDir()): Promise<TestNode> {
  const config = loadConfig(['--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW, ...flags], {});
  const node = await startNode(config, { logger: pino({ level: 'silent' }) });
  return { url: node.url, port: node.port, dataDir, stop: node.stop };
}

export interface ChildNode {
  child: ChildProcess;
  url: string;
}

/** Run bin/ledger-node.js and wait for its "listening" log line (which carries the URL). */
export function spawnNode(flags: string[], dataDir: string): Promise<ChildNode> {
  const child = spawn(process.execPath, [join(root, 'bin/ledger-node.js'), '--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n')) {
        if (line.includes('"msg":"listening"')) {
          resolvePromise({ child, url: JSON.parse(line).url });
          return;
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`node exited with ${code}: ${err}`)));
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const core = require(join(root, 'dist/index.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { issueToken } = require(join(root, 'dist/jwt-secret.js'));
