// A minimal MQTT 3.1.1 client over WebSocket for the event API (events.md §1–§2): CONNECT,
// SUBSCRIBE and UNSUBSCRIBE, incoming PUBLISH at QoS 0, PINGREQ for keep-alive. It is all
// the dashboard needs from MQTT, and small enough to read in one sitting, so the page ships
// no third-party code and needs no bundler (docs/dashboard.md says why).
//
// Subscriptions are reference-counted per filter and re-sent after a reconnect; a message
// goes to every handler whose filter matches its topic (`+` one level, `#` the rest).

const CONNECT = 1;
const CONNACK = 2;
const PUBLISH = 3;
const SUBSCRIBE = 8;
const SUBACK = 9;
const UNSUBSCRIBE = 10;
const UNSUBACK = 11;
const PINGREQ = 12;
const PINGRESP = 13;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Fixed header: packet type and flags, then the remaining length as a base-128 varint. */
function packet(type, flags, body) {
  const length = [];
  let n = body.length;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    length.push(byte);
  } while (n > 0);
  const out = new Uint8Array(1 + length.length + body.length);
  out[0] = (type << 4) | flags;
  out.set(length, 1);
  out.set(body, 1 + length.length);
  return out;
}

function utf8String(text) {
  const bytes = encoder.encode(text);
  return [bytes.length >> 8, bytes.length & 0xff, ...bytes];
}

/** Does an MQTT topic filter match a topic name? */
export function topicMatches(filter, topic) {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

export class MqttClient {
  /**
   * @param url ws(s)://host/api/mqtt/v1
   * @param options.keepAlive seconds (default 30); options.WebSocket for non-browser hosts;
   *   options.onState(state) with 'connecting' | 'connected' | 'disconnected'
   */
  constructor(url, options = {}) {
    this.url = url;
    this.keepAlive = options.keepAlive ?? 30;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.onState = options.onState ?? (() => {});
    this.handlers = new Map(); // filter → Set of handlers
    this.nextPacketId = 1;
    this.pending = new Uint8Array(0);
    this.retryMs = 1000;
    this.closed = false;
    this.state = 'disconnected';
    this.open();
  }

  /** Call `handler(topic, payloadBytes)` for each message matching `filter`; returns an unsubscribe function. */
  subscribe(filter, handler) {
    let set = this.handlers.get(filter);
    if (set === undefined) {
      this.handlers.set(filter, (set = new Set()));
      if (this.state === 'connected') this.sendSubscribe([filter]);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(filter) === set) {
        this.handlers.delete(filter);
        if (this.state === 'connected') this.send(packet(UNSUBSCRIBE, 2, [...this.packetId(), ...utf8String(filter)]));
      }
    };
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    clearTimeout(this.retry);
    this.ws?.close();
    this.setState('disconnected');
  }

  // ----- connection --------------------------------------------------------------------

  open() {
    this.setState('connecting');
    const ws = new this.WebSocket(this.url, ['mqtt']);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.pending = new Uint8Array(0);
    ws.onopen = () => {
      const clientId = 'dashboard-' + Math.random().toString(16).slice(2, 10);
      // Protocol name "MQTT", level 4, clean session, keep-alive, client ID.
      const body = [
        ...utf8String('MQTT'),
        4,
        0x02,
        this.keepAlive >> 8,
        this.keepAlive & 0xff,
        ...utf8String(clientId),
      ];
      this.send(packet(CONNECT, 0, body));
    };
    ws.onmessage = (event) => this.receive(new Uint8Array(event.data));
    ws.onclose = () => this.lost(ws);
    ws.onerror = () => {}; // a close event follows
  }

  lost(ws) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    this.setState('disconnected');
    if (this.closed) return;
    this.retry = setTimeout(() => this.open(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }

  send(bytes) {
    if (this.ws?.readyState === 1) this.ws.send(bytes);
  }

  packetId() {
    const id = this.nextPacketId;
    this.nextPacketId = id === 0xffff ? 1 : id + 1;
    return [id >> 8, id & 0xff];
  }

  sendSubscribe(filters) {
    const body = [...this.packetId()];
    for (const f of filters) body.push(...utf8String(f), 0); // QoS 0
    this.send(packet(SUBSCRIBE, 2, body));
  }

  // ----- incoming ----------------------------------------------------------------------

  /** Packets may span WebSocket frames and frames may carry several packets (events.md §1). */
  receive(chunk) {
    let buffer = chunk;
    if (this.pending.length > 0) {
      buffer = new Uint8Array(this.pending.length + chunk.length);
      buffer.set(this.pending);
      buffer.set(chunk, this.pending.length);
    }
    let at = 0;
    while (at < buffer.length) {
      let length = 0;
      let multiplier = 1;
      let i = at + 1;
      let complete = false;
      while (i < buffer.length && i < at + 5) {
        const byte = buffer[i++];
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || i + length > buffer.length) break;
      this.handle(buffer[at], buffer.subarray(i, i + length));
      at = i + length;
    }
    this.pending = buffer.slice(at);
  }

  handle(first, body) {
    switch (first >> 4) {
      case CONNACK:
        if (body[1] !== 0) {
          this.ws.close();
          return;
        }
        this.retryMs = 1000;
        this.setState('connected');
        if (this.handlers.size > 0) this.sendSubscribe([...this.handlers.keys()]);
        clearInterval(this.pinger);
        if (this.keepAlive > 0)
          this.pinger = setInterval(() => this.send(packet(PINGREQ, 0, [])), (this.keepAlive * 1000) / 2);
        return;
      case PUBLISH: {
        const topicLength = (body[0] << 8) | body[1];
        const topic = decoder.decode(body.subarray(2, 2 + topicLength));
        const qos = (first >> 1) & 3;
        const payload = body.subarray(2 + topicLength + (qos > 0 ? 2 : 0));
        for (const [filter, handlers] of this.handlers) {
          if (!topicMatches(filter, topic)) continue;
          for (const handler of handlers) {
            try {
              handler(topic, payload);
            } catch (err) {
              console.error(`handler for ${filter} failed:`, err);
            }
          }
        }
        return;
      }
      case SUBACK:
      case UNSUBACK:
      case PINGRESP:
        return;
      default:
        // Nothing else is sent to a client; a broken stream is best restarted.
        this.ws.close();
    }
  }
}
