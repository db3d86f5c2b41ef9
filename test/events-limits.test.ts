// The event API's limits and switches against real nodes (events.md §1, §2, §6): JWT on
// the upgrade when the route is not public, events.enabled off, the client and
// subscription limits, and a client that stops reading: disconnected once
// maxClientBufferBytes wait for it, while a client that reads gets every message and the
// node's memory does not grow by what the slow one did not read.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, Recorder, upgradeAnswer } from './e2e/mqtt';
import { issueToken, startTestNode, tempDataDir, type TestNode, useTestNode } from './e2e/node-harness';
import { sleep, submitPayload } from './e2e/transactions';
import { DEFAULT_PUBLIC_ROUTES } from '../src/config/schema';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const SECRET = 'events-limits-test-secret';
const BUFFER_LIMIT = 256 * 1024;

function configFile(config: object): string {
  const dir = tempDataDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('a node whose event API is not public, with small limits', () => {
  let node: TestNode;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const file = configFile({
      restApi: { jwtSecret: SECRET, publicRoutes: DEFAULT_PUBLIC_ROUTES.filter((r) => r !== '/api/mqtt/v1') },
      events: { maxClients: 3, maxSubscriptionsPerClient: 3, maxClientBufferBytes: BUFFER_LIMIT },
    });
    // No proof of work: the slow-client test submits many large blocks.
    node = await startTestNode(['--config', file, '--milestone-interval', '1', '--min-pow-score', '0']);
    token = await issueToken(SECRET);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('needs a JWT on the upgrade request: 403 before the upgrade without one', async () => {
    const refused = await upgradeAnswer(node.url, '/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'mqtt' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: '403', message: 'not available for public use' } });
    expect(
      (await upgradeAnswer(node.url, '/api/mqtt/v1', { Authorization: `Bearer ${await issueToken('another secret')}` }))
        .status,
    ).toBe(403);
    expect(
      await upgradeAnswer(node.url, '/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'mqtt', ...auth() }),
    ).toMatchObject({ status: 101, protocol: 'mqtt' });
    const client = await Recorder.connect(node.url, { wsOptions: { headers: auth() } });
    await client.subscribe(['milestone-info/latest']);
    await client.waitFor('current state', (m) => (m.length > 0 ? true : undefined));
    await client.end();
  });

  it('closes a client that subscribes to more than maxSubscriptionsPerClient filters', async () => {
    const client = await RawClient.open(node.url, ['mqtt'], auth());
    await client.connect();
    client.send({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: ['a', 'b', 'c'].map((topic) => ({ topic, qos: 0 as const })),
    });
    await client.waitFor('SUBACK', (p) => p.cmd === 'suback');
    // The same filters again are no new subscriptions.
    client.send({ cmd: 'subscribe', messageId: 2, subscriptions: [{ topic: 'a', qos: 1 }] });
    await client.waitFor('SUBACK', (p) => p.cmd === 'suback' && p.messageId === 2);
    client.send({ cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'd', qos: 0 }] });
    await client.expectClosed();
    expect(client.packets.some((p) => p.cmd === 'suback' && p.messageId === 3)).toBe(false);
  });

  it('answers 503 beyond maxClients', async () => {
    // The clients of the tests before may still count (the node counts a client off when
    // it notices the close): three of ours, once they are all admitted.
    const open: RawClient[] = [];
    for (let i = 0; i < 3; i++) open.push(await admitted(node.url, auth()));
    const refused = await upgradeAnswer(node.url, '/api/mqtt/v1', auth());
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: '503', message: 'service unavailable: too many event API clients' },
    });
    for (const c of open) c.close();
    await Promise.all(open.map((c) => c.closed));
    // Admitted again once the node has noticed the closes.
    (await admitted(node.url, auth())).close();
  });

  it('disconnects a client that stops reading, without growing memory; a reading client loses nothing', async () => {
    const tag = '0x' + Buffer.from('slow consumer').toString('hex');
    const blocks = 240;
    const data = '0x' + 'ab'.repeat(30_000);
    // The reading client counts what it gets (keeping 7 MB of payloads would blur the measure).
    const fast = await Recorder.connect(node.url, { wsOptions: { headers: auth() } });
    const seen = new Set<string>();
    fast.client.removeAllListeners('message');
    fast.client.on('message', (_topic, payload) => seen.add(payload.subarray(payload.length - 80).toString('hex')));
    await fast.subscribe([`blocks/tagged-data/${tag}`]);
    const slow = await RawClient.open(node.url, ['mqtt'], auth());
    await slow.connect('slow');
    slow.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: '#', qos: 0 }] });
    await slow.waitFor('SUBACK', (p) => p.cmd === 'suback');
    // From now on the slow client reads nothing: everything for it queues up.
    const socket = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
    socket.pause();
    await collectGarbage();
    const before = process.memoryUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < blocks) {
          // Distinct data: equal blocks (same tips, no proof of work) would be stored once.
          const n = next++;
          await submitPayload(node.url, { type: 5, tag, data: data + n.toString(16).padStart(4, '0') });
        }
      }),
    );
    const deadline = Date.now() + 30_000;
    while (seen.size < blocks && Date.now() < deadline) await sleep(50);
    expect(seen.size).toBe(blocks);
    await collectGarbage();
    const after = process.memoryUsage();
    // 240 blocks of 30 kB on three topics each (≈ 22 MB) were published for the slow client;
    // the node (in this process) holds on to none of it (a few MB of other growth is normal).
    const grown = after.arrayBuffers + after.heapUsed - (before.arrayBuffers + before.heapUsed);
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    socket.resume();
    await slow.expectClosed(10_000);
    const received = slow.packets.filter((p) => p.cmd === 'publish').length;
    expect(received).toBeLessThan(3 * blocks);
    await fast.end();
  }, 120_000);
});

/**
 * An event API client the node admits: a 503 is tried again (clients that just went away
 * are counted off when the node notices); the deadline only bounds a failing test.
 */
async function admitted(url: string, headers: Record<string, string>): Promise<RawClient> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await RawClient.open(url, ['mqtt'], headers);
    } catch (err) {
      if (!(err instanceof Error && err.message === 'HTTP 503') || Date.now() > deadline) throw err;
      await sleep(50);
    }
  }
}

/** Several collections with pauses: napi finalizers of native buffers run after a GC. */
async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    gc();
    await sleep(50);
  }
}

describe('events.enabled = false', () => {
  const node = useTestNode(['--no-events']);

  it('makes /api/mqtt/v1 an unknown route and leaves it out of /api/routes', async () => {
    const answer = await upgradeAnswer(node.url, '/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'mqtt' });
    expect(answer.status).toBe(404);
    expect((await fetch(`${node.url}/api/mqtt/v1`)).status).toBe(404);
    expect(await (await fetch(`${node.url}/api/routes`)).json()).toEqual({
      routes: ['core/v2', 'indexer/v1', 'dashboard-metrics/v1', 'faucet/v1'],
    });
  });
});
