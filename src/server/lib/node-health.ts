// Health (ledger.md §12, D26): a milestone exists and the latest is younger than
// max(5 minutes, 3 × coordinator interval). A follower with gossip (D47) is healthy by
// Hornet's rule instead (gossip/service.ts `followerHealthy`), with a tighter bound on the
// latest milestone's age (D50): three of the network's intervals, so that a node cut off
// from the coordinator says so within seconds, not after Hornet's five minutes. A node that
// found a fork is never healthy, nor is one whose data directory's file system is full
// (its last write failed for want of space: it can take nothing in). An unhealthy node
// does not attach blocks itself (pipeline/tips.ts).

import type { NodeConfig } from '../../config/schema';
import type { GossipService } from '../../gossip/service';
import type { LedgerStoreApi, StoreStatus } from '../../store-contract';

export function isHealthy(
  store: LedgerStoreApi,
  config: NodeConfig,
  gossip?: GossipService,
  now = Date.now() / 1000,
): boolean {
  return nodeHealthyAt(healthStatus(store), config, gossip, now);
}

type HealthStatus = Pick<StoreStatus, 'latestMilestone' | 'storageFull' | 'lastInterval'>;
const statuses = new WeakMap<LedgerStoreApi, { index: number; status: HealthStatus }>();

/**
 * What the rule reads of the store's status, read again only when the latest milestone or
 * the disk's state changed (two cheap reads): submissions ask for it, at thousands a second.
 */
function healthStatus(store: LedgerStoreApi): HealthStatus {
  const index = store.latestMilestoneIndex();
  const full = store.storageFull();
  const cached = statuses.get(store);
  if (cached !== undefined && cached.index === index && cached.status.storageFull === full) return cached.status;
  const { latestMilestone, storageFull, lastInterval } = store.status();
  const status = { latestMilestone, storageFull, lastInterval };
  statuses.set(store, { index, status });
  return status;
}

/** The node's health rule for a store status already read. */
export function nodeHealthyAt(
  status: Pick<StoreStatus, 'latestMilestone' | 'storageFull' | 'lastInterval'>,
  config: NodeConfig,
  gossip?: GossipService,
  now = Date.now() / 1000,
): boolean {
  if (status.storageFull) return false;
  const latest = status.latestMilestone;
  if (gossip && !config.coordinator.enabled)
    return gossip.followerHealthy(latest, followerMilestoneAge(status, config), now);
  if (gossip?.status().halted) return false;
  return healthyAt(latest, config.coordinator.interval, now);
}

/** Seconds a follower's latest milestone may age at most (D50). */
export const FOLLOWER_AGE = { min: 15, max: 300, intervals: 3 } as const;

/**
 * How old a follower's latest milestone may be: three of the network's milestone intervals
 * (the last one seen between two milestones; before that, `coordinator.interval`), at
 * least 15 s (timestamps are whole seconds, clocks differ) and at most Hornet's 5 minutes.
 */
export function followerMilestoneAge(status: Pick<StoreStatus, 'lastInterval'>, config: NodeConfig): number {
  const interval = status.lastInterval?.seconds || config.coordinator.interval;
  return Math.min(FOLLOWER_AGE.max, Math.max(FOLLOWER_AGE.min, FOLLOWER_AGE.intervals * interval));
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
