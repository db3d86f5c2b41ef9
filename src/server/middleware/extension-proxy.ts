// Routes INX extensions registered (RegisterAPIRoute, crates/ledger-inx/src/api_routes.rs):
// `/api/<route>` and everything below it go to the extension's host:port, as Hornet's
// proxy (pkg/restapi/proxy.go) forwards them: the part after `/api/<route>` is put behind
// the registered path, the query string kept. It runs after auth, so the same public-route
// and JWT rules apply as to every other route. An extension that does not answer is 502;
// WebSocket upgrades are not forwarded.

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Context, Next } from 'koa';
import { HttpError } from '../../http/error';
import type { InxRoutes, ProxyTarget } from '../../inx/service';

/** Hop-by-hop headers (RFC 9110 §7.6.1): never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** How long the extension may take to answer, headers included. */
const UPSTREAM_TIMEOUT_MS = 60_000;

/** The path on the extension's side: the registered path, then what follows `/api/<route>`, then the query. */
export function upstreamPath(target: ProxyTarget, path: string, querystring: string): string {
  const rest = path.slice(`/api/${target.route}`.length);
  const joined = `${target.path}${rest}` || '/';
  return querystring === '' ? joined : `${joined}?${querystring}`;
}

function forwardedHeaders(headers: IncomingHttpHeaders, ip: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  out['x-real-ip'] = ip;
  out['x-forwarded-proto'] = 'http';
  return out;
}

export function extensionProxy(inx: InxRoutes | undefined) {
  return async function proxy(ctx: Context, next: Next): Promise<void> {
    const target = inx?.proxyTarget(ctx.path);
    if (target === undefined) return next();
    const upstream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        {
          host: target.host,
          port: target.port,
          method: ctx.method,
          path: upstreamPath(target, ctx.path, ctx.querystring),
          headers: forwardedHeaders(ctx.req.headers, ctx.ip),
          timeout: UPSTREAM_TIMEOUT_MS,
        },
        resolve,
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      ctx.req.pipe(req);
    }).catch((err: Error) => {
      throw new HttpError(
        502,
        `remote ${target.host}:${target.port} of route ${target.route} unreachable, could not forward: ${err.message}`,
      );
    });
    ctx.status = upstream.statusCode ?? 502;
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') ctx.set(name, value);
    }
    const length = upstream.headers['content-length'];
    ctx.body = upstream;
    if (length !== undefined) ctx.length = Number(length);
  };
}
