// Health (ledger.md §12, D26): a milestone exists and the latest is younger than
// max(5 minutes, 3 × coordinator interval).

import type { LedgerStoreApi } from '../../store-contract';

export function isHealthy(store: LedgerStoreApi, intervalSeconds: number, now = Date.now() / 1000): boolean {
  const latest = store.status().latestMilestone;
  if (latest.index === 0 || latest.timestamp === undefined) return false;
  return now - latest.timestamp < Math.max(300, 3 * intervalSeconds);
}
