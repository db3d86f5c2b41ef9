// A WebSocket upgrade to a route an extension registered (docs/inx.md "Routes of
// extensions"), forwarded as Hornet's proxy forwards it (echo's proxy hijacks the connection
// and pipes raw bytes, pkg/restapi/proxy.go): the request head goes to the extension with
// the same path rewriting as a plain request, its `Upgrade`/`Connection` kept; when the
// extension switches protocols, its 101 head goes back to the client and from then on bytes
// flow both ways untouched until either side closes. An extension that answers anything
// else is relayed as a plain answer; one that cannot be reached is 502 with the error body.
// It runs inside the Koa chain (server/upgrades.ts hands upgrade requests to the app), so
// auth has already passed the request by the same rules as every route.

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'koa';
import type { ProxyTarget } from '../../inx/service';
import { cameAsUpgrade } from '../upgrades';
import { forwardedHeaders, unreachable, upstreamRequest } from '../lib/extension-request';

/** A request that came through the server's `upgrade` event asking for a WebSocket. */
export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return cameAsUpgrade(req) && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

type Outcome =
  | { switched: true; res: IncomingMessage; socket: Socket; head: Buffer }
  | { switched: false; res: IncomingMessage };

/**
 * Forward the upgrade. Resolves with the extension's answer when it did not switch
 * protocols (for the caller to relay), or undefined once the connection is handed over to
 * the pipe; rejects with 502 when the extension is not there.
 */
export async function forwardUpgrade(ctx: Context, target: ProxyTarget): Promise<IncomingMessage | undefined> {
  const headers = forwardedHeaders(ctx.req.headers, ctx.ip);
  headers.connection = 'Upgrade';
  headers.upgrade = ctx.req.headers.upgrade ?? 'websocket';
  const outcome = await new Promise<Outcome>((resolve, reject) => {
    const req = upstreamRequest(ctx, target, headers);
    req.on('upgrade', (res, socket, head) => resolve({ switched: true, res, socket, head }));
    req.on('response', (res) => resolve({ switched: false, res }));
    req.on('error', reject);
    req.end();
  }).catch((err: Error) => {
    throw unreachable(target, err);
  });
  if (!outcome.switched) return outcome.res;
  const client = ctx.req.socket;
  // The connection is the pipe's from now on: Koa writes nothing, the request's response
  // lets go of the socket (so a shutdown cuts it as it cuts idle connections).
  ctx.status = 101;
  ctx.respond = false;
  ctx.res.detachSocket(client);
  pipeBothWays(client, outcome.res, outcome.socket, outcome.head);
  return undefined;
}

/** Send the extension's 101 head to the client, then pipe bytes both ways until one side ends. */
function pipeBothWays(client: Socket, res: IncomingMessage, upstream: Socket, head: Buffer): void {
  // The request's idle timeout was for the wait for an answer, not for the conversation.
  upstream.setTimeout(0);
  const closeBoth = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', closeBoth);
  upstream.on('error', closeBoth);
  client.once('close', closeBoth);
  upstream.once('close', closeBoth);
  if (client.destroyed) return closeBoth();
  const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
  for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  client.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length > 0) client.write(head);
  upstream.pipe(client);
  client.pipe(upstream);
}
