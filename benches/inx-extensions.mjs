// Hornet's real INX extensions for bench:inx, as scripts/interop/ starts them: the released
// binaries (INX_INDEXER, INX_MQTT; /work/interop/bin by default) in child processes of their
// own, each in its own working directory (inx-mqtt reads config.json from there) with its
// log in a file, attached to a node's INX port. Also the shared bits of the phases: the
// load average and the sizes of the node's index inside RocksDB.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, readSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from './node-process.mjs';

export const INX_INDEXER = process.env.INX_INDEXER ?? '/work/interop/bin/inx-indexer';
export const INX_MQTT = process.env.INX_MQTT ?? '/work/interop/bin/inx-mqtt';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The 1-, 5- and 15-minute load averages as text. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** One extension process: `binary` with `args` in `dir`, its output in `dir`/log. */
export function startExtension(binary, dir, args) {
  if (!existsSync(binary)) throw new Error(`no binary at ${binary} (set INX_INDEXER / INX_MQTT)`);
  mkdirSync(dir, { recursive: true });
  const logPath = join(dir, 'log');
  const out = openSync(logPath, 'a');
  const child = spawn(binary, ['--app.checkForUpdates=false', ...args], { cwd: dir, stdio: ['ignore', out, out] });
  closeSync(out);
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
  return {
    pid: child.pid,
    log,
    /** Until the log matches `pattern` (resolves to the match) or `timeoutMs` passed. */
    async waitForLog(pattern, timeoutMs = 600_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const m = pattern.exec(log());
        if (m) return m;
        if (child.exitCode !== null) throw new Error(`${binary} exited with ${child.exitCode}:\n${log().slice(-2000)}`);
        await sleep(50);
      }
      throw new Error(`${binary}: no ${pattern} in its log after ${timeoutMs / 1000} s`);
    },
    exited: () => child.exitCode !== null,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')))),
  };
}

/** inx-indexer with its SQLite database in `dir`, its REST API on a free port. */
export async function startInxIndexer(dir, inxAddress) {
  const port = await freePort();
  const extension = startExtension(INX_INDEXER, dir, [
    `--inx.address=${inxAddress}`,
    '--indexer.db.engine=sqlite',
    `--indexer.db.sqlite.path=${join(dir, 'database')}`,
    `--restAPI.bindAddress=127.0.0.1:${port}`,
    '--prometheus.enabled=false',
  ]);
  return { ...extension, url: `http://127.0.0.1:${port}`, database: join(dir, 'database') };
}

/** inx-mqtt with its WebSocket on a free port (it registers mqtt/v1 at the node). */
export async function startInxMqtt(dir, inxAddress) {
  const [wsPort, promPort] = [await freePort(), await freePort()];
  const extension = startExtension(INX_MQTT, dir, [
    `--inx.address=${inxAddress}`,
    `--mqtt.websocket.bindAddress=127.0.0.1:${wsPort}`,
    `--prometheus.bindAddress=127.0.0.1:${promPort}`,
  ]);
  return { ...extension, wsUrl: `ws://127.0.0.1:${wsPort}/` };
}

const INDEX_FAMILY = /indexer_(outputs|fields|chains)/;

/**
 * Bytes of the table files (.sst) of the built-in indexer's column families in a node's
 * RocksDB directory, and of all table files. Each table file belongs to one family, whose
 * name is written in the file's properties block near its end. What is still only in the
 * write-ahead log is not counted: measure after a start of the node, which flushes the log
 * it recovers.
 */
export function indexTableBytes(rocksDir) {
  let index = 0;
  let all = 0;
  for (const name of readdirSync(rocksDir)) {
    if (!name.endsWith('.sst')) continue;
    const path = join(rocksDir, name);
    let size;
    try {
      size = statSync(path).size;
    } catch {
      continue; // removed by a compaction meanwhile
    }
    all += size;
    const tail = Buffer.alloc(Math.min(size, 64 * 1024));
    const fd = openSync(path, 'r');
    readSync(fd, tail, 0, tail.length, size - tail.length);
    closeSync(fd);
    if (INDEX_FAMILY.test(tail.toString('latin1'))) index += size;
  }
  return { index, all };
}
