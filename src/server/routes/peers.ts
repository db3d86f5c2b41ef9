// Peer routes (gossip.md §9, D48), answered as Hornet answers them: GET/POST
// /api/core/v2/peers, GET/DELETE /api/core/v2/peers/{peerId}. Protected (not in the
// default public routes). Without gossip the node has no peers: GET lists none, the rest
// is 503.

import type Router from '@koa/router';
import type { PeerJson } from '../../gossip/peer-json';
import { OwnPeerError, PeerInputError } from '../../gossip/service';
import { badRequest, notFound, unavailable } from '../../http/error';
import { readBody } from '../middleware/body';
import type { ServerServices } from '../services';

/** A peer POST body is small; Hornet's is one multiaddress and an alias. */
const MAX_PEER_BODY = 16 * 1024;

export function peersRoutes(router: Router, { gossip }: ServerServices): void {
  const service = () => {
    if (!gossip) throw unavailable('gossip is disabled on this node');
    return gossip;
  };
  const inputError = (err: unknown) => {
    if (err instanceof PeerInputError) return badRequest(err.message);
    if (err instanceof OwnPeerError) return notFound(err.message);
    return err;
  };

  router.get('/api/core/v2/peers', async (ctx) => {
    ctx.body = gossip ? await gossip.peers() : [];
  });

  router.post('/api/core/v2/peers', async (ctx) => {
    const g = service();
    const text = (await readBody(ctx, MAX_PEER_BODY)).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw badRequest(`body is not JSON: ${(err as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('body must be an object {"multiAddress": …, "alias": …}');
    const { multiAddress, alias } = body as { multiAddress?: unknown; alias?: unknown };
    if (typeof multiAddress !== 'string' || multiAddress === '')
      throw badRequest('multiAddress must be a multiaddress ending in /p2p/<peerId>');
    if (alias !== undefined && alias !== null && typeof alias !== 'string') throw badRequest('alias must be a string');
    try {
      ctx.body = await g.addPeer(multiAddress, typeof alias === 'string' && alias !== '' ? alias : undefined);
    } catch (err) {
      throw inputError(err);
    }
  });

  router.get('/api/core/v2/peers/:peerId', async (ctx) => {
    const g = service();
    let peer: PeerJson | undefined;
    try {
      peer = await g.peer(ctx.params.peerId);
    } catch (err) {
      throw inputError(err);
    }
    if (!peer) throw notFound(`peer ${ctx.params.peerId}`);
    ctx.body = peer;
  });

  router.delete('/api/core/v2/peers/:peerId', async (ctx) => {
    const g = service();
    try {
      await g.removePeer(ctx.params.peerId);
    } catch (err) {
      throw inputError(err);
    }
    ctx.status = 204;
  });
}
