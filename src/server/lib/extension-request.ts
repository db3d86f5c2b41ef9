// The request an extension receives for a route it registered (docs/inx.md "Routes of
// extensions"), shared by the plain proxy (middleware/extension-proxy.ts) and the WebSocket
// upgrade (middleware/extension-upgrade.ts): the path as Hornet's proxy (pkg/restapi/proxy.go)
// rewrites it, the headers that go end to end, and the 502 of an extension that is not there.

import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import { HttpError } from '../../http/error';
import type { ProxyTarget } from '../../inx/service';

/** Hop-by-hop headers (RFC 9110 §7.6.1): never forwarded as they came, either way. */
export const HOP_BY_HOP = new Set([
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
export const UPSTREAM_TIMEOUT_MS = 60_000;

/** The path on the extension's side: the registered path, then what follows `/api/<route>`, then the query. */
export function upstreamPath(target: ProxyTarget, path: string, querystring: string): string {
  const rest = path.slice(`/api/${target.route}`.length);
  const joined = `${target.path}${rest}` || '/';
  return querystring === '' ? joined : `${joined}?${querystring}`;
}

/** The client's end-to-end headers, and who the client is. */
export function forwardedHeaders(headers: IncomingHttpHeaders, ip: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  out['x-real-ip'] = ip;
  out['x-forwarded-proto'] = 'http';
  return out;
}

/** The request to the extension for `ctx`, with `headers`; it fails with 'timed out' when no answer comes in time. */
export function upstreamRequest(
  ctx: Context,
  target: ProxyTarget,
  headers: Record<string, string | string[]>,
): ClientRequest {
  const req = httpRequest({
    host: target.host,
    port: target.port,
    method: ctx.method,
    path: upstreamPath(target, ctx.path, ctx.querystring),
    headers,
    timeout: UPSTREAM_TIMEOUT_MS,
  });
  req.on('timeout', () => req.destroy(new Error('timed out')));
  return req;
}

/** 502 for an extension that cannot be reached or broke off before answering. */
export function unreachable(target: ProxyTarget, err: Error): HttpError {
  return new HttpError(
    502,
    `remote ${target.host}:${target.port} of route ${target.route} unreachable, could not forward: ${err.message}`,
  );
}
