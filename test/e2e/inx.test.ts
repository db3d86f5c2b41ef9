// INX (docs/inx.md) on a real node, driven by a real gRPC client (@grpc/grpc-js loading
// crates/ledger-inx/proto/inx.proto, as an extension would connect): ReadNodeStatus against
// /info, a ListenToLedgerUpdates batch against the milestone's utxo-changes, an extension's
// route registered and proxied under /api/<route> with the node's auth rules and listed in
// /api/routes, PerformAPIRequest into the node's own REST API, and a built-in route group
// refused; with several HTTP event loops, every one of them proxies and lists the route.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, method: req.method, realIp: req.headers['x-real-ip'] ?? null }));
  });
  await new Promise<void>((r) => extension.listen(0, '127.0.0.1', r));
  extensionPort = (extension.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  client?.close();
  await new Promise((r) => extension?.close(r));
  await node?.stop();
});

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
    expect(await res.json()).toEqual({ path: '/api/echo/v1/things?x=1', method: 'GET', realIp: '127.0.0.1' });
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
  it('every loop lists and proxies a registered route', async () => {
    const multi = await startTestNode(['--rest-workers', '3', '--inx', '--inx-bind', '127.0.0.1:0']);
    const inx = inxClient(multi.inx?.localAddresses()[0] ?? '');
    try {
      await unary(inx, 'RegisterAPIRoute', { route: 'echo/v1', host: '127.0.0.1', port: extensionPort, path: '' });
      const secret = readFileSync(join(multi.dataDir, 'jwt-secret'), 'utf8').trim();
      const auth = { Authorization: `Bearer ${await issueToken(secret)}` };
      // The loops share the port (SO_REUSEPORT): the kernel spreads fresh connections over them.
      for (let i = 0; i < 12; i++) {
        const routes = await fetch(`${multi.url}/api/routes`, { headers: { Connection: 'close' } });
        expect((await routes.json()).routes).toContain('echo/v1');
        const res = await fetch(`${multi.url}/api/echo/v1/n/${i}`, { headers: { ...auth, Connection: 'close' } });
        expect(res.status).toBe(200);
        expect((await res.json()).path).toBe(`/n/${i}`);
      }
    } finally {
      inx.close();
      await multi.stop();
    }
  }, 60_000);
});
