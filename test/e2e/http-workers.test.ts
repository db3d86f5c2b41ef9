// HTTP on several event loops (docs/performance.md): worker threads serve the node's port
// beside the main thread, over the same store; their requests add up in /metrics; event
// API upgrades that reach any thread are handed to the event API's thread; the hot reads answered
// before Koa (server/before-koa/reads.ts) carry the same headers as Koa's answers and keep the
// public-route rule; stopping releases the store for the next start.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, upgradeAnswer } from './mqtt';
import { core, issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';

/** Each request on a new connection, so the kernel deals them to every thread. */
const fresh = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Connection: 'close' } });

async function metricsText(node: TestNode): Promise<string> {
  const token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
  return (await fetch(`${node.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
}

const counted = (text: string, route: string, status = 200) =>
  Number(
    new RegExp(
      `^ledger_node_http_requests_total\\{method="GET",route="${route.replace(/[/:]/g, (c) => `\\${c}`)}",status="${status}"\\} (\\d+)`,
      'm',
    ).exec(text)?.[1] ?? 0,
  );

describe('four HTTP event loops on one port', () => {
  let node: TestNode;
  let blockId: string;
  beforeAll(async () => {
    node = await startTestNode(['--rest-workers', '4', '--min-pow-score', '1']);
    const res = await fetch(`${node.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x77', data: '0x01' } }),
    });
    expect(res.status).toBe(201);
    ({ blockId } = await res.json());
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('answers on every thread from the one store, and /metrics adds every thread up', async () => {
    const before = await metricsText(node);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fresh(`${node.url}/api/core/v2/blocks/${blockId}/metadata`).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(Array(40).fill(200));
    const unknown = await Promise.all(
      Array.from({ length: 12 }, () =>
        fresh(`${node.url}/api/core/v2/blocks/0x${'ab'.repeat(32)}`).then((r) => r.status),
      ),
    );
    expect(unknown).toEqual(Array(12).fill(404));
    const after = await metricsText(node);
    expect(
      counted(after, '/api/core/v2/blocks/:blockId/metadata') -
        counted(before, '/api/core/v2/blocks/:blockId/metadata'),
    ).toBe(40);
    expect(
      counted(after, '/api/core/v2/blocks/:blockId', 404) - counted(before, '/api/core/v2/blocks/:blockId', 404),
    ).toBe(12);
    // Process-wide gauges come from the main thread alone, not once per thread.
    // Process-wide gauges come from the main thread alone, not once per thread: the blocks
    // stored are the milestones' blocks and ours.
    const latest = async () =>
      (await (await fetch(`${node.url}/api/core/v2/info`)).json()).status.latestMilestone.index as number;
    const low = await latest();
    const stored = Number(/^ledger_node_blocks_stored (\d+)$/m.exec(await metricsText(node))?.[1]);
    const high = await latest();
    expect(stored).toBeGreaterThanOrEqual(low + 1);
    expect(stored).toBeLessThanOrEqual(high + 1);
  });

  it('serves the faucet on every thread from the one faucet of the main thread', async () => {
    const infos = await Promise.all(
      Array.from({ length: 12 }, () => fresh(`${node.url}/api/faucet/v1/info`).then((r) => r.json())),
    );
    expect(new Set(infos.map((i) => i.address)).size).toBe(1);
    expect(infos.every((i) => i.bech32Hrp === 'tst')).toBe(true);
    const enqueue = (address: string) =>
      fresh(`${node.url}/api/faucet/v1/enqueue`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ address }),
      });
    const addresses = Array.from(
      { length: 8 },
      (_, i) =>
        core.bech32Encode('tst', { type: 0, pubKeyHash: '0x' + (i + 1).toString(16).padStart(64, '0') }) as string,
    );
    const accepted = await Promise.all(
      addresses.map(async (address) => {
        const res = await enqueue(address);
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(accepted.map((a) => a.status)).toEqual(Array(8).fill(202));
    expect(accepted.map((a) => a.body.address)).toEqual(addresses);
    // One queue and one cool-down for all threads: a repeated request is refused wherever it lands.
    const again = await Promise.all(Array.from({ length: 8 }, () => enqueue(addresses[0])));
    expect(again.map((r) => r.status)).toEqual(Array(8).fill(429));
    expect(again.every((r) => Number(r.headers.get('Retry-After')) > 0)).toBe(true);
  });

  it('takes event API connections on any thread into one broker (handed to the event API thread)', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => RawClient.open(node.url)));
    try {
      await Promise.all(clients.map((c, i) => c.connect(`client-${i}`)));
      // Every connection, whichever loop accepted it, gets the same message.
      await Promise.all(
        clients.map(
          (c) => (
            c.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'blocks/tagged-data/0x7778', qos: 0 }] }),
            c.waitFor('SUBACK', (p) => p.cmd === 'suback')
          ),
        ),
      );
      const res = await fetch(`${node.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x7778', data: '0x02' } }),
      });
      expect(res.status).toBe(201);
      const published = await Promise.all(clients.map((c) => c.waitFor('the block', (p) => p.cmd === 'publish')));
      expect(new Set(published.map((p) => (p.cmd === 'publish' ? core.blockId(p.payload as Buffer) : '')))).toEqual(
        new Set([(await res.json()).blockId]),
      );
      // One client-ID map for all of them: a new connection with a connected ID takes it over.
      const late = await RawClient.open(node.url);
      await late.connect('client-0');
      await clients[0].expectClosed();
      late.close();
      // An upgrade request for another path is answered as a plain request on any thread.
      const answers = await Promise.all(Array.from({ length: 8 }, () => upgradeAnswer(node.url, '/api/core/v2/info')));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('answers the hot reads with the headers Koa gives (HEAD goes through Koa)', async () => {
    for (const [path, accept] of [
      ['/api/core/v2/info', ''],
      ['/api/core/v2/tips', ''],
      [`/api/core/v2/blocks/${blockId}`, ''],
      [`/api/core/v2/blocks/${blockId}`, 'application/vnd.ledger.serializer-v1'],
      [`/api/core/v2/blocks/${blockId}/metadata`, ''],
      [`/api/core/v2/outputs/${GENESIS_OUTPUT}`, ''],
      [`/api/core/v2/outputs/${GENESIS_OUTPUT}`, 'application/vnd.ledger.serializer-v1'],
      [`/api/core/v2/outputs/${GENESIS_OUTPUT}/metadata`, ''],
    ]) {
      // An output's metadata names the ledger index, which a milestone between the two
      // requests changes: compare only pairs taken while the GET's body stayed the same.
      for (let attempt = 0; ; attempt++) {
        const init: RequestInit = { headers: accept ? { Accept: accept } : {} };
        const get = await fetch(`${node.url}${path}`, init);
        const body = await get.text();
        const head = await fetch(`${node.url}${path}`, { ...init, method: 'HEAD' });
        const again = await (await fetch(`${node.url}${path}`, init)).text();
        if (body !== again && attempt < 3) continue;
        expect(get.status).toBe(200);
        expect(withoutConnection(get)).toEqual(withoutConnection(head));
        break;
      }
    }
    const malformed = await fetch(`${node.url}/api/core/v2/blocks/0x12`);
    expect(malformed.status).toBe(400);
  });

  it("answers the hot reads' 404s with the routes' body, headers and counters", async () => {
    const unknown = '0x' + 'ab'.repeat(32);
    const before = await metricsText(node);
    for (const [path, route, reason] of UNKNOWN_READS(unknown)) {
      const get = await fetch(`${node.url}${path}`);
      const head = await fetch(`${node.url}${path}`, { method: 'HEAD' });
      expect([get.status, head.status]).toEqual([404, 404]);
      expect(withoutConnection(get)).toEqual(withoutConnection(head));
      expect(await get.text()).toBe(notFoundBody(reason));
      const after = await metricsText(node);
      expect(counted(after, route, 404) - counted(before, route, 404)).toBeGreaterThanOrEqual(1);
    }
  });
});

/** The genesis output of a node with the default genesis (ledger style). */
const GENESIS_OUTPUT = '0x' + '00'.repeat(34);
const withoutConnection = (r: Response) =>
  [...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k));
const notFoundBody = (reason: string) =>
  JSON.stringify({ error: { code: '404', message: `could not find data: ${reason}` } });
/** GETs of an unknown id on each hot read that can miss: path, route pattern, 404 reason. */
const UNKNOWN_READS = (id: string): [string, string, string][] => [
  [`/api/core/v2/outputs/${id}0000`, '/api/core/v2/outputs/:outputId', `output ${id}0000 not found`],
  [`/api/core/v2/outputs/${id}0100/metadata`, '/api/core/v2/outputs/:outputId/metadata', `output ${id}0100 not found`],
  [`/api/core/v2/blocks/${id}`, '/api/core/v2/blocks/:blockId', `block ${id} not found`],
  [
    `/api/core/v2/blocks/${id.toUpperCase().replace('0X', '0x')}/metadata`,
    '/api/core/v2/blocks/:blockId/metadata',
    `block ${id} not found`,
  ],
  [
    `/api/core/v2/transactions/${id}/included-block`,
    '/api/core/v2/transactions/:transactionId/included-block',
    `transaction ${id} not found`,
  ],
];

describe('hot reads of routes that are not public', () => {
  let node: TestNode;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    const config = join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ restApi: { publicRoutes: ['/health', '/api/routes'] } }));
    node = await startTestNode(['--config', config], dataDir);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('need the JWT, as every other protected route', async () => {
    expect((await fetch(`${node.url}/api/core/v2/info`)).status).toBe(403);
    const token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
    expect(
      (await fetch(`${node.url}/api/core/v2/info`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });

  it('answer their 404s through Koa with the body given before Koa on a public route', async () => {
    const unknown = '0x' + 'ab'.repeat(32);
    const token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
    for (const [path, , reason] of UNKNOWN_READS(unknown)) {
      expect((await fetch(`${node.url}${path}`)).status).toBe(403);
      const res = await fetch(`${node.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(notFoundBody(reason));
    }
  });
});

describe('stopping', () => {
  it('lets go of the store in every thread, so the node starts again on the same data directory', async () => {
    const dataDir = tempDataDir();
    const first = await startTestNode(['--rest-workers', '3'], dataDir);
    await Promise.all(Array.from({ length: 10 }, () => fresh(`${first.url}/api/core/v2/info`)));
    await first.stop();
    const second = await startTestNode(['--rest-workers', '3'], dataDir);
    try {
      expect((await fetch(`${second.url}/api/core/v2/info`)).status).toBe(200);
      // The mining pool of the first start was closed with it; the new one mines.
      const res = await fetch(`${second.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x77', data: '0x02' } }),
      });
      expect(res.status).toBe(201);
    } finally {
      await second.stop();
    }
  });
});
