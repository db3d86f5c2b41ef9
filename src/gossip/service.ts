// Gossip in the node (gossip.md, docs/gossip.md): starts the native GossipNode (its own
// Tokio runtime, never this event loop) over the store, keeps the peer list that REST adds
// to and deletes from (`<dataDir>/peering.json`, `peering.ts`), logs what happens to
// peers, and answers the questions of /health, /info and /metrics from a snapshot taken
// every second (so those routes never wait for the p2p service).

import { join } from 'node:path';
import type { Logger } from 'pino';
import type { NodeConfig, PeerConfig } from '../config/schema';
import { protocolOf } from '../config/schema';
import { fromNativeAsync, LedgerError, toLedgerError } from '../core/errors';
import native from '../native';
import type { LedgerStoreApi, StoreStatus } from '../store-contract';
import { peerJson, type PeerJson } from './peer-json';
import { peerIdOf, readPeering, startupPeers, withoutPeer, withPeer, writePeering } from './peering';

type NativeGossip = InstanceType<typeof native.GossipNode>;
type NativeStore = Parameters<typeof native.GossipNode.start>[0];
export type GossipMetrics = ReturnType<NativeGossip['metrics']>;
export type GossipStatus = ReturnType<NativeGossip['status']>;

/** How often the peer snapshot for health and metrics is refreshed. */
const SNAPSHOT_MS = 1000;

export class PeerInputError extends Error {}
export class OwnPeerError extends Error {}

export class GossipService {
  private snapshot: PeerJson[] = [];
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  private constructor(
    private readonly node: NativeGossip,
    private readonly peeringFile: string,
    /** The peers of the configuration file and `--peer`. */
    private readonly configuredPeers: PeerConfig[],
    private readonly logger: Logger,
    /** Whether this thread started gossip (the main thread); a worker's service only asks. */
    private readonly owner = true,
  ) {
    this.timer = setInterval(() => void this.refresh(), SNAPSHOT_MS);
    this.timer.unref();
  }

  /** Start gossip: identity, listen addresses, static peers of the config (less those deleted over REST) and of peering.json. */
  static async start(config: NodeConfig, store: LedgerStoreApi, logger: Logger): Promise<GossipService> {
    const nativeStore = (store as unknown as { native?: NativeStore }).native;
    if (!nativeStore) throw new Error('gossip needs the native ledger store');
    const peeringFile = join(config.dataDir, 'peering.json');
    const { peers, skipped } = startupPeers(config.p2p.peers, readPeering(peeringFile));
    let node: NativeGossip;
    try {
      node = native.GossipNode.start(nativeStore, {
        networkName: protocolOf(config).networkName,
        bindMultiAddresses: config.p2p.bindMultiAddresses,
        identityPrivateKey: config.p2p.identityPrivateKey || undefined,
        identityFile: config.p2p.identityFile || join(config.dataDir, 'p2p-identity.key'),
        peers,
        unknownPeersLimit: config.p2p.unknownPeersLimit,
        reconnectIntervalMs: config.p2p.reconnectInterval * 1000,
        lowWatermark: config.p2p.connectionManager.lowWatermark,
        highWatermark: config.p2p.connectionManager.highWatermark,
        warpSyncRange: config.warpsync.advancementRange,
      });
    } catch (err) {
      const e = toLedgerError(err);
      throw e instanceof LedgerError ? e : new LedgerError('gossip-start', '', (err as Error).message ?? String(err));
    }
    const service = new GossipService(node, peeringFile, config.p2p.peers, logger);
    node.onEvent((event) => service.logEvent(event));
    for (const peer of skipped) {
      logger.info(
        { peer: peer.multiAddress },
        `gossip: configured peer not dialled: it was deleted over REST (${peeringFile}); POST it to add it again`,
      );
    }
    const addresses = await node.listenAddresses();
    logger.info({ peerId: node.peerId, addresses, peers: peers.length }, 'gossip started');
    await service.refresh();
    return service;
  }

  /**
   * The gossip the main thread runs, seen from an HTTP worker thread (server/http-worker.ts):
   * the same native service, for the peer routes, /info, /health and /metrics. Stopping it
   * stops nothing; the owner's events are logged by the owner.
   */
  static async attach(config: NodeConfig, logger: Logger): Promise<GossipService> {
    const service = new GossipService(
      native.GossipNode.attach(config.dataDir),
      join(config.dataDir, 'peering.json'),
      config.p2p.peers,
      logger,
      false,
    );
    await service.refresh();
    return service;
  }

  get peerId(): string {
    return this.node.peerId;
  }

  listenAddresses(): Promise<string[]> {
    return fromNativeAsync(() => this.node.listenAddresses());
  }

  async peers(): Promise<PeerJson[]> {
    return (await fromNativeAsync(() => this.node.peers())).map(peerJson);
  }

  /** The peer; undefined when unknown; PeerInputError for a malformed id. */
  async peer(peerId: string): Promise<PeerJson | undefined> {
    try {
      const peer = await this.node.peer(peerId);
      return peer ? peerJson(peer) : undefined;
    } catch (err) {
      throw this.inputError(err);
    }
  }

  /** Make the peer known, dial it and keep it in peering.json. */
  async addPeer(multiAddress: string, alias?: string): Promise<PeerJson> {
    let peer: Awaited<ReturnType<NativeGossip['addPeer']>>;
    try {
      peer = await this.node.addPeer(multiAddress, alias);
    } catch (err) {
      throw this.inputError(err);
    }
    const entry: PeerConfig = alias ? { multiAddress, alias } : { multiAddress };
    writePeering(this.peeringFile, withPeer(readPeering(this.peeringFile), entry));
    return peerJson(peer);
  }

  /**
   * Forget the peer and disconnect it; in peering.json it is dropped from the list and
   * remembered as deleted, so that the configuration does not bring it back at the next start.
   */
  async removePeer(peerId: string): Promise<void> {
    let known: boolean;
    try {
      known = await this.node.removePeer(peerId);
    } catch (err) {
      throw this.inputError(err);
    }
    const peering = readPeering(this.peeringFile);
    const listed = (list: PeerConfig[]) => list.some((p) => peerIdOf(p.multiAddress) === peerId);
    // An id nobody knew (DELETE answers 204 for it too) is not worth remembering.
    if (known || listed(peering.peers) || listed(this.configuredPeers))
      writePeering(this.peeringFile, withoutPeer(peering, peerId));
  }

  metrics(): GossipMetrics {
    return this.node.metrics();
  }

  status(): GossipStatus {
    return this.node.status();
  }

  /** Peers as of the last snapshot (at most a second old). */
  peersSnapshot(): PeerJson[] {
    return this.snapshot;
  }

  /** Peers with a gossip stream, as of the last snapshot. */
  streams(): number {
    return this.snapshot.filter((p) => p.gossip !== undefined).length;
  }

  /**
   * Health of a follower (D47, Hornet's rule): a milestone exists, CMI ≥ LMI − 2, the
   * latest milestone is younger than `maxAgeSeconds` (D50: a few of the network's
   * intervals; Hornet says 5 minutes), a gossip stream is up, and the node is not
   * warp-syncing (gossip.md §7: behind its peers by 2 or more). Never healthy after a fork.
   */
  followerHealthy(latest: StoreStatus['latestMilestone'], maxAgeSeconds: number, now = Date.now() / 1000): boolean {
    const status = this.status();
    if (status.halted || status.warpSyncing) return false;
    if (latest.index === 0 || latest.timestamp === undefined) return false;
    if (latest.index + 2 < status.latestMilestoneIndex) return false;
    if (now - latest.timestamp >= maxAgeSeconds) return false;
    return this.streams() > 0;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.owner) this.node.stop();
  }

  private async refresh(): Promise<void> {
    if (this.stopped) return;
    try {
      this.snapshot = await this.peers();
    } catch {
      // Stopped meanwhile: the last snapshot stays.
    }
  }

  private inputError(err: unknown): unknown {
    const e = toLedgerError(err);
    if (e instanceof LedgerError && e.code === 'invalid-argument') return new PeerInputError(e.detail);
    if (e instanceof LedgerError && e.code === 'own-peer-id') return new OwnPeerError(e.detail);
    return e;
  }

  private logEvent(event: { kind: string; peer?: string | null; detail: string }): void {
    const fields = { peer: event.peer ?? undefined, detail: event.detail };
    switch (event.kind) {
      case 'peer-dropped':
      case 'listen-failed':
      case 'intake-failed':
        this.logger.warn(fields, `gossip: ${event.kind}`);
        break;
      case 'dial-failed':
      case 'stream-refused':
        this.logger.debug(fields, `gossip: ${event.kind}`);
        break;
      default:
        this.logger.info(fields, `gossip: ${event.kind}`);
    }
  }
}
