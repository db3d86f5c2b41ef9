// The peer object of the REST peer routes exactly as Hornet emits it (gossip.md §9, D48):
// field order, `alias` omitted when empty, `gossip` omitted without a stream, `heartbeat`
// null before the first one, Hornet's `connectedPeers`/`syncedPeers`.

import type native from '../native';

type NativePeer = Awaited<ReturnType<InstanceType<typeof native.GossipNode>['peers']>>[number];

export interface HeartbeatJson {
  solidMilestoneIndex: number;
  prunedMilestoneIndex: number;
  latestMilestoneIndex: number;
  connectedPeers: number;
  syncedPeers: number;
}

export interface PeerMetricsJson {
  newBlocks: number;
  knownBlocks: number;
  receivedBlocks: number;
  receivedBlockRequests: number;
  receivedMilestoneRequests: number;
  receivedHeartbeats: number;
  sentBlocks: number;
  sentBlockRequests: number;
  sentMilestoneRequests: number;
  sentHeartbeats: number;
  droppedPackets: number;
}

export interface PeerJson {
  id: string;
  multiAddresses: string[];
  alias?: string;
  relation: string;
  connected: boolean;
  gossip?: { heartbeat: HeartbeatJson | null; metrics: PeerMetricsJson };
}

export function peerJson(p: NativePeer): PeerJson {
  const h = p.gossip?.heartbeat;
  const m = p.gossip?.metrics;
  return {
    id: p.id,
    multiAddresses: p.multiAddresses,
    ...(p.alias ? { alias: p.alias } : {}),
    relation: p.relation,
    connected: p.connected,
    ...(m
      ? {
          gossip: {
            heartbeat: h
              ? {
                  solidMilestoneIndex: h.solidMilestoneIndex,
                  prunedMilestoneIndex: h.prunedMilestoneIndex,
                  latestMilestoneIndex: h.latestMilestoneIndex,
                  connectedPeers: h.connectedPeers,
                  syncedPeers: h.syncedPeers,
                }
              : null,
            metrics: {
              newBlocks: m.newBlocks,
              knownBlocks: m.knownBlocks,
              receivedBlocks: m.receivedBlocks,
              receivedBlockRequests: m.receivedBlockRequests,
              receivedMilestoneRequests: m.receivedMilestoneRequests,
              receivedHeartbeats: m.receivedHeartbeats,
              sentBlocks: m.sentBlocks,
              sentBlockRequests: m.sentBlockRequests,
              sentMilestoneRequests: m.sentMilestoneRequests,
              sentHeartbeats: m.sentHeartbeats,
              droppedPackets: m.droppedPackets,
            },
          },
        }
      : {}),
  };
}
