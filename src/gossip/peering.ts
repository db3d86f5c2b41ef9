// The persisted peer list, `<dataDir>/peering.json` (docs/gossip.md "Peer list").
//
// Hornet's shape — `{"peers": [{"multiAddress": "…/p2p/<id>", "alias": "…"}]}` — holds the
// peers added over REST; one more key, `deletedPeers`, holds the ids of peers deleted over
// REST. The rule at start: the peers of the configuration file and `--peer`, minus the
// deleted ones, plus the peers of `peers`. So a peer deleted over REST stays deleted at the
// next start even when the configuration names it, until it is added again over REST
// (which takes it off `deletedPeers`); a peer added to the configuration later is dialled.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PeerConfig } from '../config/schema';

export interface Peering {
  /** Peers added over REST. */
  peers: PeerConfig[];
  /** Ids of peers deleted over REST. */
  deletedPeers: string[];
}

/** The peer id at the end of `/…/p2p/<peerId>`; '' when there is none. */
export function peerIdOf(multiAddress: string): string {
  const at = multiAddress.lastIndexOf('/p2p/');
  return at >= 0 ? multiAddress.slice(at + 5) : '';
}

/** The peers to dial at start, and the configured ones left out because they were deleted. */
export function startupPeers(
  configured: PeerConfig[],
  peering: Peering,
): { peers: PeerConfig[]; skipped: PeerConfig[] } {
  const deleted = new Set(peering.deletedPeers);
  const kept = configured.filter((p) => !deleted.has(peerIdOf(p.multiAddress)));
  const skipped = configured.filter((p) => deleted.has(peerIdOf(p.multiAddress)));
  // The same id in both: the configuration's entry wins.
  const ids = new Set(kept.map((p) => peerIdOf(p.multiAddress)));
  return { peers: [...kept, ...peering.peers.filter((p) => !ids.has(peerIdOf(p.multiAddress)))], skipped };
}

/** After a REST POST: the peer is listed (once) and no longer deleted. */
export function withPeer(peering: Peering, entry: PeerConfig): Peering {
  const id = peerIdOf(entry.multiAddress);
  return {
    peers: [...peering.peers.filter((p) => peerIdOf(p.multiAddress) !== id), entry],
    deletedPeers: peering.deletedPeers.filter((d) => d !== id),
  };
}

/** After a REST DELETE: the peer is not listed, and remembered as deleted. */
export function withoutPeer(peering: Peering, peerId: string): Peering {
  return {
    peers: peering.peers.filter((p) => peerIdOf(p.multiAddress) !== peerId),
    deletedPeers: peering.deletedPeers.includes(peerId) ? peering.deletedPeers : [...peering.deletedPeers, peerId],
  };
}

/** The file's content; an absent or unreadable file reads as empty. */
export function readPeering(file: string): Peering {
  const empty: Peering = { peers: [], deletedPeers: [] };
  if (!existsSync(file)) return empty;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { peers?: unknown; deletedPeers?: unknown };
    const peers = Array.isArray(parsed.peers)
      ? parsed.peers.filter(
          (p): p is PeerConfig =>
            typeof p === 'object' && p !== null && typeof (p as PeerConfig).multiAddress === 'string',
        )
      : [];
    const deletedPeers = Array.isArray(parsed.deletedPeers)
      ? parsed.deletedPeers.filter((d): d is string => typeof d === 'string')
      : [];
    return { peers, deletedPeers };
  } catch {
    return empty;
  }
}

/** Replace the file atomically; `deletedPeers` only when there are some (Hornet's shape otherwise). */
export function writePeering(file: string, peering: Peering): void {
  const temp = `${file}.tmp`;
  const content = peering.deletedPeers.length > 0 ? peering : { peers: peering.peers };
  writeFileSync(temp, JSON.stringify(content, null, 2) + '\n');
  renameSync(temp, file);
}
