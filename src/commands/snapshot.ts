// `ledger-node snapshot …` (snapshot.md §6, §8; docs/snapshots.md):
//   write --out FILE                    the genesis of the data directory (Hornet full snapshot)
//   create --index N [--out FILE]       a full snapshot of the data directory's ledger at N
//   create --delta --index N [--out FILE] [--full FILE]
//                                       a delta at N continuing the full snapshot FILE
//   info FILE                           a snapshot file's header, as `hornet tool snap-info`
// `write` and `create` open the ledger read-only: the node may be stopped or running (they
// then see the ledger as it was when they opened it). Defaults: --out for a full snapshot is
// `full_snapshot_<N>.bin` beside `snapshots.fullPath` (as the REST route writes it), for a
// delta `snapshots.deltaPath`; --full is `snapshots.fullPath`.

import { openSync, readSync, closeSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/load';
import { LedgerError } from '../core/errors';
import { createSnapshotFromDirectory, readSnapshotHeader, testPace, writeGenesisSnapshot } from '../core/snapshot';
import { requestedSnapshotPath, snapshotPaths } from '../snapshots/paths';

const USAGE =
  'use: snapshot write --out FILE | snapshot create --index N [--delta] [--out FILE] [--full FILE] | snapshot info FILE';

/** Take `--name VALUE` / `--name=VALUE` (and bare `--name` for `flags`) out of `args`. */
function take(args: string[], values: string[], flags: string[]): { found: Map<string, string>; rest: string[] } {
  const found = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const name = values.find((v) => arg === v || arg.startsWith(`${v}=`));
    if (name !== undefined) {
      found.set(name, arg === name ? (args[++i] ?? '') : arg.slice(name.length + 1));
    } else if (flags.includes(arg)) {
      found.set(arg, 'true');
    } else {
      rest.push(arg);
    }
  }
  return { found, rest };
}

export async function snapshotCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'write') return write(rest);
  if (action === 'create') return create(rest);
  if (action === 'info') return info(rest);
  throw new ConfigError(`snapshot: unknown action '${action ?? ''}' (${USAGE})`);
}

function failed(what: string, err: unknown): never {
  if (err instanceof LedgerError) throw new ConfigError(`${what}: ${err.detail} (${err.code})`);
  throw err;
}

function write(args: string[]): void {
  const { found, rest } = take(args, ['--out'], []);
  const out = found.get('--out');
  if (out === undefined || out === '') throw new ConfigError('snapshot write needs --out FILE');
  const config = loadConfig(rest);
  try {
    const written = writeGenesisSnapshot(config.dataDir, out);
    process.stdout.write(
      `wrote ${resolve(out)}: ${written.bytes} bytes, ${written.outputs} output(s), ${written.solidEntryPoints} solid entry point(s), genesis style ${written.genesisStyle}\n`,
    );
    if (written.genesisStyle === 'ledger') {
      process.stderr.write(
        'note: this network uses genesis.style ledger: other ledger-nodes can start from the file, Hornet cannot follow it (snapshot.md §5; use genesis.style hornet for a new network)\n',
      );
    }
  } catch (err) {
    failed('snapshot write', err);
  }
}

function create(args: string[]): void {
  const { found, rest } = take(args, ['--index', '--out', '--full'], ['--delta']);
  const raw = found.get('--index');
  if (raw === undefined || !/^\d{1,10}$/.test(raw) || Number(raw) === 0 || Number(raw) > 0xffffffff)
    throw new ConfigError('snapshot create needs --index N (a milestone index ≥ 1)');
  const index = Number(raw);
  const config = loadConfig(rest);
  const paths = snapshotPaths(config);
  const delta = found.has('--delta');
  const out = found.get('--out') || (delta ? paths.delta : requestedSnapshotPath(paths, index));
  const full = delta ? found.get('--full') || paths.full : out;
  try {
    const w = createSnapshotFromDirectory(config.dataDir, {
      kind: delta ? 'delta' : 'full',
      index,
      fullPath: full,
      deltaPath: delta ? out : undefined,
      record: false,
      paceMicros: testPace(),
    });
    process.stdout.write(
      `wrote ${resolve(w.filePath)}: ${w.kind} snapshot, target ${w.index} (ledger ${w.ledgerIndex}), ${w.bytes} bytes, ${w.outputs} output(s), ${w.milestoneDiffs} milestone diff(s), ${w.solidEntryPoints} solid entry point(s), ${Math.round(w.micros / 1000)} ms\n`,
    );
  } catch (err) {
    failed('snapshot create', err);
  }
}

function info(args: string[]): void {
  if (args.length !== 1) throw new ConfigError(`snapshot info needs one FILE (${USAGE})`);
  const file = args[0];
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new ConfigError(`snapshot info: cannot read ${file}: ${(err as Error).message}`);
  }
  const bytes = Buffer.alloc(106 + 65_536);
  const length = readSync(fd, bytes, 0, bytes.length, 0);
  closeSync(fd);
  try {
    const header = readSnapshotHeader(bytes.subarray(0, length));
    process.stdout.write(`${JSON.stringify({ filePath: resolve(file), ...header }, null, 2)}\n`);
  } catch (err) {
    failed(`snapshot info ${file}`, err);
  }
}
