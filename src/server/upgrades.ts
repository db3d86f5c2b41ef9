// Where the upgrade requests that reach an HTTP event loop go (events.md §1, docs/inx.md
// "Routes of extensions"); every thread's server (src/node.ts, http-worker.ts) has this one
// `upgrade` listener:
//   /api/mqtt/v1 while the event API runs → its thread (events/handoff.ts);
//   anything else → the thread's app, as a plain request: auth and the routes answer it as
//   they answer any request, and an upgrade to a route an extension registered is forwarded
//   to the extension there (middleware/extension-upgrade.ts), after the same auth rules.

import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isEventsPath, type EventsUpgrade } from '../events/handoff';

/** Requests that came as upgrade requests and are answered by the app: their socket is theirs to take. */
const upgrading = new WeakSet<IncomingMessage>();

/** Whether `req` came through the `upgrade` event (its connection left HTTP's parser). */
export function cameAsUpgrade(req: IncomingMessage): boolean {
  return upgrading.has(req);
}

/** Sort `server`'s upgrade requests: the event API's to `events` (when it runs), the rest to the app. */
export function routeUpgrades(server: Server, events: EventsUpgrade | undefined): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (events !== undefined && isEventsPath(req.url)) return events(req, socket, head);
    answerThroughApp(server, req, socket, head);
  });
}

/**
 * Hand an upgrade request to the app as a plain request. Its response owns the socket until
 * it finishes, then the connection closes; a handler that takes the connection over (an
 * extension's upgrade) detaches the response first. Bytes the client sent past the request
 * head go back into the socket, where such a handler reads them first.
 */
function answerThroughApp(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (head.length > 0) socket.unshift(head);
  upgrading.add(req);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  // The parser let go of the connection at the upgrade: no body will arrive.
  if (!req.complete) req.push(null);
  server.emit('request', req, res);
}
