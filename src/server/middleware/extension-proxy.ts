// Routes INX extensions registered (RegisterAPIRoute, crates/ledger-inx/src/api_routes.rs):
// `/api/<route>` and everything below it go to the extension's host:port, as Hornet's
// proxy (pkg/restapi/proxy.go) forwards them: the part after `/api/<route>` is put behind
// the registered path, the query string kept (lib/extension-request.ts). It runs after
// auth, so the same public-route and JWT rules apply as to every other route. A body over
// `restApi.maxBodyBytes` is 413 and not forwarded (extension-body.ts); a WebSocket upgrade
// is forwarded and then piped (extension-upgrade.ts). An extension that does not answer is 502.

import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import type { InxRoutes, ProxyTarget } from '../../inx/service';
import { forwardedHeaders, HOP_BY_HOP, unreachable, upstreamRequest } from '../lib/extension-request';
import { extensionBody } from './extension-body';
import { forwardUpgrade, isWebSocketUpgrade } from './extension-upgrade';

export function extensionProxy(inx: InxRoutes | undefined, maxBodyBytes: number) {
  return async function proxy(ctx: Context, next: Next): Promise<void> {
    const target = inx?.proxyTarget(ctx.path);
    if (target === undefined) return next();
    if (isWebSocketUpgrade(ctx.req)) {
      const answer = await forwardUpgrade(ctx, target);
      if (answer !== undefined) relay(ctx, answer);
      return;
    }
    const body = await extensionBody(ctx, maxBodyBytes);
    relay(ctx, await forward(ctx, target, body));
  };
}

/** Send the request with its whole body; resolves with the extension's answer, or rejects with 502. */
function forward(ctx: Context, target: ProxyTarget, body: Buffer): Promise<IncomingMessage> {
  const headers = forwardedHeaders(ctx.req.headers, ctx.ip);
  // The body was read whole: it goes with its length, however it came.
  delete headers['content-length'];
  if (body.length > 0 || ctx.req.headers['content-length'] !== undefined || ctx.req.headers['transfer-encoding'])
    headers['content-length'] = String(body.length);
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = upstreamRequest(ctx, target, headers);
    req.once('response', resolve);
    req.on('error', reject);
    req.end(body);
  }).catch((err: Error) => {
    throw unreachable(target, err);
  });
}

/** The extension's answer as the client's: status, end-to-end headers, the body streamed. */
function relay(ctx: Context, upstream: IncomingMessage): void {
  ctx.status = upstream.statusCode ?? 502;
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') ctx.set(name, value);
  }
  const length = upstream.headers['content-length'];
  ctx.body = upstream;
  if (length !== undefined) ctx.length = Number(length);
}
