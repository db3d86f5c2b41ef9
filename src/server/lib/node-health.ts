// Health (ledger.md §12, D26): a milestone exists and the latest is younger than
// max(5 minutes, 3 × coordinator interval). A follower with gossip (D47) is healthy by
// Hornet's rule instead (gossip/service.ts `followerHealthy`); a node that found a fork
// is never healthy, nor is one whose data directory's file system is full (its last write
// failed for want of space: it can take nothing in).

import type { NodeConfig } from '../../config/schema';
import type { GossipService } from '../../gossip/service';
import type { LedgerStoreApi, StoreStatus } from '../../store-contract';

export function isHealthy(
  store: LedgerStoreApi,
  config: NodeConfig,
  gossip?: GossipService,
  now = Date.now() / 1000,
): boolean {
  return nodeHealthyAt(store.status(), config, gossip, now);
}

/** The node's health rule for a store status already read. */
export function nodeHealthyAt(
  status: Pick<StoreStatus, 'latestMilestone' | 'storageFull'>,
  config: NodeConfig,
  gossip?: GossipService,
  now = Date.now() / 1000,
): boolean {
  if (status.storageFull) return false;
  const latest = status.latestMilestone;
  if (gossip && !config.coordinator.enabled) return gossip.followerHealthy(latest, now);
  if (gossip?.status().halted) return false;
  return healthyAt(latest, config.coordinator.interval, now);
}

/** The same rule for a latest milestone already read. */
export function healthyAt(
  latest: StoreStatus['latestMilestone'],
  intervalSeconds: number,
  now = Date.now() / 1000,
): boolean {
  if (latest.index === 0 || latest.timestamp === undefined) return false;
  return now - latest.timestamp < Math.max(300, 3 * intervalSeconds);
}
