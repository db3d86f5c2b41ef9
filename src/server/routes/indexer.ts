// The UTXO indexer, /api/indexer/v1 (indexer.md, TIP-26): the list routes answer one page
// of unspent output IDs as the store writes it (JSON bytes, one snapshot, off the event
// loop); the by-ID routes answer the current output of an alias, NFT or foundry chain.
// Mounted only while the indexer is enabled.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { LedgerError } from '../../core/errors';
import type { ChainKind, IndexerQuery } from '../../store-contract';
import { badRequest, notFound, unavailable } from '../../http/error';
import { sendJsonText } from '../middleware/media';
import { parseIndexerQuery } from '../pipeline/indexer-query';
import type { ServerServices } from '../services';

const BASE = '/api/indexer/v1/outputs';
const LISTS: [string, IndexerQuery['route']][] = [
  ['', 'outputs'],
  ['/basic', 'basic'],
  ['/alias', 'alias'],
  ['/nft', 'nft'],
  ['/foundry', 'foundry'],
];
/** Chain kind, ID parameter name, hex digits of the ID (§3.4). */
const CHAINS: [ChainKind, string, number][] = [
  ['alias', 'aliasId', 64],
  ['nft', 'nftId', 64],
  ['foundry', 'foundryId', 76],
];

/** Store failures a client can act on get their status; the rest stay 500. */
function httpError(err: unknown): unknown {
  if (err instanceof LedgerError && err.code === 'not-ready') return unavailable(err.detail);
  return err;
}

export function indexerRoutes(router: Router, { config, protocol, store }: ServerServices): void {
  if (!config.indexer.enabled) return;
  const { maxPageSize } = config.indexer;

  for (const [path, route] of LISTS) {
    // One trailing slash is ignored (indexer.md §1.1).
    router.get([BASE + path, `${BASE}${path}/`], async (ctx: Context) => {
      const query = parseIndexerQuery(route, ctx.query, protocol.bech32Hrp, maxPageSize);
      let body: Buffer;
      try {
        body = await store.queryOutputs(query);
      } catch (err) {
        throw httpError(err);
      }
      sendJsonText(ctx, body);
    });
  }

  for (const [kind, name, digits] of CHAINS) {
    const pattern = new RegExp(`^0x[0-9a-f]{${digits}}$`, 'i');
    router.get([`${BASE}/${kind}/:id`, `${BASE}/${kind}/:id/`], (ctx: Context) => {
      const id: string = ctx.params.id;
      if (!pattern.test(id)) throw badRequest(`${name}: must be 0x followed by ${digits} hex digits`);
      let body: string | null;
      try {
        body = store.getChainOutput(kind, id.toLowerCase());
      } catch (err) {
        throw httpError(err);
      }
      if (body === null) throw notFound(`no unspent ${kind} output with ID ${id.toLowerCase()}`);
      sendJsonText(ctx, body);
    });
  }
}
