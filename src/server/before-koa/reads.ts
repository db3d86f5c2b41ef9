// The hottest reads, answered before Koa (docs/performance.md): GET info, tips, a block, its
// metadata, a transaction's included block, an output and its metadata. What they answer
// is prepared once (the info text per milestone, a block's JSON text per cached block) or
// read as the store keeps it (metadata, outputs), and needs none of the
// middleware chain but what is kept here, the same as there: CORS's allow-origin header,
// the public-route rule (a route that is not public goes to Koa, which checks the JWT), the
// request counters and timers under the route's pattern, and the request log line.
// A 404 for an unknown block or output or a transaction not (yet) included is answered here
// too, with the routes' own D6 body (wallets poll included-block until their transaction is
// in, and through Koa each such miss cost several times a hit). Anything else — a malformed
// ID, a store that is not ready, a thrown error — is left to the Koa app, which answers it
// with the usual error body; the lookups here have no side effects, so doing one again
// there changes nothing.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errorBodyText } from '../../http/error';
import { cachedBlockJsonText, outputBodyJsonText } from '../../http/json-text';
import { publicRouteMatcher } from '../../http/route-auth';
import { isHealthy } from '../lib/node-health';
import { NodeInfo } from '../lib/node-info';
import { blockNotFound, outputNotFound, transactionNotIncluded } from '../lib/not-found';
import { binaryTypeOf } from '../middleware/media';
import type { ServerServices } from '../services';
import { EarlyAnswers, JSON_CONTENT_TYPE, requestPath } from './early-answers';

const BLOCK = /^\/api\/core\/v2\/blocks\/(0x[0-9a-fA-F]{64})(\/metadata)?$/;
const INCLUDED = /^\/api\/core\/v2\/transactions\/(0x[0-9a-fA-F]{64})\/included-block$/;
const OUTPUT = /^\/api\/core\/v2\/outputs\/(0x[0-9a-fA-F]{68})(\/metadata)?$/;

interface Answer {
  /** The route pattern, as the router names it in the metrics. */
  route: string;
  status: 200 | 404;
  type: string;
  body: string | Buffer;
}

const notFoundAnswer = (route: string, reason: string): Answer => ({
  route,
  status: 404,
  type: JSON_CONTENT_TYPE,
  body: errorBodyText(404, reason),
});

/** The bytes as they are when `Accept` asks for the binary type, else their JSON (as `sendJsonOrBinary` does). */
function jsonOrBinary(route: string, accept: string, bytes: Buffer, jsonText: () => string): Answer {
  const binary = binaryTypeOf(accept);
  return binary !== undefined
    ? { route, status: 200, type: binary, body: bytes }
    : { route, status: 200, type: JSON_CONTENT_TYPE, body: jsonText() };
}

/** Koa's request listener, with the hot reads answered first. */
export function withFastReads(koa: RequestListener, services: ServerServices): RequestListener {
  const { store } = services;
  const isPublic = publicRouteMatcher(services.config.restApi.publicRoutes);
  const info = new NodeInfo(store, services.config, services.protocol, services.version, services.gossip);
  const answers = new EarlyAnswers(services.metrics, services.logger);

  const block = (route: string, id: string, accept: string): Answer => {
    const bytes = store.getBlock(id);
    return bytes === null
      ? notFoundAnswer(route, blockNotFound(id))
      : jsonOrBinary(route, accept, bytes, () => cachedBlockJsonText(bytes));
  };

  const answer = (path: string, accept: string): Answer | undefined => {
    if (path === '/api/core/v2/info')
      return { route: path, status: 200, type: JSON_CONTENT_TYPE, body: info.jsonText() };
    // An unhealthy node refuses to choose tips (D50): Koa's route answers that 503.
    if (path === '/api/core/v2/tips')
      return isHealthy(store, services.config, services.gossip)
        ? { route: path, status: 200, type: JSON_CONTENT_TYPE, body: store.selectTipsJson() }
        : undefined;
    let m = BLOCK.exec(path);
    if (m !== null) {
      const id = m[1].toLowerCase();
      if (m[2] === undefined) return block('/api/core/v2/blocks/:blockId', id, accept);
      const route = '/api/core/v2/blocks/:blockId/metadata';
      const metadata = store.getBlockMetadata(id);
      return metadata === null
        ? notFoundAnswer(route, blockNotFound(id))
        : { route, status: 200, type: JSON_CONTENT_TYPE, body: metadata };
    }
    m = INCLUDED.exec(path);
    if (m !== null) {
      const route = '/api/core/v2/transactions/:transactionId/included-block';
      const id = m[1].toLowerCase();
      const blockId = store.getIncludedBlockId(id);
      return blockId === null
        ? notFoundAnswer(route, transactionNotIncluded(store, id))
        : block(route, blockId, accept);
    }
    m = OUTPUT.exec(path);
    if (m !== null) {
      const route = m[2] === undefined ? '/api/core/v2/outputs/:outputId' : '/api/core/v2/outputs/:outputId/metadata';
      const id = m[1].toLowerCase();
      const found = store.getOutput(id);
      if (found === null) return notFoundAnswer(route, outputNotFound(id));
      if (m[2] !== undefined) return { route, status: 200, type: JSON_CONTENT_TYPE, body: found.metadata };
      return jsonOrBinary(route, accept, found.output, () => outputBodyJsonText(found.output, found.metadata));
    }
    return undefined;
  };

  const fast = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const started = performance.now();
    const path = requestPath(req.url);
    if (!path.startsWith('/api/core/v2/') || !isPublic(path)) return false;
    let found: Answer | undefined;
    try {
      found = answer(path, req.headers.accept ?? '');
    } catch {
      return false; // Koa answers it again, with the error body
    }
    if (found === undefined) return false;
    res.statusCode = found.status;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Content-Type', found.type);
    res.setHeader('Content-Length', typeof found.body === 'string' ? Buffer.byteLength(found.body) : found.body.length);
    res.end(found.body);
    answers.record('GET', found.route, path, found.status, started);
    return true;
  };

  return (req, res) => {
    if (!fast(req, res)) koa(req, res);
  };
}
