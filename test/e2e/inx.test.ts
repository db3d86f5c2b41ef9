// INX (docs/inx.md) on a real node, driven by a real gRPC client (@grpc/grpc-js loading
// crates/ledger-inx/proto/inx.proto, as an extension would connect): ReadNodeStatus against
// /info, a ListenToLedgerUpdates batch against the milestone's utxo-changes, an extension's
// route registered and proxied under /api/<route> with the node's auth rules and listed in
// /api/routes, PerformAPIRequest into the node's own REST API, and a built-in route group
// refused; WebSocket upgrades forwarded to an extension (a real `ws` server) and piped both
// ways, with the same auth rules, 502 when the extension is gone; bodies over 1 MiB refused
// with 413 before they reach it; with several HTTP event loops, every one of them proxies,
// forwards upgrades and lists the route.

import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { upgradeAnswer } from './mqtt';
import { issueToken, startTestNode, type TestNode } from './node-harness';
import { buildTransfer, genesisSpendable, getJson, networkIdOf, testKey, transferAndWait } from './transactions';

const PROTO = resolve(__dirname, '../../crates/ledger-inx/proto/inx.proto');

// biome-ignore lint/suspicious/noExplicitAny: the client's methods are generated from the proto at run time
type InxClient = any;
// biome-ignore lint/suspicious/noExplicitAny: messages decoded by proto-loader
type Message = any;

function inxClient(address: string): InxClient {
  const definition = protoLoader.loadSync(PROTO, { keepCase: false, longs: String, enums: String, defaults: true });
  // biome-ignore lint/suspicious/noExplicitAny: the package object is built from the proto at run time
  const pkg = grpc.loadPackageDefinition(definition) as any;
  return new pkg.inx.INX(address, grpc.credentials.createInsecure());
}

function unary(client: InxClient, method: string, request: object): Promise<Message> {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + 10_000 }, (err: grpc.ServiceError | null, reply: Message) =>
      err ? reject(err) : resolve(reply),
    );
  });
}

const hex = (bytes: Buffer) => `0x${Buffer.from(bytes).toString('hex')}`;

let node: TestNode;
let client: InxClient;
let extension: Server;
let extensionPort: number;
let token: string;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1', '--inx', '--inx-bind', '127.0.0.1:0']);
  const address = node.inx?.localAddresses()[0];
  if (address === undefined) throw new Error('the node runs no INX server');
  client = inxClient(address);
  token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
  // A stand-in for an extension's REST API: it echoes what reached it.
  extension = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bodyLength = Buffer.concat(chunks).length;
      if (bodyLength > 0) bodiesSeen.push(bodyLength);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ path: req.url, method: req.method, realIp: req.headers['x-real-ip'] ?? null, bodyLength }),
      );
    });
  });
  await new Promise<void>((r) => extension.listen(0, '127.0.0.1', r));
  extensionPort = (extension.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  client?.close();
  await new Promise((r) => extension?.close(r));
  await node?.stop();
});

/** Sizes of the non-empty bodies the extension received, in order. */
const bodiesSeen: number[] = [];

/**
 * A stand-in for an extension's WebSocket endpoint (as inx-mqtt serves one): a real `ws`
 * server that greets each connection with what reached it, then echoes every message back;
 * a request for `…/plain` is answered as plain HTTP (418), not upgraded.
 */
class WsExtension {
  readonly server = createServer();
  readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => [...offered][0] ?? false });
  /** The upgrade requests that reached it: path and the headers the proxy added. */
  readonly seen: { url: string; realIp: string | undefined }[] = [];

  static async start(): Promise<WsExtension> {
    const ext = new WsExtension();
    ext.server.on('upgrade', (req: IncomingMessage, socket, head) => {
      ext.seen.push({ url: req.url ?? '', realIp: req.headers['x-real-ip'] as string | undefined });
      if (req.url?.endsWith('/plain')) {
        socket.end('HTTP/1.1 418 I am a teapot\r\nContent-Length: 5\r\nConnection: close\r\n\r\nnope!');
        return;
      }
      ext.wss.handleUpgrade(req, socket, head, (ws) => {
        ws.send(JSON.stringify({ hello: req.url }));
        ws.on('message', (data, binary) => ws.send(binary ? (data as Buffer) : `echo:${data}`));
      });
    });
    await new Promise<void>((r) => ext.server.listen(0, '127.0.0.1', r));
    return ext;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Gone: every connection cut, the port closed. */
  async stop(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** A WebSocket client through the node; resolves once open, with the extension's greeting. */
async function openThrough(
  url: string,
  headers: Record<string, string>,
  protocols: string[] = [],
): Promise<{ ws: WebSocket; hello: string; next(): Promise<{ data: Buffer; binary: boolean }> }> {
  const ws = new WebSocket(url, protocols, { headers });
  const queue: { data: Buffer; binary: boolean }[] = [];
  const waiters: ((m: { data: Buffer; binary: boolean }) => void)[] = [];
  ws.on('message', (data, binary) => {
    const m = { data: data as Buffer, binary };
    const waiter = waiters.shift();
    if (waiter) waiter(m);
    else queue.push(m);
  });
  const next = () =>
    new Promise<{ data: Buffer; binary: boolean }>((resolve, reject) => {
      const m = queue.shift();
      if (m) return resolve(m);
      waiters.push(resolve);
      ws.once('close', () => reject(new Error('closed')));
    });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, hello: (await next()).data.toString(), next };
}

/** POST `body` (a Content-Length, or chunked) and read the answer; a connection cut after it is no error. */
function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  chunked = false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        ...(chunked ? {} : { 'content-length': String(body.length) }),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    // The node may close the connection while the rest of a refused body is still being sent.
    req.on('error', (err) =>
      req.headersSent && (err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err),
    );
    if (chunked) {
      // In pieces, so that no Content-Length is known.
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe('INX on a running node', () => {
  it('ReadNodeStatus answers what /info reports', async () => {
    const status = await unary(client, 'ReadNodeStatus', {});
    const info = (await getJson(node.url, '/api/core/v2/info')).body;
    const confirmed = status.confirmedMilestone.milestoneInfo.milestoneIndex;
    expect(confirmed).toBeGreaterThanOrEqual(1);
    // A milestone may come between the two reads.
    expect(Math.abs(info.status.confirmedMilestone.index - confirmed)).toBeLessThanOrEqual(1);
    expect(status.isSynced).toBe(true);
    expect(status.isAlmostSynced).toBe(true);
    expect(status.currentProtocolParameters.protocolVersion).toBe(2);
    // The raw milestone of a confirmed index above the pruning index is there (inx-app decodes it).
    expect(status.confirmedMilestone.milestone.data.length).toBeGreaterThan(100);
    expect(status.tanglePruningIndex).toBe(info.status.pruningIndex);
  });

  it('a ListenToLedgerUpdates batch holds the utxo-changes of its milestone', async () => {
    const url = node.url;
    const genesis = await genesisSpendable(url);
    const to = testKey('inx recipient');
    const transfer = buildTransfer(
      await networkIdOf(url),
      [genesis],
      [
        { to, amount: 1_000_000n },
        { to: genesis.key, amount: BigInt(genesis.output.amount) - 1_000_000n },
      ],
    );
    // Open the stream from the milestone after the current ledger index; the transfer comes later.
    const status = await unary(client, 'ReadNodeStatus', {});
    const start = status.ledgerIndex + 1;
    const stream = client.ListenToLedgerUpdates({ startMilestoneIndex: start, endMilestoneIndex: 0 });
    const batches = new Map<number, { consumed: string[]; created: string[]; counts: number[] }>();
    let open: { index: number; consumed: string[]; created: string[] } | undefined;
    const waiting = new Promise<void>((resolve, reject) => {
      stream.on('data', (update: Message) => {
        if (update.batchMarker) {
          const m = update.batchMarker;
          if (m.markerType === 'BEGIN') {
            if (open !== undefined) reject(new Error(`BEGIN ${m.milestoneIndex} inside ${open.index}`));
            open = { index: m.milestoneIndex, consumed: [], created: [] };
          } else {
            if (open?.index !== m.milestoneIndex) reject(new Error(`END ${m.milestoneIndex} without its BEGIN`));
            batches.set(m.milestoneIndex, {
              consumed: open?.consumed ?? [],
              created: open?.created ?? [],
              counts: [m.consumedCount, m.createdCount],
            });
            open = undefined;
            if ([...batches.values()].some((b) => b.consumed.includes(genesis.outputId))) resolve();
          }
        } else if (update.consumed) open?.consumed.push(hex(update.consumed.output.outputId.id));
        else if (update.created) open?.created.push(hex(update.created.outputId.id));
      });
      stream.on('error', reject);
    });
    const included = await transferAndWait(url, transfer);
    await waiting;
    stream.cancel();
    const index: number = included.referencedByMilestoneIndex;
    const batch = batches.get(index);
    expect(batch, `the batch of milestone ${index}`).toBeDefined();
    const changes = (await getJson(url, `/api/core/v2/milestones/by-index/${index}/utxo-changes`)).body;
    expect(batch?.counts).toEqual([changes.consumedOutputs.length, changes.createdOutputs.length]);
    expect(new Set(batch?.consumed)).toEqual(new Set(changes.consumedOutputs));
    expect(new Set(batch?.created)).toEqual(new Set(changes.createdOutputs));
    expect(batch?.created).toContain(transfer.outputs[0].outputId);
    // Every milestone from the start on came, with or without changes (BEGIN and END for each).
    for (let i = start; i <= index; i++) expect(batches.has(i), `milestone ${i}`).toBe(true);
  }, 60_000);

  it('RegisterAPIRoute: the route is listed, proxied with the node’s auth rules, and unregistered', async () => {
    await unary(client, 'RegisterAPIRoute', {
      route: 'echo/v1',
      host: '127.0.0.1',
      port: extensionPort,
      path: '/api/echo/v1',
    });
    const routes = (await getJson(node.url, '/api/routes')).body.routes;
    expect(routes).toContain('echo/v1');
    expect(routes.indexOf('echo/v1')).toBe(routes.length - 1);
    // Not a public route: the JWT is needed, as for any other protected route.
    const refused = await fetch(`${node.url}/api/echo/v1/things?x=1`);
    expect(refused.status).toBe(403);
    const res = await fetch(`${node.url}/api/echo/v1/things?x=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      path: '/api/echo/v1/things?x=1',
      method: 'GET',
      realIp: '127.0.0.1',
      bodyLength: 0,
    });
    // PerformAPIRequest reaches the node's own API and, through it, the extension's.
    const info = await unary(client, 'PerformAPIRequest', { method: 'GET', path: '/api/core/v2/info', headers: {} });
    expect(info.code).toBe(200);
    expect(JSON.parse(Buffer.from(info.body).toString()).protocol.version).toBe(2);
    const proxied = await unary(client, 'PerformAPIRequest', { method: 'GET', path: '/api/echo/v1/x', headers: {} });
    expect(JSON.parse(Buffer.from(proxied.body).toString()).path).toBe('/api/echo/v1/x');
    await unary(client, 'UnregisterAPIRoute', { route: 'echo/v1' });
    expect((await getJson(node.url, '/api/routes')).body.routes).not.toContain('echo/v1');
    const gone = await fetch(`${node.url}/api/echo/v1/things`, { headers: { Authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);
  });

  it('an extension that does not answer is 502', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await unary(client, 'RegisterAPIRoute', { route: 'gone/v1', host: '127.0.0.1', port, path: '' });
    const res = await fetch(`${node.url}/api/gone/v1/x`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(502);
    await unary(client, 'UnregisterAPIRoute', { route: 'gone/v1' });
  });

  it('a WebSocket upgrade to an extension route is forwarded and piped both ways, after the same auth', async () => {
    const ext = await WsExtension.start();
    try {
      await unary(client, 'RegisterAPIRoute', { route: 'ws/v1', host: '127.0.0.1', port: ext.port, path: '/ws' });
      const wsUrl = `${node.url.replace(/^http/, 'ws')}/api/ws/v1/chat?x=1`;
      // Not a public route: without the JWT the upgrade is refused as a plain request is, and never forwarded.
      const refused = await upgradeAnswer(node.url, '/api/ws/v1/chat?x=1');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ error: { code: '403', message: 'not available for public use' } });
      expect(ext.seen).toEqual([]);
      // With it: the same path rewriting as a plain request, the subprotocol negotiated end to end.
      const auth = { Authorization: `Bearer ${token}` };
      const conn = await openThrough(wsUrl, auth, ['mqtt']);
      expect(JSON.parse(conn.hello)).toEqual({ hello: '/ws/chat?x=1' });
      expect(conn.ws.protocol).toBe('mqtt');
      expect(ext.seen).toEqual([{ url: '/ws/chat?x=1', realIp: '127.0.0.1' }]);
      conn.ws.send('ping');
      expect((await conn.next()).data.toString()).toBe('echo:ping');
      // A message larger than any socket buffer comes back byte for byte.
      const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0).map((_, i) => (i * 31) % 251);
      conn.ws.send(big);
      const back = await conn.next();
      expect(back.binary).toBe(true);
      expect(back.data.equals(big)).toBe(true);
      // Several at once, each its own pipe.
      const more = await Promise.all([1, 2, 3].map(() => openThrough(wsUrl, auth)));
      for (const [i, c] of more.entries()) c.ws.send(`n${i}`);
      expect(await Promise.all(more.map(async (c) => (await c.next()).data.toString()))).toEqual([
        'echo:n0',
        'echo:n1',
        'echo:n2',
      ]);
      for (const c of more) c.ws.close();
      // An extension that answers without switching protocols is relayed as a plain answer.
      expect(await upgradeAnswer(node.url, '/api/ws/v1/plain', auth)).toEqual({ status: 418, body: 'nope!' });
      // The extension goes away: the open connection ends, a new upgrade is 502, the node goes on.
      const closed = new Promise<number>((r) => conn.ws.once('close', (code) => r(code)));
      await ext.stop();
      expect(await closed).toBe(1006);
      const gone = await upgradeAnswer(node.url, '/api/ws/v1/chat', auth);
      expect(gone.status).toBe(502);
      expect(JSON.parse(gone.body).error.code).toBe('502');
      expect(JSON.parse(gone.body).error.message).toMatch(
        /^bad gateway: remote 127\.0\.0\.1:\d+ of route ws\/v1 unreachable/,
      );
      expect((await fetch(`${node.url}/api/core/v2/info`)).status).toBe(200);
    } finally {
      await unary(client, 'UnregisterAPIRoute', { route: 'ws/v1' });
      if (ext.server.listening) await ext.stop();
    }
  });

  it('a body over 1 MiB to an extension route is 413 and never forwarded', async () => {
    await unary(client, 'RegisterAPIRoute', { route: 'echo/v1', host: '127.0.0.1', port: extensionPort, path: '' });
    try {
      const url = `${node.url}/api/echo/v1/upload`;
      const auth = { Authorization: `Bearer ${token}` };
      const limit = 1024 * 1024;
      bodiesSeen.length = 0;
      // Exactly the limit passes, whole, declared or chunked.
      for (const chunked of [false, true]) {
        const ok = await post(url, Buffer.alloc(limit, 1), auth, chunked);
        expect(ok.status).toBe(200);
        expect(JSON.parse(ok.body)).toMatchObject({ path: '/upload', method: 'POST', bodyLength: limit });
      }
      const refusedBody = {
        error: { code: '413', message: `request entity too large: body larger than ${limit} bytes` },
      };
      for (const chunked of [false, true]) {
        const refused = await post(url, Buffer.alloc(limit + 1, 1), auth, chunked);
        expect(refused.status).toBe(413);
        expect(JSON.parse(refused.body)).toEqual(refusedBody);
      }
      expect(bodiesSeen).toEqual([limit, limit]);
    } finally {
      await unary(client, 'UnregisterAPIRoute', { route: 'echo/v1' });
    }
  });

  it('a route group the node serves itself is refused', async () => {
    const err = await unary(client, 'RegisterAPIRoute', {
      route: 'indexer/v1',
      host: '127.0.0.1',
      port: extensionPort,
      path: '/api/indexer/v1',
    }).catch((e: grpc.ServiceError) => e);
    expect(err.code).toBe(grpc.status.ALREADY_EXISTS);
    expect(err.details).toContain('--no-indexer');
    const empty = await unary(client, 'RegisterAPIRoute', { route: '', host: 'h', port: 1 }).catch(
      (e: grpc.ServiceError) => e,
    );
    expect(empty.code).toBe(grpc.status.INVALID_ARGUMENT);
    // The built-in indexer still answers its routes.
    expect((await getJson(node.url, '/api/routes')).body.routes.filter((r: string) => r === 'indexer/v1')).toHaveLength(
      1,
    );
  });
});

describe('INX with several HTTP event loops', () => {
  it('every loop lists and proxies a registered route, and forwards WebSocket upgrades', async () => {
    // Without the event API, so that /api/mqtt/v1 (public by default) can be an extension's, as inx-mqtt registers it.
    const multi = await startTestNode(['--rest-workers', '3', '--inx', '--inx-bind', '127.0.0.1:0', '--no-events']);
    const inx = inxClient(multi.inx?.localAddresses()[0] ?? '');
    const ext = await WsExtension.start();
    try {
      await unary(inx, 'RegisterAPIRoute', { route: 'echo/v1', host: '127.0.0.1', port: extensionPort, path: '' });
      await unary(inx, 'RegisterAPIRoute', { route: 'mqtt/v1', host: '127.0.0.1', port: ext.port, path: '' });
      const secret = readFileSync(join(multi.dataDir, 'jwt-secret'), 'utf8').trim();
      const auth = { Authorization: `Bearer ${await issueToken(secret)}` };
      // The loops share the port (SO_REUSEPORT): the kernel spreads fresh connections over them.
      for (let i = 0; i < 12; i++) {
        const routes = await fetch(`${multi.url}/api/routes`, { headers: { Connection: 'close' } });
        expect((await routes.json()).routes).toContain('echo/v1');
        const res = await fetch(`${multi.url}/api/echo/v1/n/${i}`, { headers: { ...auth, Connection: 'close' } });
        expect(res.status).toBe(200);
        expect((await res.json()).path).toBe(`/n/${i}`);
        // Each WebSocket is a fresh connection too; a public route needs no JWT.
        const conn = await openThrough(`${multi.url.replace(/^http/, 'ws')}/api/mqtt/v1`, {}, ['mqtt']);
        expect(JSON.parse(conn.hello)).toEqual({ hello: '/' });
        conn.ws.send(`m${i}`);
        expect((await conn.next()).data.toString()).toBe(`echo:m${i}`);
        conn.ws.close();
      }
      expect(ext.seen).toHaveLength(12);
      const tooBig = await post(`${multi.url}/api/echo/v1/x`, Buffer.alloc(1024 * 1024 + 1), auth);
      expect(tooBig.status).toBe(413);
    } finally {
      inx.close();
      await ext.stop();
      await multi.stop();
    }
  }, 60_000);
});
