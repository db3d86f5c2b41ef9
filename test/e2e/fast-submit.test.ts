// POST /api/core/v2/blocks answered before Koa (server/before-koa/submissions.ts) for a
// stored block with a declared body; everything else goes to Koa with the body read
// before. What a client sees must not tell the two apart: the same status, headers and body
// whichever path answers, the same error bodies, the same counters. A chunked body (no
// Content-Length) always takes Koa's path, so it is the reference here.

import { request } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const IGNORED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** POST a body, declared (Content-Length) or chunked; the answer without per-connection headers. */
function post(
  node: TestNode,
  body: string | Buffer,
  { chunked = false, type = 'application/json', auth }: { chunked?: boolean; type?: string; auth?: string } = {},
): Promise<Answer> {
  const url = new URL(`${node.url}/api/core/v2/blocks`);
  const headers: Record<string, string | number> = { 'Content-Type': type };
  if (auth !== undefined) headers.Authorization = auth;
  if (!chunked) headers['Content-Length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const kept = Object.entries(res.headers).filter(([k]) => !IGNORED.has(k));
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(kept.map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString(),
        });
      });
    });
    req.on('error', reject);
    if (chunked) {
      // Two writes make the body chunked on the wire.
      const text = Buffer.from(body);
      req.write(text.subarray(0, 1));
      req.end(text.subarray(1));
    } else req.end(body);
  });
}

async function metricsText(node: TestNode): Promise<string> {
  const token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
  return (await fetch(`${node.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
}

const counted = (text: string, status: number) =>
  Number(
    new RegExp(
      `^ledger_node_http_requests_total\\{method="POST",route="\\/api\\/core\\/v2\\/blocks",status="${status}"\\} (\\d+)`,
      'm',
    ).exec(text)?.[1] ?? 0,
  );

const tagged = (data: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('fast').toString('hex'),
  data: '0x' + Buffer.from(data).toString('hex'),
});

describe('block submissions before Koa', () => {
  let node: TestNode;
  let tips: string[];
  beforeAll(async () => {
    node = await startTestNode(['--min-pow-score', '100', '--rest-workers', '2']);
    ({ tips } = await (await fetch(`${node.url}/api/core/v2/tips`)).json());
  });
  afterAll(async () => {
    await node?.stop();
  });

  async function mined(data: string): Promise<object> {
    const block = { protocolVersion: 2, parents: tips, payload: tagged(data) };
    return { ...block, nonce: (await core.mine(block, { targetScore: 100 })).nonce };
  }

  it('answer a stored block as Koa does, and are counted under the route', async () => {
    const before = await metricsText(node);
    const first = await mined('first');
    const second = await mined('second');
    // New through each path, then known through the other.
    const answers = [
      await post(node, JSON.stringify(first)),
      await post(node, JSON.stringify(first), { chunked: true }),
      await post(node, JSON.stringify(second), { chunked: true }),
      await post(node, JSON.stringify(second)),
    ];
    const ids = [core.blockId(first), core.blockId(first), core.blockId(second), core.blockId(second)];
    answers.forEach((a, i) => {
      expect(a.status).toBe(201);
      expect(JSON.parse(a.body)).toEqual({ blockId: ids[i] });
      expect(a.headers.location).toBe(ids[i]);
    });
    expect(answers[0].headers).toEqual(answers[1].headers);
    expect(answers[3].headers).toEqual({ ...answers[2].headers, location: ids[3] });
    expect(answers[0].headers).toMatchObject({
      'access-control-allow-origin': '*',
      'content-type': 'application/json; charset=utf-8',
    });
    const after = await metricsText(node);
    expect(counted(after, 201) - counted(before, 201)).toBe(4);
    // The same raw bytes take the same path.
    const raw = core.encodeBlock(await mined('raw'));
    const binary = await post(node, raw, { type: 'application/vnd.ledger.serializer-v1' });
    expect(binary.status).toBe(201);
    expect(JSON.parse(binary.body).blockId).toBe(core.blockId(raw));
  });

  it('leave every error to Koa, which answers from the body read before', async () => {
    const valid = await mined('errors');
    const cases: [string | Buffer, string?][] = [
      ['{"protocolVersion":2,'],
      ['[1,2]'],
      [JSON.stringify({ ...valid, protocolVersion: 3 })],
      [JSON.stringify({ ...valid, parents: ['0x' + '99'.repeat(32), ...tips].sort() })],
      [JSON.stringify({ ...valid, nonce: '12' })],
      [JSON.stringify({ ...valid, payload: { type: 7 } })],
      [Buffer.from([2, 1, 3]), 'application/vnd.ledger.serializer-v1'],
      [Buffer.alloc(0), 'application/vnd.ledger.serializer-v1'],
    ];
    for (const [body, type] of cases) {
      const declared = await post(node, body, { type });
      const chunked = await post(node, body, { type, chunked: true });
      expect(declared.status, String(body)).toBe(400);
      expect(JSON.parse(declared.body).error.code).toBe('400');
      expect(declared.body).toBe(chunked.body);
      expect(declared.headers).toEqual(chunked.headers);
    }
    const big = await post(node, JSON.stringify({ ...valid, payload: tagged('x'.repeat(1024 * 1024)) }));
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body).error.message).toMatch(/^invalid data provided: body larger/);
    expect((await post(node, '{}', { type: 'text/plain' })).status).toBe(415);
  });

  it('leave a block to mine to Koa, whose mining job watches the client', async () => {
    const res = await post(node, JSON.stringify({ protocolVersion: 2, parents: tips, payload: tagged('to mine') }));
    expect(res.status).toBe(201);
    const { blockId } = JSON.parse(res.body);
    const bytes = Buffer.from(
      await (
        await fetch(`${node.url}/api/core/v2/blocks/${blockId}`, {
          headers: { Accept: 'application/vnd.ledger.serializer-v1' },
        })
      ).arrayBuffer(),
    );
    expect(core.powScore(bytes)).toBeGreaterThanOrEqual(100);
  });

  it('survive a client that goes away in the middle of its body', async () => {
    const url = new URL(node.url);
    for (let i = 0; i < 8; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /api/core/v2/blocks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"protocolVersion":2,`,
          );
          setTimeout(() => socket.destroy(), 20);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
    }
    const after = await post(node, JSON.stringify(await mined('after the aborts')));
    expect(after.status).toBe(201);
  });
});

describe('block submissions on a node where the route is not public', () => {
  let node: TestNode;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    const config = join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ restApi: { publicRoutes: ['/health', '/api/core/v2/info'] } }));
    node = await startTestNode(['--config', config, '--min-pow-score', '0'], dataDir);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('need the JWT', async () => {
    const body = JSON.stringify({ protocolVersion: 2, payload: tagged('protected') });
    expect((await post(node, body)).status).toBe(403);
    const token = await issueToken(readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim());
    expect((await post(node, body, { auth: `Bearer ${token}` })).status).toBe(201);
  });
});
