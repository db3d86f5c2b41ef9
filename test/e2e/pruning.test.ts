// Pruning through a running node (docs/configuration.md#pruning): POST
// /api/core/v2/control/database/prune behind the JWT, answered as Hornet answers it; after a
// run the pruned blocks, milestones and inclusions are 404, /info reports the pruning index,
// new blocks and transfers still confirm. Then kill -9 of a node process while a run works,
// at several points of it: restarted, the node opens, finishes the run, keeps the supply and
// every block and milestone above the pruning index.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, issueToken, spawnNode, startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  sleep,
  submitPayload,
  testKey,
  transferAndWait,
  unspentSum,
  type RestJson,
  type Spendable,
} from './transactions';

const COORDINATOR = testKey('pruning coordinator');

/** A config file with Hornet's pruning keys: no automatic pruning (the test asks for it). */
function configFile(dataDir: string, pruning: object): string {
  const file = join(dataDir, '..', `${dataDir.split('/').pop()}-config.json`);
  writeFileSync(file, JSON.stringify({ pruning }));
  return file;
}

const MANUAL = { milestones: { enabled: false }, size: { enabled: false } };

async function confirmedIndex(url: string): Promise<number> {
  return (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index;
}

async function pruningIndex(url: string): Promise<number> {
  return (await getJson(url, '/api/core/v2/info')).body.status.pruningIndex;
}

/** What the history holds: blocks and transactions with the milestone that settled them. */
interface History {
  blocks: Map<string, number>;
  transactions: Map<string, number>;
  outputIds: Set<string>;
  current: Spendable;
  supply: bigint;
}

async function startHistory(url: string): Promise<History> {
  const genesis = await genesisSpendable(url);
  return {
    blocks: new Map(),
    transactions: new Map(),
    outputIds: new Set([genesis.outputId]),
    current: genesis,
    supply: BigInt(genesis.output.amount),
  };
}

/** One transfer (waited for) and a few data blocks, recorded with their milestone. */
async function grow(url: string, h: History, n: number, blocks = 3): Promise<void> {
  const networkId = await networkIdOf(url);
  const ids: string[] = [];
  for (let i = 0; i < blocks; i++)
    ids.push(
      await submitPayload(url, {
        type: 5,
        tag: '0x7072756e65',
        data: '0x' + Buffer.alloc(2000, `${n} ${i} `).toString('hex'),
      }),
    );
  const owner = h.current.key;
  const tx = buildTransfer(
    networkId,
    [h.current],
    [{ to: owner === genesisKey ? testKey(n) : genesisKey, amount: h.supply }],
  );
  for (const o of tx.outputs) h.outputIds.add(o.outputId);
  const meta = await transferAndWait(url, tx, 30_000);
  h.transactions.set(tx.transactionId, meta.referencedByMilestoneIndex);
  h.blocks.set(meta.blockId, meta.referencedByMilestoneIndex);
  h.current = tx.outputs[0];
  for (const id of ids) {
    const m = await poll(`block ${id} referenced`, async () => {
      const { status, body } = await getJson(url, `/api/core/v2/blocks/${id}/metadata`);
      if (status !== 200) return undefined;
      if (body.referencedByMilestoneIndex !== undefined) return body.referencedByMilestoneIndex as number;
      return body.shouldReattach ? 0 : undefined;
    });
    if (m > 0) h.blocks.set(id, m);
  }
}

/** Everything at or below the pruning index is 404, everything above it is there. */
async function checkHistory(url: string, h: History): Promise<number> {
  const pruning = await pruningIndex(url);
  const confirmed = await confirmedIndex(url);
  for (const [id, m] of h.blocks) {
    const { status } = await getJson(url, `/api/core/v2/blocks/${id}/metadata`);
    expect(status, `block ${id} of milestone ${m}, pruning index ${pruning}`).toBe(m <= pruning ? 404 : 200);
  }
  for (const [id, m] of h.transactions) {
    const { status } = await getJson(url, `/api/core/v2/transactions/${id}/included-block`);
    expect(status, `transaction of milestone ${m}`).toBe(m <= pruning ? 404 : 200);
  }
  for (let i = Math.max(1, pruning - 3); i <= confirmed; i++) {
    const { status } = await getJson(url, `/api/core/v2/milestones/by-index/${i}`);
    expect(status, `milestone ${i}, pruning index ${pruning}`).toBe(i <= pruning ? 404 : 200);
  }
  expect(await unspentSum(url, h.outputIds)).toBe(h.supply);
  return pruning;
}

function prune(url: string, body: unknown, token?: string, type = 'application/json'): Promise<Response> {
  return fetch(`${url}/api/core/v2/control/database/prune`, {
    method: 'POST',
    headers: { 'Content-Type': type, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function answer(res: Response): Promise<[number, RestJson]> {
  return [res.status, await res.json()];
}

describe('pruning through the REST route', () => {
  it('prunes by depth and index behind the JWT, answers as Hornet, and the node goes on', async () => {
    const dataDir = tempDataDir();
    const node: TestNode = await startTestNode(
      ['--config', configFile(dataDir, MANUAL), '--milestone-interval', '1', '--coordinator-key', COORDINATOR.seed],
      dataDir,
    );
    try {
      const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
      const h = await startHistory(node.url);
      for (let n = 1; (await confirmedIndex(node.url)) < 42; n++) await grow(node.url, h, n, 2);

      // Protected, and Hornet's 400s for the body.
      expect((await prune(node.url, { depth: 20 })).status).toBe(403);
      const either = 'either index, depth or size has to be specified';
      for (const body of [{}, { index: 20, depth: 20 }, { depth: 20, targetDatabaseSize: '1GB' }])
        expect(await answer(await prune(node.url, body, token))).toEqual([
          400,
          { error: { code: '400', message: `invalid data provided: ${either}` } },
        ]);
      expect((await prune(node.url, { targetDatabaseSize: 20 }, token)).status).toBe(400);
      expect((await prune(node.url, { index: -1 }, token)).status).toBe(400);
      expect((await prune(node.url, '{', token)).status).toBe(400);
      expect((await prune(node.url, 'index=3', token, 'text/plain')).status).toBe(400);
      // Hornet's 500s: refused runs, and a size it cannot read.
      expect(await answer(await prune(node.url, { index: 0 }, token))).toEqual([
        500,
        {
          error: {
            code: '500',
            message:
              'internal server error: pruning database failed: pruning index: 0, target index: 0: no pruning needed',
          },
        },
      ]);
      const [status, body] = await answer(await prune(node.url, { targetDatabaseSize: 'lots' }, token));
      expect(status).toBe(500);
      expect(body.error.message).toMatch(/^internal server error: pruning database failed: invalid size/);

      // By depth: the target is the confirmed index less the depth (at most the confirmed
      // index less belowMaxDepth + 5).
      const confirmed = await confirmedIndex(node.url);
      const [ok, pruned] = await answer(await prune(node.url, { depth: 25 }, token));
      expect(ok).toBe(200);
      expect(pruned.index).toBeGreaterThanOrEqual(confirmed - 25);
      expect(pruned.index).toBeLessThanOrEqual((await confirmedIndex(node.url)) - 20);
      expect(await pruningIndex(node.url)).toBe(pruned.index);
      expect(await checkHistory(node.url, h)).toBe(pruned.index);
      // Too soon again: Hornet's "not enough history".
      const [again, refused] = await answer(await prune(node.url, { index: pruned.index + 3 }, token));
      expect(again).toBe(500);
      expect(refused.error.message).toMatch(/not enough history$/);

      // New blocks solidify, transfers confirm; then by index, capped.
      for (let n = 100; (await confirmedIndex(node.url)) < pruned.index + 38; n++) await grow(node.url, h, n, 1);
      const cap = (await confirmedIndex(node.url)) - 20;
      const [ok2, byIndex] = await answer(await prune(node.url, { index: 100_000 }, token));
      expect(ok2).toBe(200);
      expect(byIndex.index).toBeGreaterThanOrEqual(cap);
      expect(await checkHistory(node.url, h)).toBe(byIndex.index);
      await grow(node.url, h, 200, 1);
      await checkHistory(node.url, h);
    } finally {
      await node.stop();
    }
  }, 240_000);
});

describe('kill -9 while pruning', () => {
  it('opens again, finishes the run and loses nothing above the pruning index', async () => {
    const dataDir = tempDataDir();
    const flags = [
      '--config',
      configFile(dataDir, MANUAL),
      '--milestone-interval',
      '1',
      '--coordinator-key',
      COORDINATOR.seed,
      '--log-level',
      'warn',
    ];
    let node = await spawnNode(flags, dataDir);
    const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
    const h = await startHistory(node.url);
    let last = 0;
    try {
      // The kill lands this long after the request was sent: before the run, within it (the
      // entry points, the deletions, the compaction) or after it. Whichever it is, the checks
      // after the restart are the same.
      for (const delay of [0, 5, 20, 60]) {
        for (let n = 1; (await confirmedIndex(node.url)) < last + 37; n++) await grow(node.url, h, n + last * 10, 6);
        const target = (await confirmedIndex(node.url)) - 20;
        const request = prune(node.url, { index: target }, token).catch(() => undefined);
        await sleep(delay);
        node.child.kill('SIGKILL');
        await exited(node.child);
        await request;
        node = await spawnNode(flags, dataDir);
        expect(await pruningIndex(node.url)).toBeGreaterThanOrEqual(last);
        // The run again: it was done before the kill, or the node finishes a stopped one at
        // start (503 meanwhile, then "no pruning needed"), or it had not begun (200).
        await poll('the run to the target', async () => {
          const [status, body] = await answer(await prune(node.url, { index: target }, token));
          if (status === 503) return undefined;
          if (status === 200) expect(body.index).toBe(target);
          else expect(body.error.message).toMatch(/no pruning needed$/);
          return true;
        });
        expect(await pruningIndex(node.url)).toBe(target);
        expect(await checkHistory(node.url, h)).toBe(target);
        last = target;
      }
      await grow(node.url, h, 9999, 1);
      await checkHistory(node.url, h);
    } finally {
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    }
  }, 600_000);
});
