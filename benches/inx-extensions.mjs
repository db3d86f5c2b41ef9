// Hornet's real INX extensions for bench:inx, as scripts/interop/ starts them: the released
// binaries (INX_INDEXER, INX_MQTT; /work/interop/bin by default) in child processes of their
// own, each in its own working directory (inx-mqtt reads config.json from there) with its
// log in a file, attached to a node's INX port; inx-indexer on SQLite or on PostgreSQL (a
// throwaway cluster made by scripts/interop/pg-cluster.sh, as inx-indexer.sh makes it).
// Also the shared bits of the phases: the load average and the sizes of the node's index
// inside RocksDB.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, readSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './node-process.mjs';

export const INX_INDEXER = process.env.INX_INDEXER ?? '/work/interop/bin/inx-indexer';
export const INX_MQTT = process.env.INX_MQTT ?? '/work/interop/bin/inx-mqtt';
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PG_CLUSTER = fileURLToPath(new URL('../scripts/interop/pg-cluster.sh', import.meta.url));

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

/**
 * inx-indexer, its REST API on a free port: on SQLite with its database in `dir`, or, given
 * a cluster of startPostgres, on PostgreSQL (the flags of scripts/interop/inx-indexer.sh).
 */
export async function startInxIndexer(dir, inxAddress, postgres) {
  const port = await freePort();
  const database = postgres
    ? [
        '--indexer.db.engine=postgresql',
        `--indexer.db.postgresql.host=${postgres.dir}`,
        `--indexer.db.postgresql.port=${postgres.port}`,
        '--indexer.db.postgresql.database=indexer',
        '--indexer.db.postgresql.username=indexer',
        '--indexer.db.postgresql.password=indexer',
      ]
    : ['--indexer.db.engine=sqlite', `--indexer.db.sqlite.path=${join(dir, 'database')}`];
  const extension = startExtension(INX_INDEXER, dir, [
    `--inx.address=${inxAddress}`,
    ...database,
    `--restAPI.bindAddress=127.0.0.1:${port}`,
    '--prometheus.enabled=false',
  ]);
  return { ...extension, url: `http://127.0.0.1:${port}`, database: postgres ? postgres.data : join(dir, 'database') };
}

/** Why inx-indexer's PostgreSQL engine cannot run here (no binaries, not root), or undefined. */
export function postgresMissing() {
  if (!existsSync(join(PG_BIN, 'initdb'))) return `no PostgreSQL binaries at ${PG_BIN} (set PG_BIN)`;
  if (process.getuid?.() !== 0) return 'not root (the cluster is made as user postgres through runuser)';
  return undefined;
}

/** utime + stime of a /proc/<pid>/stat line's fields after the name, and the children's. */
const ticks = (fields, children) =>
  Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);

/**
 * A throwaway PostgreSQL cluster in `dir` (scripts/interop/pg-cluster.sh: initdb as user
 * postgres, its socket in `dir`, no TCP, a database `indexer`). Every folder above `dir` must
 * be traversable by the postgres user.
 */
export async function startPostgres(dir) {
  const port = await freePort();
  const env = { ...process.env, PG_BIN };
  const started = spawnSync('bash', [PG_CLUSTER, 'start', dir, String(port)], { env, encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`pg-cluster.sh start: ${started.stderr}${started.stdout}`);
  const data = join(dir, 'data');
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    dir,
    port,
    data,
    /** pg_database_size of the database `indexer`, bytes. */
    databaseBytes: () =>
      Number(
        execFileSync(
          'psql',
          ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-Atc'].concat(
            "SELECT pg_database_size('indexer')",
          ),
        ).toString(),
      ),
    /** CPU seconds of the server: the postmaster, its backends and workers, live or ended. */
    cpuSeconds() {
      let total = 0;
      for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue;
        try {
          const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
          if (Number(name) === pid) total += ticks(fields, true);
          else if (Number(fields[1]) === pid) total += ticks(fields, false);
        } catch {
          // ended meanwhile
        }
      }
      return total / 100;
    },
    stop: () => spawnSync('bash', [PG_CLUSTER, 'stop', dir], { env, stdio: 'ignore' }),
  };
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
