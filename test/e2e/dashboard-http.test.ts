// The dashboard's HTTP side against a real node: its files (types, caching, CSP, every
// module import resolvable), the redirect, turning it off, the dashboard-metrics routes and
// the children route the explorer reads.

import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken, startTestNode, type TestNode } from './node-harness';
import { minedBlock, submit, submitPayload, waitForReferenced } from './transactions';

const DASHBOARD = resolve(__dirname, '../../dashboard');
const { version } = require('../../package.json') as { version: string };
let node: TestNode;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
});
afterAll(() => node?.stop());

const get = (path: string, init?: RequestInit) => fetch(node.url + path, { redirect: 'manual', ...init });

/**
 * A conditional GET as a browser revalidates: node:http, because fetch() adds
 * `Cache-Control: no-cache` to requests with If-None-Match, which rightly defeats the 304.
 */
function revalidate(path: string, etag: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(node.url + path, { headers: { 'If-None-Match': etag } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the dashboard files', () => {
  it('redirects /dashboard to /dashboard/ and serves the page there, without a token', async () => {
    const redirect = await get('/dashboard?tab=1');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/dashboard/?tab=1');
    const page = await get('/dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toBe(readFileSync(join(DASHBOARD, 'index.html'), 'utf8'));
  });

  it('serves every file with its type and an ETag, and 304 while the ETag matches', async () => {
    const types: Record<string, string> = {
      '.html': 'text/html; charset=utf-8',
      '.js': 'text/javascript; charset=utf-8',
      '.css': 'text/css; charset=utf-8',
      '.svg': 'image/svg+xml',
    };
    const all = files(DASHBOARD);
    expect(all.length).toBeGreaterThan(10);
    for (const file of all) {
      const path = relative(DASHBOARD, file).split('\\').join('/');
      const url = path === 'index.html' ? '/dashboard/' : `/dashboard/${path}`;
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(types[path.slice(path.lastIndexOf('.'))]);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(file));
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(await revalidate(url, etag), url).toEqual({ status: 304, body: '' });
      expect((await revalidate(url, '"other"')).status).toBe(200);
    }
  });

  it('references only files it serves: every import, script, stylesheet and icon resolves', async () => {
    for (const file of files(DASHBOARD)) {
      const text = readFileSync(file, 'utf8');
      const refs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']+)'|(?:src|href)="([^"#][^"]*)"/g)].map(
        (m) => m[1] ?? m[2],
      );
      for (const ref of refs) {
        const target = new URL(ref, `http://x/dashboard/${relative(DASHBOARD, file).split('\\').join('/')}`).pathname;
        expect((await get(target)).status, `${ref} in ${relative(DASHBOARD, file)}`).toBe(200);
      }
    }
  });

  it('answers unknown files with 404 and other methods with 405', async () => {
    const missing = await get('/dashboard/nothing.js');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('404');
    expect((await get('/dashboard/', { method: 'POST' })).status).toBe(405);
    expect((await get('/dashboard/app.js', { method: 'HEAD' })).status).toBe(200);
  });
});

describe('the dashboard turned off', () => {
  it('is 404 with or without a token, and the rest of the API stays', async () => {
    const off = await startTestNode(['--no-dashboard']);
    try {
      const secret = readFileSync(join(off.dataDir, 'jwt-secret'), 'utf8').trim();
      const auth = { Authorization: `Bearer ${await issueToken(secret)}` };
      for (const path of ['/dashboard', '/dashboard/', '/dashboard/app.js']) {
        expect((await fetch(off.url + path, { redirect: 'manual' })).status, path).toBe(404);
        expect((await fetch(off.url + path, { redirect: 'manual', headers: auth })).status, path).toBe(404);
      }
      expect((await fetch(off.url + '/api/core/v2/info')).status).toBe(200);
    } finally {
      await off.stop();
    }
  });
});

describe('/api/dashboard-metrics/v1', () => {
  it("reports version, uptime and memory (Hornet's node-info-extended fields)", async () => {
    const first = await (await get('/api/dashboard-metrics/v1/info')).json();
    expect(Object.keys(first)).toEqual(['version', 'latestVersion', 'uptime', 'nodeId', 'nodeAlias', 'memUsage']);
    expect(first.version).toBe(version);
    expect(first.memUsage).toBeGreaterThan(10 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 50));
    const second = await (await get('/api/dashboard-metrics/v1/info')).json();
    expect(second.uptime).toBeGreaterThanOrEqual(first.uptime + 50);
  });

  it('reports the RocksDB size split into blocks and ledger', async () => {
    const sizes = await (await get('/api/dashboard-metrics/v1/database/sizes')).json();
    expect(Object.keys(sizes)).toEqual(['tangle', 'utxo', 'total', 'ts']);
    expect(sizes.total).toBe(sizes.tangle + sizes.utxo);
    expect(sizes.tangle).toBeGreaterThan(0);
    expect(Math.abs(sizes.ts - Date.now() / 1000)).toBeLessThan(5);
    // Hornet's gossip rates: all zero on a node without gossip.
    expect(await (await get('/api/dashboard-metrics/v1/gossip')).json()).toEqual({ incoming: 0, new: 0, outgoing: 0 });
    expect(await (await get('/api/routes')).json()).toEqual({
      routes: ['core/v2', 'indexer/v1', 'mqtt/v1', 'dashboard-metrics/v1', 'faucet/v1'],
    });
  });
});

describe('GET /api/core/v2/blocks/{blockId}/children', () => {
  it('lists the blocks that approve a block, in ID order', async () => {
    const parent = await submitPayload(node.url, { type: 5, tag: '0x706172656e74', data: '0x' });
    const { tips } = await (await get('/api/core/v2/tips')).json();
    const other = tips.find((t: string) => t !== parent);
    const children: string[] = [];
    for (const n of [1, 2, 3]) {
      const { block, blockId } = await minedBlock([parent, other], { type: 5, tag: '0x6368696c64', data: '0x0' + n });
      expect(await submit(node.url, block)).toBe(blockId);
      children.push(blockId);
    }
    const body = await (await get(`/api/core/v2/blocks/${parent.toUpperCase().replace('0X', '0x')}/children`)).json();
    expect(body).toEqual({ blockId: parent, maxResults: 1000, count: 3, children: [...children].sort() });
    // The next milestone approves the newest blocks: they get it as a child.
    const metadata = await waitForReferenced(node.url, children[0]);
    expect(metadata.referencedByMilestoneIndex).toBeGreaterThan(0);
    const fresh = await (await get(`/api/core/v2/blocks/${children[0]}/children`)).json();
    expect(fresh.blockId).toBe(children[0]);
    expect(fresh.count).toBe(fresh.children.length);
  });

  it('answers 400 for a malformed ID and 404 for an unknown block', async () => {
    const bad = await get('/api/core/v2/blocks/0x12/children');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/^invalid data provided: blockId/);
    const unknown = await get(`/api/core/v2/blocks/0x${'ee'.repeat(32)}/children`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toMatch(/^could not find data: block 0xee/);
  });
});
