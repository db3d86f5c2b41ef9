// What the HTTP layer needs from the rest of the node, handed to every route module.

import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import type { Coordinator } from '../coordinator';
import type { MiningPool } from '../core/mining-pool';
import type { FaucetService } from '../faucet/faucet';
import type { GossipService } from '../gossip/service';
import type { InxRoutes } from '../inx/service';
import type { ProtocolJson } from '../core/types';
import type { LedgerStoreApi } from '../store-contract';
import type { NodeMetrics } from './lib/node-metrics';

export interface ServerServices {
  config: NodeConfig;
  /** The persisted protocol parameters (what the store reports), not the configured ones. */
  protocol: ProtocolJson;
  store: LedgerStoreApi;
  coordinator: Coordinator | undefined;
  metrics: NodeMetrics;
  logger: Logger;
  version: string;
  /** Mines nonces for submitted blocks, on native threads of its own. */
  miner: MiningPool;
  /** When the node started (Date.now()), for its uptime. */
  startedAt: number;
  /** Aborted when the node shuts down: cancels mining in progress. */
  shutdown: AbortSignal;
  /** The dev-network faucet, when it runs (docs/faucet.md). */
  faucet?: FaucetService;
  /** Gossip with other nodes, when `gossip.enabled`. */
  gossip?: GossipService;
  /** The routes INX extensions registered, when `inx.enabled`: proxied and listed in /api/routes. */
  inx?: InxRoutes;
}
