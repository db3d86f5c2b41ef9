// The REST API end to end against a real node (port 0, temporary data dir, minPowScore 5).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { core, issueToken, useTestNode } from './node-harness';

const SERIALIZER = 'application/vnd.ledger.serializer-v1';
const IOTA_SERIALIZER = 'application/vnd.iota.serializer-v1';
const node = useTestNode(['--milestone-interval', '1']);

const api = (path: string, init?: RequestInit) => fetch(node.url + path, init);
const submit = (body: unknown, contentType = 'application/json') =>
  api('/api/core/v2/blocks', {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body:
      typeof body === 'string' || body instanceof Uint8Array
        ? (body as string | Uint8Array<ArrayBuffer>)
        : JSON.stringify(body),
  });
const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('e2e').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});

async function expectError(res: Response, status: number, messageStart: string) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body.error.code).toBe(String(status));
  expect(body.error.message.startsWith(messageStart)).toBe(true);
  return body.error.message as string;
}

describe('submit', () => {
  it('accepts JSON without parents and nonce: the node selects tips and mines', async () => {
    const res = await submit({ protocolVersion: 2, payload: tagged('no parents') });
    expect(res.status).toBe(201);
    const { blockId } = await res.json();
    expect(blockId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.headers.get('location')).toBe(blockId);
    const block = await (await api(`/api/core/v2/blocks/${blockId}`)).json();
    expect(block.payload).toEqual(tagged('no parents'));
    expect(block.parents.length).toBeGreaterThanOrEqual(2);
  });

  it('accepts JSON with parents and no nonce, and with parents and a mined nonce', async () => {
    const { tips } = await (await api('/api/core/v2/tips')).json();
    const res = await submit({ protocolVersion: 2, parents: tips, payload: tagged('parents only') });
    expect(res.status).toBe(201);
    const block = { protocolVersion: 2, parents: tips, payload: tagged('with nonce') };
    const { nonce } = await core.mine(block, { targetScore: 5 });
    const mined = await submit({ ...block, nonce });
    expect(mined.status).toBe(201);
    expect((await mined.json()).blockId).toBe(core.blockId({ ...block, nonce }));
    // Idempotent: the same block again is 201 with the same ID.
    expect((await submit({ ...block, nonce })).status).toBe(201);
  });

  it('accepts binary bodies under both serializer names, with and without parents', async () => {
    const { tips } = await (await api('/api/core/v2/tips')).json();
    const block = { protocolVersion: 2, parents: tips, payload: tagged('binary'), nonce: '0' };
    const { nonce } = await core.mine(block, { targetScore: 5 });
    const bytes = core.encodeBlock({ ...block, nonce });
    const res = await submit(bytes, SERIALIZER);
    expect(res.status).toBe(201);
    expect((await res.json()).blockId).toBe(core.blockId(bytes));
    const noParents = core.encodeBlock({
      protocolVersion: 2,
      parents: [],
      payload: tagged('binary, no parents'),
      nonce: '0',
    });
    expect((await submit(noParents, IOTA_SERIALIZER)).status).toBe(201);
  });

  it('rejects bad blocks with 400 and the failing path', async () => {
    await expectError(await submit({ protocolVersion: 3 }), 400, 'invalid data provided: protocolVersion');
    await expectError(await submit({}), 400, 'invalid data provided: protocolVersion');
    await expectError(
      await submit({ protocolVersion: 2, payload: { type: 5, data: '0xabc' } }),
      400,
      'invalid data provided: payload.data',
    );
    await expectError(
      await submit({ protocolVersion: 2, payload: { type: 5, tag: '0xzz' } }),
      400,
      'invalid data provided: payload.tag',
    );
    await expectError(
      await submit({ protocolVersion: 2, nonce: '12' }),
      400,
      'invalid data provided: nonce: no parents given',
    );
    await expectError(
      await submit({ protocolVersion: 2, payload: { type: 7 } }),
      400,
      'invalid data provided: payload',
    );
    await expectError(
      await submit({ protocolVersion: 2, payload: { type: 9 } }),
      400,
      'invalid data provided: payload.type',
    );
    await expectError(
      await submit({ protocolVersion: 2, parents: ['0x' + '22'.repeat(32), '0x' + '11'.repeat(32)], nonce: '1' }),
      400,
      'invalid data provided: parents[1]',
    );
    await expectError(await submit('{"protocolVersion":2,'), 400, 'invalid data provided: body: malformed JSON');
    await expectError(
      await submit('['.repeat(100_000) + ']'.repeat(100_000)),
      400,
      'invalid data provided: body: nesting',
    );
    await expectError(await submit(Buffer.from([3, 0]), SERIALIZER), 400, 'invalid data provided: protocolVersion');
    const outOfRange = {
      protocolVersion: 2,
      payload: {
        type: 6,
        essence: {
          type: 1,
          networkId: '1',
          inputs: [{ type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 70000 }],
          inputsCommitment: '0x' + '00'.repeat(32),
          outputs: [],
        },
        unlocks: [],
      },
    };
    await expectError(
      await submit(outOfRange),
      400,
      'invalid data provided: payload.essence.inputs[0].transactionOutputIndex',
    );
  });

  it('rejects unknown parents and too little PoW with 400', async () => {
    const parents = ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)];
    const block = { protocolVersion: 2, parents, payload: tagged('orphan') };
    const { nonce } = await core.mine(block, { targetScore: 5 });
    await expectError(await submit({ ...block, nonce }), 400, 'invalid data provided: parents[0]');
    const { tips } = await (await api('/api/core/v2/tips')).json();
    let weak = 1n;
    while (core.powScore(core.encodeBlock({ protocolVersion: 2, parents: tips, nonce: String(weak) })) >= 5) weak++;
    await expectError(
      await submit({ protocolVersion: 2, parents: tips, nonce: String(weak) }),
      400,
      'invalid data provided: nonce',
    );
  });

  it('answers 400 for bodies over 1 MiB and 415 for unknown media types', async () => {
    const big = JSON.stringify({ protocolVersion: 2, payload: { type: 5, data: '0x' + 'ab'.repeat(600_000) } });
    await expectError(await submit(big), 400, 'invalid data provided: body larger');
    await expectError(await submit('{}', 'text/plain'), 415, 'unsupported media type');
    expect(
      (await submit({ protocolVersion: 2, payload: tagged('charset') }, 'application/json; charset=utf-8')).status,
    ).toBe(201);
  });
});

describe('lookups', () => {
  it('serves a block as JSON, raw bytes under both names, and its metadata', async () => {
    const { blockId } = await (await submit({ protocolVersion: 2, payload: tagged('lookup') })).json();
    const json = await api(`/api/core/v2/blocks/${blockId}`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const block = await json.json();
    for (const type of [SERIALIZER, IOTA_SERIALIZER]) {
      const raw = await api(`/api/core/v2/blocks/${blockId.toUpperCase().replace('0X', '0x')}`, {
        headers: { Accept: `${type}, application/json` },
      });
      expect(raw.headers.get('content-type')).toBe(type);
      const bytes = Buffer.from(await raw.arrayBuffer());
      expect(core.blockId(bytes)).toBe(blockId);
      expect(core.decodeBlock(bytes)).toEqual(block);
    }
    const metadata = await (await api(`/api/core/v2/blocks/${blockId}/metadata`)).json();
    expect(metadata.blockId).toBe(blockId);
    expect(metadata.isSolid).toBe(true);
  });

  it('validates path parameters (400) and answers unknown objects with 404', async () => {
    await expectError(await api('/api/core/v2/blocks/0x1234'), 400, 'invalid data provided: blockId');
    await expectError(await api('/api/core/v2/outputs/0x' + '00'.repeat(32)), 400, 'invalid data provided: outputId');
    await expectError(await api('/api/core/v2/milestones/by-index/x'), 400, 'invalid data provided: index');
    await expectError(await api('/api/core/v2/milestones/by-index/4294967296'), 400, 'invalid data provided: index');
    await expectError(await api('/api/core/v2/blocks/0x' + 'ee'.repeat(32)), 404, 'could not find data');
    await expectError(await api('/api/core/v2/milestones/by-index/0'), 404, 'could not find data');
    await expectError(
      await api('/api/core/v2/transactions/0x' + '00'.repeat(32) + '/included-block'),
      404,
      'could not find data',
    );
  });

  it('serves milestone 1, info, routes, tips and health', async () => {
    const ms = await (await api('/api/core/v2/milestones/by-index/1')).json();
    expect(ms.type).toBe(7);
    expect(ms.index).toBe(1);
    const byId = await api(`/api/core/v2/milestones/${core.milestoneId(ms)}`, { headers: { Accept: SERIALIZER } });
    expect(
      Buffer.from(await byId.arrayBuffer())
        .subarray(0, 4)
        .toString('hex'),
    ).toBe('07000000');
    const info = await (await api('/api/core/v2/info')).json();
    expect(info.name).toBe('ledger-node');
    expect(info.protocol.minPowScore).toBe(5);
    expect(info.protocol.networkName).toBe('ledger-devnet-v2');
    expect(info.pendingProtocolParameters).toEqual([]);
    expect(info.features).toEqual(['pow']);
    expect(info.status.latestMilestone.index).toBeGreaterThanOrEqual(1);
    expect(await (await api('/api/routes')).json()).toEqual({
      routes: ['core/v2', 'indexer/v1', 'mqtt/v1', 'dashboard-metrics/v1', 'faucet/v1'],
    });
    const { tips } = await (await api('/api/core/v2/tips')).json();
    expect(tips.length).toBeGreaterThanOrEqual(2);
    expect([...tips].sort()).toEqual(tips);
    expect((await api('/health')).status).toBe(200);
  });
});

describe('routing, auth and CORS', () => {
  it('answers 404 for unknown routes only with a valid token, 403 without', async () => {
    const secret = readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim();
    const token = await issueToken(secret);
    await expectError(await api('/api/nothing'), 403, 'not available for public use');
    await expectError(
      await api('/api/nothing', { headers: { Authorization: 'Bearer nonsense' } }),
      403,
      'not available for public use',
    );
    await expectError(
      await api('/api/nothing', { headers: { Authorization: `Bearer ${await issueToken('other secret')}` } }),
      403,
      'not available',
    );
    await expectError(
      await api('/api/nothing', { headers: { Authorization: `Bearer ${token}` } }),
      404,
      'could not find data',
    );
    await expectError(await api('/metrics'), 403, 'not available');
    const metrics = await api('/metrics', { headers: { Authorization: `Bearer ${token}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('ledger_node_http_requests_total');
    expect(text).toContain('ledger_node_blocks_stored');
    expect(text).toContain('ledger_node_rocksdb_size_bytes');
    expect(text).toMatch(/^ledger_node_rocksdb_family_size_bytes\{family="blocks"\} \d+$/m);
    expect(text).toMatch(/^ledger_node_pruning_index 0$/m);
    expect(text).toMatch(/^ledger_node_storage_full 0$/m);
  });

  it('answers 405 for a known path with another method', async () => {
    await expectError(await api('/api/core/v2/info', { method: 'POST' }), 405, 'method not allowed');
    await expectError(await api('/api/core/v2/blocks', { method: 'GET' }), 405, 'method not allowed');
  });

  it('allows any origin and answers preflights with 204', async () => {
    const res = await api('/api/core/v2/info');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await api('/api/nothing', { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Content-Type, Accept, Authorization');
    const err = await api('/api/core/v2/blocks/0x12');
    expect(err.headers.get('access-control-allow-origin')).toBe('*');
  });
});
