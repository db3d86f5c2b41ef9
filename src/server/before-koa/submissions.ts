// POST /api/core/v2/blocks answered before Koa (docs/performance.md), for the submissions
// that go all the way: a public route, a declared body within the limit, a block whose nonce
// is set or needs no mining, stored. Those run the same pipeline as the route
// (pipeline/submit.ts: JSON shape, parents, encode, the store) and get what Koa would
// answer: 201, Location, the JSON body, CORS's allow-origin header, the request counters
// and timers under the route's pattern, and the request log line.
// Everything else goes to the Koa app with the body already read (middleware/body.ts keeps
// it): an error, a block to mine (its job watches the client through Koa's context), a
// chunked or oversize body, a protected route. Koa then runs the pipeline again from the
// start and answers as always; nothing before the store's write has a side effect, and a
// store that refused a block refuses it again.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { HttpError } from '../../http/error';
import { publicRouteMatcher } from '../../http/route-auth';
import { collectBody, keepReadBody } from '../middleware/body';
import { bodyKindOf } from '../middleware/media';
import { BlockSubmitter } from '../pipeline/submit';
import type { ServerServices } from '../services';
import { EarlyAnswers, JSON_CONTENT_TYPE, requestPath } from './early-answers';

const ROUTE = '/api/core/v2/blocks';

/** `next` (Koa's listener, or one in front of it) with block submissions answered first. */
export function withFastSubmit(next: RequestListener, services: ServerServices): RequestListener {
  const limit = services.config.restApi.maxBodyBytes;
  const routeIsPublic = publicRouteMatcher(services.config.restApi.publicRoutes)(ROUTE);
  const submitter = new BlockSubmitter(services);
  const answers = new EarlyAnswers(services.metrics, services.logger);

  const answer = (res: ServerResponse, path: string, blockId: string, started: number) => {
    const body = `{"blockId":"${blockId}"}`;
    res.statusCode = 201;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Location', blockId);
    res.setHeader('Content-Type', JSON_CONTENT_TYPE);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
    answers.record('POST', ROUTE, path, 201, started);
  };

  /** Past the body: Koa answers what is not a stored block, from the body read here. */
  const submit = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    kind: 'json' | 'binary',
    body: Buffer,
    started: number,
  ) => {
    let blockId: string | undefined;
    try {
      const { bytes, nonceMissing } = submitter.prepare(kind, body);
      if (!nonceMissing || !submitter.needsMining(bytes)) blockId = await submitter.store(bytes);
    } catch {
      // Koa answers it, with its error body.
    }
    if (blockId === undefined) {
      keepReadBody(req, body);
      next(req, res);
      return;
    }
    answer(res, path, blockId, started);
  };

  const fast = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' || !routeIsPublic) return false;
    const path = requestPath(req.url);
    if (path !== ROUTE) return false;
    const kind = bodyKindOf(req.headers['content-type'] ?? '');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (kind === undefined || !(declared >= 0 && declared <= limit)) return false;
    const started = performance.now();
    // The HTTP parser holds the body to its declared length, which is within the limit.
    collectBody(req, limit).then(
      (body) => submit(req, res, path, kind, body, started),
      (err: HttpError) => {
        keepReadBody(req, err);
        next(req, res);
      },
    );
    return true;
  };

  return (req, res) => {
    if (!fast(req, res)) next(req, res);
  };
}
