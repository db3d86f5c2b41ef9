// The info object (api.md §2.3), field for field, kept as JSON text: everything in it
// changes only with a milestone (status, metrics) or when health flips, so it is built
// then, not for every request. A request costs one status read to notice either.

import type { NodeConfig } from '../../config/schema';
import type { ProtocolJson } from '../../core/types';
import type { LedgerStoreApi, MilestoneInterval, StoreStatus } from '../../store-contract';
import type { GossipService } from '../../gossip/service';
import { nodeHealthyAt } from './node-health';

export class NodeInfo {
  private builtFor = '';
  private text = '';
  private status?: StoreStatus;

  constructor(
    private readonly store: LedgerStoreApi,
    private readonly config: NodeConfig,
    private readonly protocol: ProtocolJson,
    private readonly version: string,
    private readonly gossip?: GossipService,
  ) {}

  /** The info object as JSON text; rebuilt when the latest milestone or the health changed. */
  jsonText(now = Date.now() / 1000): string {
    // Everything the info object takes from the status changes with the latest milestone or
    // with the pruning index (which a run moves between milestones) or with a full disk:
    // three cheap reads tell whether to read the whole status object again.
    if (
      this.status === undefined ||
      this.store.latestMilestoneIndex() !== this.status.latestMilestone.index ||
      this.store.pruningIndex() !== this.status.pruningIndex ||
      this.store.storageFull() !== this.status.storageFull
    )
      this.status = this.store.status();
    const status = this.status;
    const healthy = nodeHealthyAt(status, this.config, this.gossip, now);
    // With gossip, the latest milestone is the highest verified one (D47): above the
    // confirmed one while the node syncs.
    const seen = this.gossip
      ? Math.max(this.gossip.status().latestMilestoneIndex, status.latestMilestone.index)
      : status.latestMilestone.index;
    const key = `${status.latestMilestone.index}:${status.pruningIndex}:${seen}:${healthy}`;
    if (key !== this.builtFor) {
      this.text = JSON.stringify(this.build(status, healthy, seen));
      this.builtFor = key;
    }
    return this.text;
  }

  private build(status: StoreStatus, healthy: boolean, seen: number): object {
    const latest = status.latestMilestone;
    const milestone =
      latest.index === 0 || latest.timestamp === undefined
        ? { index: latest.index }
        : { index: latest.index, timestamp: latest.timestamp, milestoneId: latest.milestoneId };
    const latestMilestone = seen > latest.index ? { index: seen } : milestone;
    const { protocol, config } = this;
    const t = config.baseToken;
    return {
      name: 'ledger-node',
      version: this.version,
      status: {
        isHealthy: healthy,
        latestMilestone,
        confirmedMilestone: milestone,
        pruningIndex: status.pruningIndex,
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
      metrics: rates(status.lastInterval),
      features: config.restApi.pow.enabled ? ['pow'] : [],
    };
  }
}

/**
 * The metrics of the last milestone interval as Hornet computes them: new and referenced
 * blocks per second of milestone time, and referenced / new × 100 (0 without new blocks).
 */
export function rates(interval: MilestoneInterval | undefined): {
  blocksPerSecond: number;
  referencedBlocksPerSecond: number;
  referencedRate: number;
} {
  if (interval === undefined || interval.seconds === 0)
    return { blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 };
  return {
    blocksPerSecond: interval.newBlocks / interval.seconds,
    referencedBlocksPerSecond: interval.referencedBlocks / interval.seconds,
    referencedRate: interval.newBlocks === 0 ? 0 : (interval.referencedBlocks / interval.newBlocks) * 100,
  };
}
