// The event API's door (events.md §1, §6, D33): the HTTP server's `upgrade` event.
// An upgrade to /api/mqtt/v1 passes the routes' own auth rule (middleware/auth.ts), the
// client limit, then `ws` completes the handshake (subprotocol `mqtt`) and a Session takes
// the connection. An upgrade request for any other path is answered by the Koa app as a
// plain request would be, and not upgraded. The store's event feed is published from here
// (publish.ts) and is only active while some client is connected.

import { STATUS_CODES, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { NodeConfig } from '../config/schema';
import { HttpError, unavailable } from '../server/lib/http-error';
import { routeAuthorizer } from '../server/middleware/auth';
import { EVENTS_PATH } from '../server/routes/mqtt';
import type { LedgerStoreApi } from '../store-contract';
import { Fanout } from './fanout';
import { dispatch } from './handlers';
import { EventPublisher } from './publish';
import { MAX_PACKET_BYTES, Session, type SessionContext } from './session';

/** A connection that has not sent CONNECT after this long is closed (§2). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How often keep-alive and CONNECT deadlines are checked. */
const SWEEP_MS = 500;
/** One WebSocket frame may carry several packets; each packet is held to MAX_PACKET_BYTES. */
const MAX_FRAME_BYTES = 8 * MAX_PACKET_BYTES;

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

/** The request's path without its query, as the routes compare it (case-insensitive, trailing `/` ignored). */
function isEventsPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0].toLowerCase();
  return path === EVENTS_PATH || path === `${EVENTS_PATH}/`;
}

export class EventServer {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<Session>();
  private readonly fanout = new Fanout<Session>();
  private readonly context: SessionContext;
  private readonly allowed: ReturnType<typeof routeAuthorizer>;
  private readonly sweep: NodeJS.Timeout;
  /** Upgrades accepted but not yet open (they count against maxClients). */
  private opening = 0;
  private stopped = false;

  constructor(private readonly options: EventServerOptions) {
    const { config, store, logger } = options;
    this.wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES, handleProtocols: chooseProtocol });
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

  /** Take the upgrade requests of `server`. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(server, req, socket, head));
  }

  private upgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (!isEventsPath(req.url)) return answerAsHttp(server, req, socket);
    const verdict = this.allowed((req.url ?? '/').split('?')[0], req.headers.authorization);
    if (verdict === true) return this.accept(req, socket, head);
    verdict.then(
      (ok) => (ok ? this.accept(req, socket, head) : refuse(socket, new HttpError(403))),
      () => refuse(socket, new HttpError(403)),
    );
  }

  private accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.stopped) return refuse(socket, unavailable('node is shutting down'));
    if (this.sessions.size + this.opening >= this.options.config.events.maxClients) return refuse(socket, unavailable('too many event API clients'));
    this.opening++;
    let opened = false;
    socket.once('close', () => {
      if (!opened) this.opening--;
    });
    // ws answers a malformed handshake (bad key, version, method) with 400 itself.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      this.opening--;
      this.open(ws, req);
    });
  }

  private open(ws: WebSocket, req: IncomingMessage): void {
    if (this.stopped) return ws.terminate();
    const session = new Session(ws, this.context, `${req.socket.remoteAddress}:${req.socket.remotePort}`);
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
function refuse(socket: Duplex, error: HttpError): void {
  if (socket.destroyed) return;
  const body = error.body();
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Hand an upgrade request for another path to the app as a plain request (not upgraded). */
function answerAsHttp(server: Server, req: IncomingMessage, socket: Duplex): void {
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
