// The integrity check of a data directory from the native core (ledger-store `integrity`):
// supply, outputs, indexer, milestones, blocks and inclusions, read once.

import native from '../native';
import { fromNative } from './errors';

export interface HealthReport {
  unspentOutputs: number;
  blocks: number;
  milestones: number;
  indexerChecked: boolean;
  /** One line each; empty when the database is healthy. */
  problems: string[];
}

/** Check the ledger in `dataDir`, opened read-only; LedgerError when there is none to check. */
export function checkDatabaseHealth(dataDir: string): HealthReport {
  return fromNative(() => native.checkDatabaseHealth(dataDir));
}
