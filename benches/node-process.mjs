// A node of this checkout in a child process for a benchmark: on a free loopback port,
// ready once `readyPath` answers 200, stopped with SIGTERM.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** `flags` come after the port, bind address and data directory. */
export async function startNodeProcess(dataDir, flags, { readyPath = '/api/core/v2/info', timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, ...flags];
  const child = spawn(process.execPath, [join(root, 'bin/ledger-node.js'), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () =>
    new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  return { url, stop };
}
