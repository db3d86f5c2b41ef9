// Hornet full snapshots from the native core (snapshot.md §6): the genesis of a data
// directory written as one. Loading a snapshot is part of opening the store (store.ts).

import native from '../native';
import { fromNative } from './errors';

export interface WrittenSnapshot {
  bytes: number;
  outputs: number;
  solidEntryPoints: number;
  genesisStyle: 'ledger' | 'hornet';
}

/** Write the genesis of the ledger in `dataDir` to `outFile` (which must not exist); LedgerError on failure. */
export function writeGenesisSnapshot(dataDir: string, outFile: string): WrittenSnapshot {
  const written = fromNative(() => native.writeGenesisSnapshot(dataDir, outFile));
  return { ...written, genesisStyle: written.genesisStyle as WrittenSnapshot['genesisStyle'] };
}
