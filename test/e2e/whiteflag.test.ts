// POST /api/core/v2/whiteflag (TIP-25), the REST twin of INX ComputeWhiteFlag that
// inx-coordinator's quorum asks other nodes: a follower B that has every block of A's next
// milestone but not the milestone answers the roots A's milestone carries, writes nothing,
// and refuses as Hornet does. B is fed through REST, block by block: no gossip timing.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { core, issueToken, milestone, startTestNode, type TestNode } from './node-harness';
import { getJson, postBlock, type RestJson, SERIALIZER, submitPayload, testKey } from './transactions';

const K = testKey('whiteflag coordinator');
let a: TestNode;
let b: TestNode;
let token: string;
let next: RestJson;

const milestoneBlock = (payload: RestJson): Buffer =>
  core.encodeBlock({ protocolVersion: 2, parents: payload.parents, payload, nonce: '0' }) as Buffer;

async function rawBlock(url: string, id: string): Promise<Buffer> {
  return Buffer.from(
    await (await fetch(`${url}/api/core/v2/blocks/${id}`, { headers: { Accept: SERIALIZER } })).arrayBuffer(),
  );
}

function whiteFlag(body: unknown, auth = true): Promise<Response> {
  return fetch(`${b.url}/api/core/v2/whiteflag`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  a = await startTestNode(['--milestone-interval', '3600', '--coordinator-key', K.seed]);
  b = await startTestNode(['--no-coordinator', '--coordinator-public-key', K.publicKey]);
  token = await issueToken(readFileSync(join(b.dataDir, 'jwt-secret'), 'utf8').trim());
  const first = (await getJson(a.url, '/api/core/v2/milestones/by-index/1')).body;
  expect((await postBlock(b.url, milestoneBlock(first))).status).toBe(201);
  for (const tag of ['one', 'two']) {
    const id = await submitPayload(a.url, { type: 5, tag: '0x77666c', data: `0x${Buffer.from(tag).toString('hex')}` });
    expect((await postBlock(b.url, await rawBlock(a.url, id))).status).toBe(201);
  }
  await milestone(a);
  next = (await getJson(a.url, '/api/core/v2/milestones/by-index/2')).body;
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const request = () => ({
  index: next.index,
  timestamp: next.timestamp,
  parents: next.parents,
  previousMilestoneId: next.previousMilestoneId,
});

it('answers the roots of the milestone the coordinator issued next, and writes nothing', async () => {
  const res = await whiteFlag(request());
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({
    inclusionMerkleRoot: next.inclusionMerkleRoot,
    appliedMerkleRoot: next.appliedMerkleRoot,
  });
  const info = (await getJson(b.url, '/api/core/v2/info')).body.status;
  expect(info.confirmedMilestone.index).toBe(1);
  // The milestone itself is still taken afterwards.
  expect((await postBlock(b.url, milestoneBlock(next))).status).toBe(201);
  expect((await getJson(b.url, '/api/core/v2/info')).body.status.confirmedMilestone.index).toBe(2);
});

it('refuses as Hornet does', async () => {
  expect((await whiteFlag(request(), false)).status).not.toBe(200);
  const notNext = await whiteFlag({ ...request(), index: 9 });
  expect(notNext.status).toBe(503);
  expect((await notNext.json()).error.message).toMatch(/failed to compute white flag mutations/);
  expect((await whiteFlag({ ...request(), index: 3, parents: [] })).status).toBe(400);
  expect((await whiteFlag({ ...request(), parents: ['0x12'] })).status).toBe(400);
  expect((await whiteFlag({ ...request(), timestamp: -1 })).status).toBe(400);
  // A parent nobody has: waited for 2 s, then 503.
  const unknown = await whiteFlag({ ...request(), index: 3, parents: [`0x${'ab'.repeat(32)}`] });
  expect(unknown.status).toBe(503);
});
