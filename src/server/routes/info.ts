// GET /api/core/v2/info (api.md §2.3), field for field.

import type Router from '@koa/router';
import { isHealthy } from '../lib/node-health';
import type { ServerServices } from '../services';

export function infoRoutes(router: Router, services: ServerServices): void {
  const { store, config, protocol, coordinator, version } = services;
  router.get('/api/core/v2/info', (ctx) => {
    const latest = store.status().latestMilestone;
    const milestone =
      latest.index === 0 || latest.timestamp === undefined
        ? { index: latest.index }
        : { index: latest.index, timestamp: latest.timestamp, milestoneId: latest.milestoneId };
    const t = config.baseToken;
    ctx.body = {
      name: 'ledger-node',
      version,
      status: {
        isHealthy: isHealthy(store, config.coordinator.interval),
        latestMilestone: milestone,
        confirmedMilestone: milestone,
        pruningIndex: 0,
      },
      supportedProtocolVersions: [2],
      protocol: {
        version: protocol.version,
        networkName: protocol.networkName,
        bech32Hrp: protocol.bech32Hrp,
        minPowScore: protocol.minPowScore,
        belowMaxDepth: protocol.belowMaxDepth,
        rentStructure: {
          vByteCost: protocol.rentStructure.vByteCost,
          vByteFactorData: protocol.rentStructure.vByteFactorData,
          vByteFactorKey: protocol.rentStructure.vByteFactorKey,
        },
        tokenSupply: protocol.tokenSupply,
      },
      pendingProtocolParameters: [],
      baseToken: {
        name: t.name,
        tickerSymbol: t.tickerSymbol,
        unit: t.unit,
        ...(t.subunit ? { subunit: t.subunit } : {}),
        decimals: t.decimals,
        useMetricPrefix: t.useMetricPrefix,
      },
      metrics: coordinator?.metrics ?? { blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 },
      features: config.restApi.pow.enabled ? ['pow'] : [],
    };
  });
}
