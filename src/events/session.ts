// One client connection of the event API (events.md §2): its WebSocket, its MQTT parser
// (mqtt-packet), what it has subscribed, and the rules that close it — a text frame, a
// malformed or oversized packet, more than maxClientBufferBytes waiting to be written.
// Nothing survives the connection (clean session forced, D34).
//
// Its own packets (CONNACK, SUBACK, …) go through `ws`; the fanout's frames, built once
// for every client of a group (fanout.ts, `binaryFrame`), are written to the socket as
// they are. `ws` writes synchronously without compression, so both keep their order.

import type { Socket } from 'node:net';
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

/**
 * `packets` as one binary WebSocket frame from the server (RFC 6455 §5.2): FIN and opcode 2,
 * unmasked, then the payload length in 7, 7+16 or 7+64 bits. `ws` builds the same header
 * for each send; the fanout builds it once for all the clients of a group.
 */
export function binaryFrame(packets: Buffer): Buffer {
  const n = packets.length;
  const headerBytes = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerBytes + n);
  frame[0] = 0x82;
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  packets.copy(frame, headerBytes);
  return frame;
}

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
    /** The connection under `ws`, for the fanout's prebuilt frames. */
    private readonly socket: Socket,
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
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(generate(packet), { binary: true, compress: false });
    this.checkBuffered();
  }

  /** Queue a WebSocket frame of the fanout (`binaryFrame`), shared with other sessions. */
  write(frame: Buffer): void {
    // Nothing may follow a close frame: once `ws` is closing, the frame is dropped.
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.socket.write(frame);
    this.checkBuffered();
  }

  /** A client that lets more than maxClientBufferBytes wait is dropped (§2, §6). */
  private checkBuffered(): void {
    const buffered = this.ws.bufferedAmount;
    if (buffered <= this.context.maxClientBufferBytes) return;
    this.context.logger.info(
      { remote: this.remote, clientId: this.clientId, buffered },
      'event API client too slow: disconnected',
    );
    this.end();
    this.ws.terminate();
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
    if (!this.closed)
      this.context.logger.debug(
        { remote: this.remote, clientId: this.clientId, reason },
        'event API connection dropped',
      );
    this.end();
    this.ws.terminate();
  }

  /** Forget the session: subscriptions and, if this connection still holds it, its client ID. */
  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.context.fanout.remove(this);
    if (this.clientId !== undefined && this.context.clients.get(this.clientId) === this)
      this.context.clients.delete(this.clientId);
    this.context.ended(this);
  }
}
