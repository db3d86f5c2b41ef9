// `ledger-node snapshot write --out FILE [flags]`: write the genesis of the data directory
// as a Hornet full snapshot (snapshot.md §6), for Hornet (`snapshots.fullPath`) or another
// ledger-node (`snapshot.loadPath`) to start from. The node may be running meanwhile.

import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/load';
import { LedgerError } from '../core/errors';
import { writeGenesisSnapshot } from '../core/snapshot';

export async function snapshotCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'write')
    throw new ConfigError(`snapshot: unknown action '${action ?? ''}' (use: snapshot write --out FILE)`);
  let out: string | undefined;
  const flags: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--out') out = rest[++i];
    else if (rest[i].startsWith('--out=')) out = rest[i].slice('--out='.length);
    else flags.push(rest[i]);
  }
  if (out === undefined || out === '') throw new ConfigError('snapshot write needs --out FILE');
  const config = loadConfig(flags);
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
    if (err instanceof LedgerError) throw new ConfigError(`snapshot write: ${err.detail} (${err.code})`);
    throw err;
  }
}
