// The INX server in the node (crates/ledger-inx, docs/inx.md): started over the store when
// `inx.enabled`, on its own Tokio runtime inside the binding (never this event loop), and
// stopped with the node. The HTTP threads read the routes extensions registered through
// `InxRouteView`, which finds the server by the data directory (every thread of the
// process sees the same registry).

import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import { LedgerError, toLedgerError } from '../core/errors';
import type { MiningPool } from '../core/mining-pool';
import native from '../native';
import type { LedgerStoreApi } from '../store-contract';

type NativeInx = InstanceType<typeof native.InxNode>;
type NativeStore = Parameters<typeof native.InxNode.start>[0];

/** Where the REST API forwards a request under a route an extension registered. */
export interface ProxyTarget {
  route: string;
  host: string;
  port: number;
  /** Empty, or starting with "/": put in front of the forwarded path. */
  path: string;
}

/** What the HTTP layer asks about the routes extensions registered. */
export interface InxRoutes {
  /** Route groups in registration order, for `/api/routes`. */
  routes(): string[];
  /** The extension serving `path` (`/api/<route>` or below it), if any. */
  proxyTarget(path: string): ProxyTarget | undefined;
}

/**
 * The route groups parts of this node serve themselves: an extension's RegisterAPIRoute
 * for one of them is refused (ALREADY_EXISTS, naming the flag that turns the part off).
 */
export function reservedRoutes(config: NodeConfig, faucet: boolean): { route: string; flag?: string }[] {
  const reserved: { route: string; flag?: string }[] = [{ route: 'core/v2' }, { route: 'dashboard-metrics/v1' }];
  if (config.indexer.enabled) reserved.push({ route: 'indexer/v1', flag: '--no-indexer' });
  if (config.events.enabled) reserved.push({ route: 'mqtt/v1', flag: '--no-events' });
  if (faucet) reserved.push({ route: 'faucet/v1', flag: '--no-faucet' });
  return reserved;
}

/** The registry of the server that runs over `dataDir`, found once it runs (it starts after the HTTP threads). */
export class InxRouteView implements InxRoutes {
  private node: NativeInx | undefined;

  constructor(private readonly dataDir: string) {}

  private attached(): NativeInx | undefined {
    if (this.node === undefined) {
      try {
        this.node = native.InxNode.attach(this.dataDir);
      } catch {
        return undefined; // not started yet, or stopped
      }
    }
    return this.node;
  }

  routes(): string[] {
    return this.attached()?.routes() ?? [];
  }

  proxyTarget(path: string): ProxyTarget | undefined {
    return this.attached()?.proxyTarget(path) ?? undefined;
  }
}

export interface InxStart {
  config: NodeConfig;
  store: LedgerStoreApi;
  miner: MiningPool;
  /** host:port of this node's REST API, for PerformAPIRequest. */
  restAddress: string;
  /** A JWT of the node's own, so that PerformAPIRequest passes the auth rules as Hornet's in-process call does. */
  restToken: string;
  faucet: boolean;
  logger: Logger;
}

export class InxService {
  private constructor(private readonly node: NativeInx) {}

  static start({ config, store, miner, restAddress, restToken, faucet, logger }: InxStart): InxService {
    const nativeStore = (store as unknown as { native?: NativeStore }).native;
    if (!nativeStore) throw new Error('INX needs the native ledger store');
    let node: NativeInx;
    try {
      node = native.InxNode.start(nativeStore, miner.native, {
        bindAddress: config.inx.bindAddress,
        restAddress,
        restAuthorization: `Bearer ${restToken}`,
        reservedRoutes: reservedRoutes(config, faucet),
        baseToken: { ...config.baseToken, subunit: config.baseToken.subunit ?? '' },
        powEnabled: config.restApi.pow.enabled,
        powThreads: config.restApi.pow.threads,
        powTimeoutMs: config.restApi.pow.timeout * 1000,
      });
    } catch (err) {
      const e = toLedgerError(err);
      throw e instanceof LedgerError ? e : new LedgerError('inx-start', '', (err as Error).message ?? String(err));
    }
    node.onEvent((event) => {
      if (event.kind === 'stream-dropped' || event.kind === 'stream-failed')
        logger.warn({ inx: event.detail }, `inx: ${event.kind}`);
      else logger.info({ inx: event.detail }, `inx: ${event.kind}`);
    });
    return new InxService(node);
  }

  /** The addresses listened on, host:port. */
  localAddresses(): string[] {
    return this.node.localAddresses();
  }

  stop(): void {
    this.node.stop();
  }
}
