// /api/dashboard-metrics/v1 (docs/dashboard.md): what a dashboard shows beside the Core API
// figures, under the route group and with the fields of Hornet's dashboard-metrics plugin
// (which inx-dashboard reads): `/info` (version, uptime, memory, the gossip peer id),
// `/database/sizes` and `/gossip` (blocks per second over gossip).

import type Router from '@koa/router';
import { GossipRates } from '../lib/gossip-rates';
import type { ServerServices } from '../services';

/** Column families that hold the block graph (Hornet's "tangle" database); the rest is the ledger. */
const TANGLE_FAMILIES = new Set([
  'blocks',
  'block_meta',
  'children',
  'tx_blocks',
  'unreferenced',
  'milestones',
  'milestone_ids',
  'milestone_blocks',
  'solid_entry_points',
]);

export function dashboardMetricsRoutes(
  router: Router,
  { store, version, startedAt, gossip, shutdown }: ServerServices,
): void {
  const rates = new GossipRates(gossip, shutdown);

  router.get('/api/dashboard-metrics/v1/info', (ctx) => {
    ctx.body = {
      version,
      // The node makes no requests to the outside, so it knows no newer release than itself.
      latestVersion: version,
      uptime: Date.now() - startedAt,
      // The gossip peer id is the node's identity, as on Hornet; without gossip it has none.
      nodeId: gossip?.peerId ?? '',
      nodeAlias: '',
      memUsage: process.memoryUsage.rss(),
    };
  });

  router.get('/api/dashboard-metrics/v1/database/sizes', (ctx) => {
    let tangle = 0;
    let utxo = 0;
    for (const { name, bytes } of store.approximateSizes()) {
      if (TANGLE_FAMILIES.has(name)) tangle += bytes;
      else utxo += bytes;
    }
    ctx.body = { tangle, utxo, total: tangle + utxo, ts: Math.floor(Date.now() / 1000) };
  });

  router.get('/api/dashboard-metrics/v1/gossip', (ctx) => {
    ctx.body = rates.current();
  });
}
