// Health (ledger.md §12, D26): a milestone exists and the latest is younger than
// max(5 minutes, 3 × coordinator interval).

import type { LedgerStoreApi, StoreStatus } from '../../store-contract';

export function isHealthy(store: LedgerStoreApi, intervalSeconds: number, now = Date.now() / 1000): boolean {
  return healthyAt(store.status().latestMilestone, intervalSeconds, now);
}

/** The same rule for a latest milestone already read. */
export function healthyAt(latest: StoreStatus['latestMilestone'], intervalSeconds: number, now = Date.now() / 1000): boolean {
  if (latest.index === 0 || latest.timestamp === undefined) return false;
  return now - latest.timestamp < Math.max(300, 3 * intervalSeconds);
}
