// Cheap event API subscribers for bench:events: a thousand of them run in one process on
// the same two cores as the node, so each costs what any client must pay and little more.
// A subscriber is a plain TCP connection: it sends the WebSocket handshake (subprotocol
// `mqtt`), then, once the server's answer is in, CONNECT and SUBSCRIBE in masked binary frames (packets written by
// mqtt-packet), and from then on walks what arrives without copying it: WebSocket frame
// headers, then the MQTT fixed headers inside the frames' payloads, counting PUBLISH
// packets. Every connection reads into one shared buffer (`onread`), so receiving
// allocates nothing per chunk.
//
// A few subscribers are probes: they also keep each `blocks` message with its time of
// receipt, for the latency (the block id is computed once the run is over, not while the
// node is measured).

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { generate } from 'mqtt-packet';

/** One buffer every connection of this process reads into (callbacks are synchronous). */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/** `payload` as a masked binary WebSocket frame from a client (RFC 6455 §5.2; payload < 64 KiB). */
function clientFrame(payload) {
  const mask = randomBytes(4);
  const long = payload.length >= 126;
  const header = Buffer.from(
    long ? [0x82, 0x80 | 126, payload.length >> 8, payload.length & 0xff] : [0x82, 0x80 | payload.length],
  );
  const masked = Buffer.allocUnsafe(payload.length);
  for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([header, mask, masked]);
}

const FRAME_HEADER = 0;
const FRAME_PAYLOAD = 1;
const PACKET_TYPE = 0;
const PACKET_LENGTH = 1;
const PACKET_BODY = 2;

export class Subscriber {
  publishes = 0;
  /** PUBLISH packets on `blocks` (the only 6-byte topic the benchmark subscribes to). */
  blocks = 0;
  subacks = 0;
  /** WebSocket frames and bytes received since the handshake. */
  frames = 0;
  bytes = 0;
  closed = false;
  /** Probes: [payload of a `blocks` message, time of receipt]. */
  receipts = [];
  // WebSocket framing: the header collected so far, then the payload bytes left.
  frameState = FRAME_HEADER;
  header = Buffer.alloc(14);
  headerHave = 0;
  frameLeft = 0;
  opcode = 0;
  // MQTT framing inside the payloads: fixed header, then the body bytes left.
  packetState = PACKET_TYPE;
  packetType = 0;
  packetLength = 0;
  lengthMultiplier = 1;
  packetLeft = 0;
  /** Of a PUBLISH: the bytes of its topic length read so far (2 in all), and the length. */
  topicLengthHave = 2;
  topicLength = 0;
  /** A probe's copy of the PUBLISH being received. */
  capture = null;
  captureAt = 0;

  /**
   * Connect to `url` (ws://host:port/path), CONNECT as `clientId`, SUBSCRIBE to `topics`;
   * resolves at the SUBACK. `now` gives the receipt times of a probe.
   */
  constructor(url, clientId, topics, { probe = false, now = () => performance.now() } = {}) {
    this.probe = probe;
    this.now = now;
    const { hostname, port, pathname } = new URL(url);
    const key = randomBytes(16).toString('base64');
    let handshake = '';
    let upgraded = false;
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.socket = connect({
        host: hostname,
        port: Number(port),
        noDelay: true,
        onread: {
          buffer: readBuffer,
          callback: (n, buffer) => {
            if (upgraded) {
              this.bytes += n;
              return this.push(buffer, 0, n);
            }
            // The handshake answer: status line and headers, then maybe frames already.
            handshake += buffer.toString('latin1', 0, n);
            const end = handshake.indexOf('\r\n\r\n');
            if (end < 0) return;
            if (!handshake.startsWith('HTTP/1.1 101'))
              return reject(new Error(`handshake refused: ${handshake.split('\r\n')[0]}`));
            upgraded = true;
            this.subscribe(clientId, topics);
            const rest = Buffer.from(handshake.slice(end + 4), 'latin1');
            this.bytes += rest.length;
            if (rest.length > 0) this.push(rest, 0, rest.length);
          },
        },
      });
      this.socket.on('connect', () => {
        this.socket.write(
          `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n`,
        );
      });
      this.socket.on('error', reject);
      this.socket.on('close', () => {
        this.closed = true;
        reject(new Error(`${clientId} closed`));
      });
    });
  }

  /**
   * CONNECT and SUBSCRIBE, once the handshake's answer is in: a client sends nothing more
   * before it (RFC 6455 §4.1), and gorilla/websocket, under inx-mqtt's broker, refuses a
   * handshake followed by data already sent.
   */
  subscribe(clientId, topics) {
    this.socket.write(
      clientFrame(
        generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive: 0 }),
      ),
    );
    this.socket.write(
      clientFrame(
        generate({ cmd: 'subscribe', messageId: 1, subscriptions: topics.map((topic) => ({ topic, qos: 0 })) }),
      ),
    );
  }

  /** Walk WebSocket frames in `buffer[start, end)`. */
  push(buffer, start, end) {
    let at = start;
    while (at < end) {
      if (this.frameState === FRAME_HEADER) {
        this.header[this.headerHave++] = buffer[at++];
        if (this.headerHave < 2) continue;
        const short = this.header[1] & 127;
        const needed = 2 + (short === 126 ? 2 : short === 127 ? 8 : 0);
        if (this.headerHave < needed) continue;
        this.frameLeft =
          short === 126 ? this.header.readUInt16BE(2) : short === 127 ? Number(this.header.readBigUInt64BE(2)) : short;
        this.opcode = this.header[0] & 15;
        this.headerHave = 0;
        this.frames++;
        if (this.frameLeft > 0) this.frameState = FRAME_PAYLOAD;
        continue;
      }
      const n = Math.min(end - at, this.frameLeft);
      // Binary frames and their continuations carry MQTT; a close frame ends the run.
      if (this.opcode === 2 || this.opcode === 0) this.packets(buffer, at, at + n);
      at += n;
      this.frameLeft -= n;
      if (this.frameLeft === 0) this.frameState = FRAME_HEADER;
    }
  }

  /** Walk MQTT packets in `buffer[start, end)`, counting PUBLISH and SUBACK. */
  packets(buffer, start, end) {
    let at = start;
    while (at < end) {
      if (this.packetState === PACKET_TYPE) {
        this.packetType = buffer[at++] >> 4;
        this.packetLength = 0;
        this.lengthMultiplier = 1;
        this.packetState = PACKET_LENGTH;
      } else if (this.packetState === PACKET_LENGTH) {
        const byte = buffer[at++];
        this.packetLength += (byte & 127) * this.lengthMultiplier;
        this.lengthMultiplier *= 128;
        if (byte & 128) continue;
        this.packetLeft = this.packetLength;
        if (this.packetType === 3) {
          this.publishes++;
          this.topicLengthHave = 0;
          this.topicLength = 0;
          if (this.probe) {
            this.capture = Buffer.allocUnsafe(this.packetLength);
            this.captureAt = this.now();
          }
        } else if (this.packetType === 9) {
          this.subacks++;
          this.resolveReady();
        }
        this.packetState = this.packetLeft > 0 ? PACKET_BODY : PACKET_TYPE;
        if (this.packetLeft === 0) this.captured();
      } else {
        // A PUBLISH body starts with its topic's length (two bytes, maybe across reads).
        for (; this.topicLengthHave < 2 && at < end && this.packetLeft > 0; this.topicLengthHave++) {
          const byte = buffer[at];
          if (this.capture !== null) this.capture[this.packetLength - this.packetLeft] = byte;
          this.topicLength = this.topicLength * 256 + byte;
          at++;
          this.packetLeft--;
          if (this.topicLengthHave === 1 && this.topicLength === 6) this.blocks++;
        }
        const n = Math.min(end - at, this.packetLeft);
        if (this.capture !== null) buffer.copy(this.capture, this.packetLength - this.packetLeft, at, at + n);
        at += n;
        this.packetLeft -= n;
        if (this.packetLeft === 0) {
          this.packetState = PACKET_TYPE;
          this.captured();
        }
      }
    }
  }

  /** A probe keeps a whole `blocks` PUBLISH (QoS 0: topic length, topic, payload). */
  captured() {
    const packet = this.capture;
    if (packet === null) return;
    this.capture = null;
    const topicLength = packet.readUInt16BE(0);
    if (topicLength === 6 && packet.toString('latin1', 2, 8) === 'blocks')
      this.receipts.push([packet.subarray(8), this.captureAt]);
  }

  close() {
    this.socket.destroy();
  }
}

/**
 * The reference of bench:events: the same bytes over loopback TCP with nothing else — one
 * process writes one shared chunk to every connection, flush after flush, the other reads
 * and counts. What that costs is the part of the event API's cost that no broker avoids
 * with its clients on the same machine.
 */
export const loopback = {
  /** Accept `clients` connections on 127.0.0.1; on `send(chunkBytes, perClient)` write that much to each. */
  async sender(clients, report) {
    const { createServer } = await import('node:net');
    const sockets = [];
    const server = createServer({ noDelay: true }, (socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    report({ port: server.address().port });
    return async (chunkBytes, perClient) => {
      while (sockets.length < clients) await new Promise((resolve) => setTimeout(resolve, 10));
      const chunk = Buffer.alloc(chunkBytes, 0x5a);
      for (let sent = 0; sent < perClient; sent += chunkBytes) {
        const n = Math.min(chunkBytes, perClient - sent);
        const frame = n === chunkBytes ? chunk : chunk.subarray(0, n);
        for (const socket of sockets) socket.write(frame);
        // The next flush once every connection's queue has drained (without spinning).
        await Promise.all(sockets.filter((socket) => socket.writableLength > 0).map((socket) => once(socket, 'drain')));
      }
    };
  },

  /** Open `clients` connections to `port`; then `finished` resolves once `perClient` bytes arrived on each. */
  async receivers(port, clients, perClient) {
    let done = 0;
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    const opened = [];
    for (let i = 0; i < clients; i++) {
      let received = 0;
      const socket = connect({
        host: '127.0.0.1',
        port,
        onread: {
          buffer: readBuffer,
          callback: (n) => {
            received += n;
            if (received === perClient && ++done === clients) finish();
          },
        },
      });
      opened.push(new Promise((resolve) => socket.once('connect', resolve)));
    }
    await Promise.all(opened);
    return { finished };
  },
};
