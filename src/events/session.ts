// One client connection of the event API (events.md §2): its WebSocket, its MQTT parser
// (mqtt-packet), what it has subscribed, and the rules that close it — a text frame, a
// malformed or oversized packet, more than maxClientBufferBytes waiting to be written.
// Nothing survives the connection (clean session forced, D34).

import { generate, parser, type Packet } from 'mqtt-packet';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { LedgerStoreApi } from '../store-contract';
import type { Fanout, Receiver } from './fanout';

/** A packet from a client larger than this closes the connection (§2). */
export const MAX_PACKET_BYTES = 128 * 1024;

/** What every session shares: the broker's state and limits. */
export interface SessionContext {
  fanout: Fanout<Session>;
  store: LedgerStoreApi;
  logger: Logger;
  maxSubscriptionsPerClient: number;
  maxClientBufferBytes: number;
  /** Connected sessions by client ID (a new CONNECT with a known ID takes over). */
  clients: Map<string, Session>;
  /** Routes a packet of a session (handlers/index.ts). */
  dispatch(session: Session, packet: Packet): void;
  /** The session is gone. */
  ended(session: Session): void;
}

/** WebSocket close codes (RFC 6455 §7.4.1). */
const NORMAL = 1000;
const PROTOCOL_ERROR = 1002;
const UNSUPPORTED_DATA = 1003;

export class Session implements Receiver {
  /** Set by CONNECT. */
  clientId: string | undefined;
  connected = false;
  /** 1.5 × the CONNECT keep-alive, 0 for none. */
  keepaliveMs = 0;
  readonly openedAt = Date.now();
  lastPacketAt = Date.now();
  readonly filters = new Set<string>();
  private closed = false;
  private readonly parser = parser({ protocolVersion: 4 });

  constructor(
    private readonly ws: WebSocket,
    readonly context: SessionContext,
    readonly remote: string,
  ) {
    this.parser.on('packet', (packet) => this.onPacket(packet));
    this.parser.on('error', (err: Error) => this.onMalformed(err));
    ws.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    ws.on('close', () => this.end());
    // An error is followed by 'close'.
    ws.on('error', (err) => this.context.logger.debug({ err, remote }, 'event API socket error'));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) return this.close('text frame (MQTT travels in binary frames)', UNSUPPORTED_DATA);
    const buffered = this.parser.parse(data);
    if (buffered > MAX_PACKET_BYTES + 5) this.close(`packet larger than ${MAX_PACKET_BYTES} bytes`);
  }

  private onPacket(packet: Packet): void {
    if (this.closed) return;
    this.lastPacketAt = Date.now();
    if ((packet.length ?? 0) > MAX_PACKET_BYTES) return this.close(`packet larger than ${MAX_PACKET_BYTES} bytes`);
    this.context.dispatch(this, packet);
  }

  private onMalformed(err: Error): void {
    if (this.closed) return;
    // mqtt-packet refuses other protocol names and levels while parsing CONNECT: that is
    // CONNACK 1, unacceptable protocol version (MQTT 3.1.1 §3.1.2.2), then the close.
    if (!this.connected && /^Invalid protocol(Id| version)/.test(err.message)) {
      this.send({ cmd: 'connack', returnCode: 1, sessionPresent: false });
      return this.close(`CONNECT refused: ${err.message}`);
    }
    this.close(`malformed packet: ${err.message}`);
  }

  /** Write one packet. */
  send(packet: Packet): void {
    this.write(generate(packet));
  }

  /** Queue bytes; a client that lets more than maxClientBufferBytes wait is dropped (§2, §6). */
  write(bytes: Buffer): void {
    if (this.closed) return;
    this.ws.send(bytes, { binary: true, compress: false });
    if (this.ws.bufferedAmount > this.context.maxClientBufferBytes) {
      this.context.logger.info({ remote: this.remote, clientId: this.clientId, buffered: this.ws.bufferedAmount }, 'event API client too slow: disconnected');
      this.end();
      this.ws.terminate();
    }
  }

  /** Close after a protocol violation or on the client's request. */
  close(reason: string, code = PROTOCOL_ERROR): void {
    if (this.closed) return;
    this.context.logger.debug({ remote: this.remote, clientId: this.clientId, reason }, 'event API connection closed');
    this.end();
    this.ws.close(code, reason.slice(0, 120));
  }

  /** Closed normally (DISCONNECT, take-over, shutdown). */
  closeNormally(reason: string): void {
    this.close(reason, NORMAL);
  }

  /** Drop the connection at once (keep-alive expired, node stopping). */
  terminate(reason: string): void {
    if (!this.closed) this.context.logger.debug({ remote: this.remote, clientId: this.clientId, reason }, 'event API connection dropped');
    this.end();
    this.ws.terminate();
  }

  /** Forget the session: subscriptions and, if this connection still holds it, its client ID. */
  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.context.fanout.remove(this);
    if (this.clientId !== undefined && this.context.clients.get(this.clientId) === this) this.context.clients.delete(this.clientId);
    this.context.ended(this);
  }
}
