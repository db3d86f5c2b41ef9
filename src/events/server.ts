// The event API's broker (events.md §1, §6, D33), on its own thread (thread.ts): every
// HTTP event loop hands it the upgrade requests for /api/mqtt/v1 (handoff.ts) with a
// descriptor of the connection. Each passes the routes' own auth rule (http/route-auth.ts)
// and the client limit, then `ws` completes the handshake (subprotocol `mqtt`) and a
// Session takes the connection. The store's event feed is published from here
// (publish.ts) and is only active while some client is connected.

import { closeSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { NodeConfig } from '../config/schema';
import { HttpError, unavailable } from '../http/error';
import { routeAuthorizer } from '../http/route-auth';
import type { LedgerStoreApi } from '../store-contract';
import { Fanout } from './fanout';
import { dispatch } from './handlers';
import type { Handoff } from './handoff';
import { EventPublisher } from './publish';
import { binaryFrame, MAX_PACKET_BYTES, Session, type SessionContext } from './session';

/** A connection that has not sent CONNECT after this long is closed (§2). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How often keep-alive and CONNECT deadlines are checked. */
const SWEEP_MS = 500;
/** One WebSocket frame may carry several packets; each packet is held to MAX_PACKET_BYTES. */
const MAX_FRAME_BYTES = 8 * MAX_PACKET_BYTES;
/**
 * On its own thread, delivery may take a larger share of the loop than the main thread's
 * 10 %: the next flush waits as long as the last one took, at least 20 ms (so each client
 * gets about 50 writes a second at most, each carrying all that time gathered) and at most
 * 40 ms (a message waits at most that plus a flush). With many clients, the writes are
 * what costs (bench:inx, 1,000 clients: about 10 µs of the thread each, bytes aside), so
 * the wait also keeps them under FLUSH_WRITES_PER_SECOND: up to 500 clients nothing
 * changes, from 1,000 on each flush waits the full 40 ms.
 */
const FLUSH_PAUSE_FACTOR = 1;
const MIN_FLUSH_WAIT_MS = 20;
const MAX_FLUSH_WAIT_MS = 40;
const FLUSH_WRITES_PER_SECOND = 25_000;

export interface EventServerOptions {
  config: NodeConfig;
  store: LedgerStoreApi;
  logger: Logger;
  jwtSecret: string;
}

/** `mqtt` when offered, else `mqttv3.1`, else none (never one the client did not offer). */
function chooseProtocol(offered: Set<string>): string | false {
  if (offered.has('mqtt')) return 'mqtt';
  if (offered.has('mqttv3.1')) return 'mqttv3.1';
  return false;
}

export class EventServer {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<Session>();
  private readonly fanout = new Fanout<Session>({
    frame: binaryFrame,
    pauseFactor: FLUSH_PAUSE_FACTOR,
    minWaitMs: MIN_FLUSH_WAIT_MS,
    maxWaitMs: MAX_FLUSH_WAIT_MS,
    writesPerSecond: FLUSH_WRITES_PER_SECOND,
  });
  private readonly context: SessionContext;
  private readonly allowed: ReturnType<typeof routeAuthorizer>;
  private readonly sweep: NodeJS.Timeout;
  /** Upgrades accepted but not yet open (they count against maxClients). */
  private opening = 0;
  private stopped = false;

  constructor(private readonly options: EventServerOptions) {
    const { config, store, logger } = options;
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: MAX_FRAME_BYTES,
      handleProtocols: chooseProtocol,
    });
    this.allowed = routeAuthorizer(config.restApi.publicRoutes, options.jwtSecret);
    this.context = {
      fanout: this.fanout,
      store,
      logger,
      maxSubscriptionsPerClient: config.events.maxSubscriptionsPerClient,
      maxClientBufferBytes: config.events.maxClientBufferBytes,
      clients: new Map(),
      dispatch,
      ended: (session) => this.ended(session),
    };
    const publisher = new EventPublisher(this.fanout, store, logger);
    store.onEvents((event) => publisher.handle(event));
    this.sweep = setInterval(() => this.checkDeadlines(), SWEEP_MS).unref();
  }

  /** Take an upgrade request handed over by an HTTP event loop (handoff.ts). */
  take(handoff: Handoff): void {
    let socket: Socket;
    try {
      socket = new Socket({ fd: handoff.fd, readable: true, writable: true });
    } catch (err) {
      this.options.logger.debug({ err, remote: handoff.remote }, 'event API connection lost in the handoff');
      try {
        closeSync(handoff.fd);
      } catch {
        // already closed
      }
      return;
    }
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    // What `ws` and the auth rule read of the request.
    const req = { method: handoff.method, url: handoff.url, headers: handoff.headers } as IncomingMessage;
    const head = Buffer.from(handoff.head.buffer, handoff.head.byteOffset, handoff.head.byteLength);
    const verdict = this.allowed(handoff.url.split('?')[0], req.headers.authorization);
    if (verdict === true) return this.accept(req, socket, head, handoff.remote);
    verdict.then(
      (ok) => (ok ? this.accept(req, socket, head, handoff.remote) : refuse(socket, new HttpError(403))),
      () => refuse(socket, new HttpError(403)),
    );
  }

  private accept(req: IncomingMessage, socket: Socket, head: Buffer, remote: string): void {
    if (this.stopped) return refuse(socket, unavailable('node is shutting down'));
    if (this.sessions.size + this.opening >= this.options.config.events.maxClients)
      return refuse(socket, unavailable('too many event API clients'));
    this.opening++;
    let opened = false;
    socket.once('close', () => {
      if (!opened) this.opening--;
    });
    // ws answers a malformed handshake (bad key, version, method) with 400 itself.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      this.opening--;
      this.open(ws, socket, remote);
    });
  }

  private open(ws: WebSocket, socket: Socket, remote: string): void {
    if (this.stopped) return ws.terminate();
    const session = new Session(ws, socket, this.context, remote);
    this.sessions.add(session);
    if (this.sessions.size === 1) this.options.store.setEventsActive(true);
  }

  private ended(session: Session): void {
    if (!this.sessions.delete(session)) return;
    if (this.sessions.size === 0) this.options.store.setEventsActive(false);
  }

  private checkDeadlines(): void {
    const now = Date.now();
    for (const s of this.sessions) {
      if (!s.connected && now - s.openedAt > CONNECT_TIMEOUT_MS) s.terminate('no CONNECT within 10 s');
      else if (s.keepaliveMs > 0 && now - s.lastPacketAt > s.keepaliveMs) s.terminate('keep-alive expired');
    }
  }

  /** Close every connection and stop publishing (the node is shutting down). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.sweep);
    this.fanout.stop();
    for (const s of [...this.sessions]) s.terminate('node shutting down');
    this.options.store.setEventsActive(false);
  }
}

/** Answer on a raw socket with the error body (D6) and close it. */
function refuse(socket: Socket, error: HttpError): void {
  if (socket.destroyed) return;
  const body = error.body();
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
