// Tip selection as the API sees it: the store's choice, or 503 when it cannot choose
// (before milestone 1 or when no parents can be selected), or when the node reports itself
// unhealthy (D50): cut off from its peers or from new milestones, it would attach blocks to
// a part of the graph the network may never reference, so it refuses to choose.

import { LedgerError } from '../../core/errors';
import { unavailable } from '../../http/error';
import { isHealthy } from '../lib/node-health';
import type { ServerServices } from '../services';

export function selectTips({ store, config, gossip }: Pick<ServerServices, 'store' | 'config' | 'gossip'>): string[] {
  if (!isHealthy(store, config, gossip))
    throw unavailable('node is not healthy: it cannot select tips the network would reference');
  try {
    return store.selectTips();
  } catch (err) {
    if (err instanceof LedgerError)
      throw unavailable(err.code === 'not-ready' ? 'node is not ready' : `no tips can be selected (${err.detail})`);
    throw err;
  }
}
