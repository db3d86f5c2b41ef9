// MQTT clients for the event API tests: a real client library (mqtt.js, as wallets and
// explorers use it) that records every message, and a raw WebSocket client that sends
// chosen bytes and packets (mqtt-packet) for the protocol-rule tests.

import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { generate, parser, type Packet } from 'mqtt-packet';
import WebSocket from 'ws';
import { sleep } from './transactions';

export interface Received {
  topic: string;
  payload: Buffer;
  /** performance.now() at receipt. */
  at: number;
}

export const eventsUrl = (httpUrl: string) => `${httpUrl.replace(/^http/, 'ws')}/api/mqtt/v1`;

/** An mqtt.js client that keeps every message it receives, in order. */
export class Recorder {
  readonly messages: Received[] = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => this.messages.push({ topic, payload, at: performance.now() }));
  }

  static async connect(httpUrl: string, options: IClientOptions = {}): Promise<Recorder> {
    const client = mqtt.connect(eventsUrl(httpUrl), {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ...options,
    });
    const recorder = new Recorder(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
      client.once('close', () => reject(new Error('closed before CONNACK')));
    });
    return recorder;
  }

  /** Subscribe and resolve with the granted QoS per filter (128 = refused). */
  subscribe(filters: string[], qos: 0 | 1 | 2 = 0): Promise<number[]> {
    return new Promise((resolve, reject) =>
      this.client.subscribe(filters, { qos }, (err, granted) =>
        err && !granted ? reject(err) : resolve((granted ?? []).map((g) => g.qos)),
      ),
    );
  }

  unsubscribe(filters: string[]): Promise<void> {
    return new Promise((resolve, reject) => this.client.unsubscribe(filters, (err) => (err ? reject(err) : resolve())));
  }

  on(topic: string): Received[] {
    return this.messages.filter((m) => m.topic === topic);
  }

  /** Wait until `test` finds something in the messages. */
  async waitFor<T>(what: string, test: (messages: Received[]) => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = test(this.messages);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; got ${this.messages.length} messages: ${[...new Set(this.messages.map((m) => m.topic))].slice(0, 30).join(', ')}`,
        );
      await sleep(20);
    }
  }

  end(): Promise<void> {
    return new Promise((resolve) => this.client.end(true, {}, () => resolve()));
  }
}

/** A WebSocket that speaks MQTT only through the packets and bytes a test gives it. */
export class RawClient {
  readonly packets: Packet[] = [];
  readonly closed: Promise<{ code: number; at: number }>;
  private readonly parser = parser({ protocolVersion: 4 });

  private constructor(readonly ws: WebSocket) {
    this.parser.on('packet', (p) => this.packets.push(p));
    ws.on('message', (data) => this.parser.parse(data as Buffer));
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve({ code, at: Date.now() })));
    ws.on('error', () => {});
  }

  static async open(
    httpUrl: string,
    protocols: string[] = ['mqtt'],
    headers: Record<string, string> = {},
  ): Promise<RawClient> {
    const ws = new WebSocket(eventsUrl(httpUrl), protocols, { headers });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return new RawClient(ws);
  }

  send(packet: Packet): void {
    this.ws.send(generate(packet));
  }

  sendBytes(bytes: Buffer | string): void {
    this.ws.send(bytes);
  }

  async connect(clientId = '', keepalive = 0): Promise<void> {
    this.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive });
    await this.waitFor('CONNACK', (p) => p.cmd === 'connack');
  }

  async waitFor(what: string, test: (p: Packet) => boolean, timeoutMs = 5_000): Promise<Packet> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.packets.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  }

  /** Resolves with the close, or rejects if the node keeps the connection open. */
  expectClosed(timeoutMs = 5_000): Promise<{ code: number; at: number }> {
    return Promise.race([
      this.closed,
      sleep(timeoutMs).then(() => Promise.reject(new Error('the node did not close the connection'))),
    ]);
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * The answer to an upgrade request, read off the socket: status, the subprotocol chosen
 * (101) or the body (anything else).
 */
export async function upgradeAnswer(
  httpUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; protocol?: string; body: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${httpUrl}${path}`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({
        status: res.statusCode ?? 0,
        protocol: res.headers['sec-websocket-protocol'] as string | undefined,
        body: '',
      });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
