// Tiny measurement helpers shared by the benchmarks: repeat a function for a time window
// and report operations per second; CPU time and resident memory of a process; the load
// average; bytes a directory takes on disk; format tables.

import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';

export function rate(fn, { ms = 1000, batch = 1 } = {}) {
  for (let i = 0; i < 50; i++) fn(); // warm up
  let ops = 0;
  const start = process.hrtime.bigint();
  const limit = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < limit) {
    for (let i = 0; i < batch; i++) fn();
    ops += batch;
    now = process.hrtime.bigint();
  }
  return (ops * 1e9) / Number(now - start);
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function table(headers, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(line(headers));
  console.log(line(headers.map(() => '---')));
  for (const r of rows) console.log(line(r));
  console.log();
}

export const fmt = (n, digits = 0) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(digits);

/** A numeric command-line option `--name value`, or the fallback. */
export function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** A comma-separated command-line option `--name a,b,c`: its parts, or the fallback (a list). */
export function listArg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1].split(',').filter(Boolean) : fallback;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds (user + system) used so far by the threads of a process whose name (`comm`)
 * passes `keep`, from /proc (Linux); NaN elsewhere. Threads that ended are not counted.
 */
export function threadCpuSeconds(pid, keep) {
  try {
    let ticks = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      if (!keep(name)) continue;
      const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100;
  } catch {
    return NaN;
  }
}

/** Thread ids of a process whose name passes `keep` (Linux; empty elsewhere). */
export function threadIds(pid, keep) {
  try {
    return readdirSync(`/proc/${pid}/task`).filter((tid) => {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      return keep(name);
    });
  } catch {
    return [];
  }
}

/** Resident memory of a process in MiB, from /proc (Linux); NaN elsewhere. */
export function rssMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** The machine's load average over 1, 5 and 15 minutes, as text. */
export const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * What a directory holds: `disk`, the bytes allocated to every file below it, as `du -s -B1`
 * counts them (RocksDB preallocates its write-ahead log, so this can be well above the
 * contents), and `apparent`, the sum of the files' lengths; `wal`, the length of RocksDB's
 * write-ahead log files among them (`NNNNNN.log`: what a node that writes without a log,
 * as Hornet does, holds in memory instead). Hard links count once; a file or folder that
 * goes away during the walk (RocksDB deletes table files after a compaction) is skipped.
 */
export function dirSizes(dir) {
  const seen = new Set();
  const sizes = { disk: 0, apparent: 0, wal: 0 };
  const walk = (path) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // deleted meanwhile
    }
    const key = `${st.dev}:${st.ino}`;
    if (seen.has(key)) return;
    seen.add(key);
    sizes.disk += st.blocks * 512;
    if (!st.isDirectory()) {
      sizes.apparent += st.size;
      if (/^\d+\.log$/.test(basename(path))) sizes.wal += st.size;
      return;
    }
    let names = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) walk(join(path, name));
  };
  walk(dir);
  return sizes;
}

/** Bytes a directory takes on disk, as `du -s -B1` counts them (see dirSizes). */
export const dirBytes = (dir) => dirSizes(dir).disk;

/** Bytes as MiB text, two decimals. */
export const mib = (bytes) => (bytes / 2 ** 20).toFixed(2);
