// Mining for submitted blocks, end to end against real nodes (issue 10, pow.md §6):
// every rule that does not depend on the nonce is checked before any mining; mining runs
// on the node's own bounded pool, so a storm of heavy mining requests neither delays
// blocks that need no mining nor grows without bound; a client that goes away takes its
// job with it, and so does shutdown.
//
// Whether a job was ever created, is waiting, running or gone is read from the node's
// metrics (ledger_node_pow_jobs, ledger_node_pow_jobs_total), not inferred from timing.
// Every job a test counts is one that cannot finish while the test runs (a score no block
// reaches, or a pool that holds its jobs): however fast the machine mines, none is done
// before the test lets it go. The pool gives each client (by address) a share (pool.rs):
// a storm of many clients sends each request from its own loopback address (127.0.0.x).

import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, issueToken, startTestNode, type TestNode, useTestNode } from './node-harness';

const MAX_SCORE = '4294967295';
const SEP = ['0x' + '00'.repeat(32), '0x' + '00'.repeat(31) + '01'];
const tagged = (data: string, size = data.length) => ({
  type: 5,
  tag: '0x' + Buffer.from('mining').toString('hex'),
  data: '0x' + Buffer.from(data.padEnd(size, '.')).toString('hex'),
});

interface Client {
  node: TestNode;
  token: string;
}

async function client(node: TestNode): Promise<Client> {
  const secret = readFileSync(join(node.dataDir, 'jwt-secret'), 'utf8').trim();
  return { node, token: await issueToken(secret) };
}

function submit(
  node: TestNode,
  body: unknown,
  init: { binary?: boolean; signal?: AbortSignal } = {},
): Promise<Response> {
  const binary = init.binary ?? false;
  return fetch(`${node.url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': binary ? 'application/vnd.ledger.serializer-v1' : 'application/json' },
    body: binary ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
    signal: init.signal,
  });
}

/** The pool's gauges and the job outcomes counted so far, from /metrics. */
async function pool(c: Client): Promise<{ queued: number; running: number; outcomes: Record<string, number> }> {
  const text = await (await fetch(`${c.node.url}/metrics`, { headers: { Authorization: `Bearer ${c.token}` } })).text();
  const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  const outcomes: Record<string, number> = {};
  for (const m of text.matchAll(/^ledger_node_pow_jobs_total\{outcome="([a-z-]+)"\} (\d+)/gm))
    outcomes[m[1]] = Number(m[2]);
  return {
    queued: value(/^ledger_node_pow_jobs\{state="queued"\} (\d+)/m),
    running: value(/^ledger_node_pow_jobs\{state="running"\} (\d+)/m),
    outcomes,
  };
}

/** Poll the metrics until `done` holds (the deadline only bounds a failing test). */
async function until(
  c: Client,
  done: (p: Awaited<ReturnType<typeof pool>>) => boolean,
): Promise<Awaited<ReturnType<typeof pool>>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const p = await pool(c);
    if (done(p)) return p;
    if (Date.now() > deadline) throw new Error(`pool never reached the expected state: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Jobs counted as disconnected between two readings. The gauges come from the one native
 * pool and drop the moment a job is cancelled; the outcome is counted by the HTTP loop that
 * took the request once the cancellation reaches it, so a reading can see the first before
 * the second: wait for both.
 */
function disconnectedSince(before: Awaited<ReturnType<typeof pool>>, now: Awaited<ReturnType<typeof pool>>): number {
  return (now.outcomes.disconnected ?? 0) - (before.outcomes.disconnected ?? 0);
}

async function expect400(res: Response, path: string): Promise<void> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe('400');
  expect(body.error.message.startsWith(`invalid data provided: ${path}`), body.error.message).toBe(true);
}

/** `submit` of JSON from the loopback address `from`: another client for the node. */
function submitFrom(node: TestNode, body: unknown, from: string, signal: AbortSignal): Promise<Response> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${node.url}/api/core/v2/blocks`,
      {
        method: 'POST',
        localAddress: from,
        signal,
        headers: { 'Content-Type': 'application/json', 'Content-Length': data.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = Object.entries(res.headers).filter((e): e is [string, string] => typeof e[1] === 'string');
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * Requests that keep the pool busy: 32 kB blocks that need mining, each from its own
 * address (many clients), or all from `from` (one client).
 */
function storm(node: TestNode, count: number, label: string, from?: string) {
  const controller = new AbortController();
  const answered: unknown[] = [];
  const requests = Array.from({ length: count }, (_, i) =>
    submitFrom(
      node,
      { protocolVersion: 2, payload: tagged(`${label} ${i}`, 32_000) },
      from ?? `127.0.0.${10 + i}`,
      controller.signal,
    )
      .catch((err) => err)
      .then((answer) => {
        answered.push(answer);
        return answer;
      }),
  );
  return { requests, answered, settled: () => answered.length, stop: () => controller.abort() };
}

describe.each([
  ['1500', 'the default minPowScore'],
  [MAX_SCORE, 'a score no block reaches'],
])('minPowScore %s (%s): invalid blocks without a nonce get 400 before any mining', (score) => {
  let node: TestNode;
  let c: Client;
  beforeAll(async () => {
    node = await startTestNode(['--min-pow-score', score]);
    c = await client(node);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('refuses every kind of invalid block, as JSON and as bytes, without creating a mining job', async () => {
    const { tips } = await (await fetch(`${node.url}/api/core/v2/tips`)).json();
    const unknown = ['0x' + 'ee'.repeat(32), '0x' + 'ef'.repeat(32)];
    const transaction = {
      type: 6,
      essence: {
        type: 1,
        networkId: core.networkId('some-other-network'),
        inputs: [{ type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 0 }],
        inputsCommitment: '0x' + '00'.repeat(32),
        outputs: [
          {
            type: 3,
            amount: '1000000',
            unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: '0x' + '42'.repeat(32) } }],
          },
        ],
      },
      unlocks: [
        { type: 0, signature: { type: 0, publicKey: '0x' + '11'.repeat(32), signature: '0x' + '22'.repeat(64) } },
      ],
    };
    const milestone = await (await fetch(`${node.url}/api/core/v2/milestones/by-index/1`)).json();
    const cases: [string, Record<string, unknown>, string][] = [
      // Data under the 32,768 bytes the JSON schema allows, the block over the limit.
      [
        'oversize, no parents',
        { protocolVersion: 2, payload: tagged('big', 32_760) },
        'a block has at most 32768 bytes',
      ],
      [
        'oversize, on tips',
        { protocolVersion: 2, parents: tips, payload: tagged('big', 32_760) },
        'a block has at most 32768 bytes',
      ],
      ['40 kB of data', { protocolVersion: 2, parents: tips, payload: tagged('bigger', 40_000) }, ''],
      [
        'unsorted parents',
        { protocolVersion: 2, parents: [...SEP].reverse(), payload: tagged('unsorted') },
        'parents[1]',
      ],
      [
        'tag too long',
        { protocolVersion: 2, parents: tips, payload: { type: 5, tag: '0x' + 'aa'.repeat(65), data: '0x' } },
        'payload.tag',
      ],
      ['wrong network id', { protocolVersion: 2, parents: tips, payload: transaction }, 'payload.essence.networkId'],
      ['unknown parents', { protocolVersion: 2, parents: unknown, payload: tagged('orphan') }, 'parents[0]'],
      ['milestone payload', { protocolVersion: 2, parents: milestone.parents, payload: milestone }, 'payload'],
    ];
    for (const [name, block, path] of cases) {
      await expect400(await submit(node, block), path).catch((err) => {
        throw new Error(`JSON, ${name}: ${err.message}`);
      });
      const parentsGiven = Array.isArray(block.parents);
      const bytes = core.encodeBlock({ ...block, parents: parentsGiven ? block.parents : SEP, nonce: '0' });
      // A binary block without parents has a parents count of 0 (the node fills tips).
      const binary = parentsGiven ? bytes : Buffer.concat([Buffer.from([2, 0]), bytes.subarray(2 + 64)]);
      await expect400(await submit(node, binary, { binary: true }), path).catch((err) => {
        throw new Error(`bytes, ${name}: ${err.message}`);
      });
    }
    await expect400(
      await submit(node, { protocolVersion: 3, parents: tips, payload: tagged('v3') }),
      'protocolVersion',
    );
    const v3 = core.encodeBlock({ protocolVersion: 2, parents: tips, payload: tagged('v3'), nonce: '0' });
    v3[0] = 3;
    await expect400(await submit(node, v3, { binary: true }), 'protocolVersion');
    const trailing = Buffer.concat([
      core.encodeBlock({ protocolVersion: 2, parents: tips, payload: tagged('trailing'), nonce: '0' }),
      Buffer.alloc(1),
    ]);
    const res = await submit(node, trailing, { binary: true });
    expect(res.status).toBe(400);

    const after = await pool(c);
    expect(after).toEqual({ queued: 0, running: 0, outcomes: {} });
  });
});

describe('valid blocks without a nonce are mined', () => {
  const node = useTestNode(['--min-pow-score', '1500']);

  it('mines a small block at minPowScore 1500 and stores it', async () => {
    const res = await submit(node, { protocolVersion: 2, payload: tagged('mined by the node') });
    expect(res.status).toBe(201);
    const { blockId } = await res.json();
    const bytes = Buffer.from(
      await (
        await fetch(`${node.url}/api/core/v2/blocks/${blockId}`, {
          headers: { Accept: 'application/vnd.ledger.serializer-v1' },
        })
      ).arrayBuffer(),
    );
    expect(core.powScore(bytes)).toBeGreaterThanOrEqual(1500);
  });
});

type MineOptions = Parameters<InstanceType<typeof core.MiningPool>['mine']>[1];

/**
 * The node's kind of pool (slots, queue, cancellation: D27), except that every job mines to a
 * score no block reaches: a job runs until it is cancelled, however fast the machine mines.
 * For a node whose minPowScore must stay reachable (blocks mined here are stored meanwhile).
 */
class HoldingPool extends core.MiningPool {
  override mine(bytes: Buffer, options: MineOptions) {
    return super.mine(bytes, { ...options, targetScore: Number(MAX_SCORE) });
  }
}

describe('a mining storm at minPowScore 1500, on a pool whose jobs never finish', () => {
  // At 1500 a 32 kB block takes 3^17 hashes on average, but any one job may be done in a
  // fraction of a second: only a pool that holds its jobs keeps every slot and the queue
  // taken for as long as the test needs them.
  const QUEUE = 4;
  let node: TestNode;
  let c: Client;
  /** Slots of the pool: one job per core at one thread each. */
  let slots: number;
  let stored: Record<string, unknown>;
  beforeAll(async () => {
    slots = core.powInfo().threads;
    node = await startTestNode(['--min-pow-score', '1500', '--pow-threads', '1', '--rest-workers', '1'], undefined, {
      miner: new HoldingPool({ jobs: slots, queueSize: QUEUE }),
    });
    c = await client(node);
    const { tips } = await (await fetch(`${node.url}/api/core/v2/tips`)).json();
    const block = { protocolVersion: 2, parents: tips, payload: tagged('stored before the storm') };
    stored = { ...block, nonce: (await core.mine(block, { targetScore: 1500 })).nonce };
    expect((await submit(node, stored)).status).toBe(201);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('answers blocks that need no mining, and reads, at once while every slot and the queue are busy', async () => {
    const { tips } = await (await fetch(`${node.url}/api/core/v2/tips`)).json();
    const fresh = { protocolVersion: 2, parents: tips, payload: tagged('carries its nonce') };
    const withNonce = { ...fresh, nonce: (await core.mine(fresh, { targetScore: 1500 })).nonce };
    const before = await pool(c);
    // More heavy requests than libuv has threads (4): before the pool, they stalled the store.
    const heavy = storm(node, slots + QUEUE, 'storm');
    try {
      await until(c, (p) => p.running === slots && p.queued === QUEUE);
      const again = await submit(node, stored);
      expect(again.status).toBe(201);
      expect((await again.json()).blockId).toBe(core.blockId(stored));
      const created = await submit(node, withNonce);
      expect(created.status).toBe(201);
      const { blockId } = await created.json();
      expect((await fetch(`${node.url}/api/core/v2/blocks/${blockId}/metadata`)).status).toBe(200);
      // …all while the storm lasts: no heavy request has been answered, the pool is still full.
      expect(heavy.settled()).toBe(0);
      expect(await pool(c)).toMatchObject({ running: slots, queued: QUEUE });
    } finally {
      heavy.stop();
    }
    const drained = await until(
      c,
      (p) => p.running === 0 && p.queued === 0 && disconnectedSince(before, p) >= slots + QUEUE,
    );
    expect(disconnectedSince(before, drained)).toBe(slots + QUEUE);
  });
});

describe('a mining storm at a score no block reaches', () => {
  // No job of this node can finish: the counts below are exact on any machine.
  const QUEUE = 4;
  let node: TestNode;
  let c: Client;
  let slots: number;
  beforeAll(async () => {
    node = await startTestNode(['--min-pow-score', MAX_SCORE, '--pow-threads', '1', '--pow-queue-size', String(QUEUE)]);
    c = await client(node);
    slots = core.powInfo().threads;
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('answers 503 with Retry-After at once when the queue is full', async () => {
    const before = await pool(c);
    const heavy = storm(node, slots + QUEUE, 'full');
    try {
      await until(c, (p) => p.running === slots && p.queued === QUEUE);
      const res = await submit(node, { protocolVersion: 2, payload: tagged('one too many') });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: { code: '503', message: 'service unavailable: too many blocks are waiting for proof of work' },
      });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(heavy.settled()).toBe(0);
      expect((await pool(c)).outcomes['queue-full']).toBe((before.outcomes['queue-full'] ?? 0) + 1);
    } finally {
      heavy.stop();
    }
    // Every job of the storm counted before the next test reads its own starting figures.
    const drained = await until(
      c,
      (p) => p.running === 0 && p.queued === 0 && disconnectedSince(before, p) >= slots + QUEUE,
    );
    expect(disconnectedSince(before, drained)).toBe(slots + QUEUE);
  });

  it('keeps the last places of a flooding client’s storm for other clients', async () => {
    // slots + QUEUE places; the last quarter (at least one) only for clients holding fewer.
    const places = slots + QUEUE;
    const reserve = Math.floor(places / 4);
    const before = await pool(c);
    const refused = (p: Awaited<ReturnType<typeof pool>>) =>
      (p.outcomes['queue-full'] ?? 0) - (before.outcomes['queue-full'] ?? 0);
    const flood = storm(node, places, 'flood', '127.0.0.2');
    try {
      await until(c, (p) => p.running + p.queued === places - reserve && refused(p) === reserve);
      // The flood's requests beyond its share were refused at once.
      expect(flood.settled()).toBe(reserve);
      for (const res of flood.answered) expect((res as Response).status).toBe(503);
      // Another client still gets a place.
      const another = storm(node, 1, 'another', '127.0.0.3');
      await until(c, (p) => p.running + p.queued === places - reserve + 1);
      expect(another.settled()).toBe(0);
      another.stop();
    } finally {
      flood.stop();
    }
    await until(c, (p) => p.running === 0 && p.queued === 0 && disconnectedSince(before, p) >= places - reserve + 1);
  });

  it('cancels the job of a client that disconnects, waiting or running', async () => {
    const before = await pool(c);
    const running = storm(node, slots, 'running');
    await until(c, (p) => p.running === slots && p.queued === 0);
    const waiting = storm(node, 1, 'waiting');
    await until(c, (p) => p.queued === 1);
    waiting.stop();
    // The waiting job leaves the queue while the running ones go on.
    const afterWaiting = await until(c, (p) => p.queued === 0 && disconnectedSince(before, p) >= 1);
    expect(afterWaiting.running).toBe(slots);
    expect(disconnectedSince(before, afterWaiting)).toBe(1);
    running.stop();
    const after = await until(c, (p) => p.running === 0 && disconnectedSince(before, p) >= slots + 1);
    expect(disconnectedSince(before, after)).toBe(slots + 1);
    expect(after.outcomes.mined ?? 0).toBe(before.outcomes.mined ?? 0);
  });
});

describe('shutdown', () => {
  it('cancels every mining job and answers their clients 503', async () => {
    const node = await startTestNode(['--min-pow-score', MAX_SCORE, '--pow-threads', '1', '--pow-queue-size', '2']);
    const c = await client(node);
    const slots = core.powInfo().threads;
    const heavy = storm(node, slots + 2, 'shutdown');
    await until(c, (p) => p.running === slots && p.queued === 2);
    await node.stop();
    const answers = await Promise.all(heavy.requests);
    for (const res of answers) {
      // Each client gets the 503, unless the grace period had to cut its connection first.
      if (res instanceof Response) {
        expect(res.status).toBe(503);
        expect((await res.json()).error.message).toBe('service unavailable: node is shutting down');
      }
    }
    expect(answers.some((r) => r instanceof Response)).toBe(true);
  });
});
