// /api/dashboard-metrics/v1 (docs/dashboard.md): what a dashboard shows beside the Core API
// figures, under the route group and with the fields of Hornet's dashboard-metrics plugin
// (which inx-dashboard reads): `/info` (version, uptime, memory) and `/database/sizes`.
// Hornet's `/gossip` is not served: this node has no peers to report on.

import type Router from '@koa/router';
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
]);

export function dashboardMetricsRoutes(router: Router, { store, version, startedAt }: ServerServices): void {
  router.get('/api/dashboard-metrics/v1/info', (ctx) => {
    ctx.body = {
      version,
      // The node makes no requests to the outside, so it knows no newer release than itself.
      latestVersion: version,
      uptime: Date.now() - startedAt,
      // No peer identity and no alias exist until the node takes part in gossip.
      nodeId: '',
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
}
