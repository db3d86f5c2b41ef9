// The event API's door on every HTTP event loop (events.md §1, D33): the upgrade requests
// for /api/mqtt/v1 that each thread's HTTP server receives (server/upgrades.ts sorts them
// out) are handed to the event API's own thread (events/thread.ts), which owns every
// WebSocket, so that writing to a thousand subscribers never holds up the loops that take
// blocks in. Node cannot move a socket between threads: the connection's descriptor is
// duplicated (native binding), the copy travels with the request head, and this thread lets
// go of its socket without ending the connection.

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import native from '../native';
import { unavailable as serviceUnavailable } from '../http/error';
import { EVENTS_PATH } from '../http/paths';

/** An upgrade request handed to the event API's thread. */
export interface Handoff {
  type: 'upgrade';
  /** A descriptor of the connection, owned by the receiver from now on. */
  fd: number;
  method: string;
  url: string;
  /** Header names in lower case, as IncomingMessage gives them. */
  headers: IncomingMessage['headers'];
  /** Bytes the HTTP parser read past the request head. */
  head: Uint8Array;
  remote: string;
}

/** Where handoffs go: the event thread's Worker (from the main thread) or a port to it. */
export interface HandoffTarget {
  postMessage(message: Handoff): void;
}

/** The request's path without its query, as the routes compare it (case-insensitive, trailing `/` ignored). */
export function isEventsPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0].toLowerCase();
  return path === EVENTS_PATH || path === `${EVENTS_PATH}/`;
}

/** Takes one upgrade request for the event API off an HTTP thread. */
export type EventsUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Hand upgrade requests to `target`, or answer 503 when no thread will take them. */
export function eventsHandoff(target: HandoffTarget | MessagePort): EventsUpgrade {
  // A port closes when the event API's thread ends (shutdown, or a failure it logged).
  let open = true;
  if ('once' in target) target.once('close', () => (open = false));
  return (req, socket, head) => {
    const fd = (socket as Socket & { _handle?: { fd?: number } })._handle?.fd;
    let copy: number;
    try {
      if (!open) throw new Error('the event API thread has ended');
      if (fd === undefined || fd < 0) throw new Error('the connection has no descriptor');
      copy = native.duplicateSocket(fd);
    } catch {
      // No thread to take it, or not a plain TCP connection of this process.
      unavailable(socket);
      return;
    }
    const message: Handoff = {
      type: 'upgrade',
      fd: copy,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      head: new Uint8Array(head),
      remote: `${req.socket.remoteAddress}:${req.socket.remotePort}`,
    };
    // The copy keeps the connection open: closing this one sends nothing to the client.
    socket.destroy();
    target.postMessage(message);
  };
}

/** 503 with the error body of every other refusal (D6), and the connection closed. */
function unavailable(socket: Duplex): void {
  const body = serviceUnavailable('the event API is not running').body();
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
