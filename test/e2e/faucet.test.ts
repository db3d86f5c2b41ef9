// The faucet (issue 11 item 3, docs/faucet.md) on a dev-network node: inx-faucet's answers
// (info, 202 on enqueue), exact payouts found through the indexer, many requests batched
// into one transaction per milestone within the protocol's 128 outputs, the per-address
// cool-down, the D6 errors for bad input, the per-client rate limit, and the faucet being
// off on any other network unless it has a key of its own.
//
// The faucet works once per milestone. Where a test's outcome depends on which requests or
// blocks a milestone finds, the node's coordinator waits an hour and the test issues the
// milestones itself (`milestone` of the harness, as the coordinator would): a request waits
// exactly until the test's next milestone, whatever the machine's speed.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, milestone, startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  minedBlock,
  networkIdOf,
  poll,
  postBlock,
  type RestJson,
  sleep,
  testKey,
} from './transactions';

const SUPPLY = 4_600_000_000_000_000n;
const AMOUNT = 2_000_000n;
/**
 * The cool-down (s) counted from a request's acceptance. The cool-down test asks again
 * after that request was paid (two milestones and a few reads, about a second): a
 * cool-down this long leaves ample room on a loaded machine, and the test waits it out.
 */
const COOLDOWN = 10;
const DEV_BECH32 = 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc';
const bech32Of = (label: string | number, hrp = 'tst') =>
  core.bech32Encode(hrp, { type: 0, pubKeyHash: testKey(`faucet ${label}`).address });

function configFile(faucet: object): string {
  const dir = tempDataDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ faucet }));
  return file;
}

async function enqueue(
  url: string,
  body: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: RestJson; headers: Headers }> {
  const response = await fetch(`${url}/api/faucet/v1/enqueue`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The unspent basic outputs of `bech32` (ID and amount), once there are `count`. */
async function paid(url: string, bech32: string, count = 1): Promise<{ outputId: string; amount: bigint }[]> {
  const ids: string[] = await poll(
    `${count} payout(s) to ${bech32}`,
    async () => {
      const { body } = await getJson(url, `/api/indexer/v1/outputs/basic?address=${bech32}`);
      return body.items.length >= count ? body.items : undefined;
    },
    20_000,
    200,
  );
  return amounts(url, ids);
}

async function amounts(url: string, outputIds: string[]): Promise<{ outputId: string; amount: bigint }[]> {
  return Promise.all(
    outputIds.map(async (outputId) => ({
      outputId,
      amount: BigInt((await getJson(url, `/api/core/v2/outputs/${outputId}`)).body.output.amount),
    })),
  );
}

/**
 * On a node whose milestones the test issues: issue one, then watch `done` for a second
 * (the faucet takes its step at once; the pause keeps the ledger's timestamps near the
 * clock), and again, until `done` answers. The deadline only bounds a failing test.
 */
async function withMilestones<T>(
  node: TestNode,
  what: string,
  done: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await milestone(node);
    for (let i = 0; i < 10; i++) {
      const value = await done();
      if (value !== undefined) return value;
      await sleep(100);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** `paid` on a node whose milestones the test issues: milestones until there are `count` payouts. */
async function paidWithMilestones(
  node: TestNode,
  bech32: string,
  count = 1,
): Promise<{ outputId: string; amount: bigint }[]> {
  const ids = await withMilestones(node, `${count} payout(s) to ${bech32}`, async () => {
    const { body } = await getJson(node.url, `/api/indexer/v1/outputs/basic?address=${bech32}`);
    return body.items.length >= count ? (body.items as string[]) : undefined;
  });
  return amounts(node.url, ids);
}

describe('the faucet on the dev network', () => {
  let node: TestNode;
  let url: string;
  /** Base tokens the faucet has paid out so far. */
  let paidOut = 0n;

  beforeAll(async () => {
    const config = configFile({
      amount: Number(AMOUNT),
      cooldown: COOLDOWN,
      rateLimit: { maxRequests: 10_000, period: 1, maxBurst: 10_000 },
    });
    // Milestone 1 at start; the test issues the others.
    node = await startTestNode(['--milestone-interval', '3600', '--config', config]);
    url = node.url;
  });
  afterAll(() => node?.stop());

  it('is listed in /api/routes and tells its address, balance, HRP and token name', async () => {
    expect((await getJson(url, '/api/routes')).body.routes).toContain('faucet/v1');
    const response = await fetch(`${url}/api/faucet/v1/info`);
    expect(response.status).toBe(200);
    // The balance is a JSON number (as inx-faucet's), written with every digit.
    expect(await response.text()).toBe(
      `{"isHealthy":true,"address":"${DEV_BECH32}","balance":${SUPPLY},"tokenName":"Ledger Dev Token","bech32Hrp":"tst"}`,
    );
  });

  it('accepts a request (202), refuses a repeat while it waits (429), and pays the exact amount with the next milestone', async () => {
    const address = bech32Of('single');
    const accepted = await enqueue(url, { address });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ address, waitingRequests: 1 });
    // No milestone until the test issues one: the request is still waiting.
    const again = await enqueue(url, { address });
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('429');
    expect(again.body.error.message).toMatch(/already has a request waiting/);
    const outputs = await paidWithMilestones(node, address);
    expect(outputs.map((o) => o.amount)).toEqual([AMOUNT]);
    paidOut += AMOUNT;
    // The payout went through the node's pipeline like any client's: a block with a transaction, included.
    const transactionId = outputs[0].outputId.slice(0, 66);
    const { body: metadata } = await getJson(url, `/api/core/v2/transactions/${transactionId}/included-block/metadata`);
    expect(metadata.ledgerInclusionState).toBe('included');
    await poll(
      'the faucet balance to drop',
      async () => {
        const { body } = await getJson(url, '/api/faucet/v1/info');
        return BigInt(body.balance) === SUPPLY - paidOut ? true : undefined;
      },
      5_000,
      100,
    );
  });

  it('keeps an address waiting for the cool-down, then pays it again', async () => {
    const address = bech32Of('single');
    const early = await enqueue(url, { address });
    expect(early.status).toBe(429);
    expect(early.body.error.message).toMatch(new RegExp(`funded less than ${COOLDOWN} s ago`));
    const retryAfter = Number(early.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(COOLDOWN);
    await sleep(retryAfter * 1000 + 100);
    expect((await enqueue(url, { address })).status).toBe(202);
    expect((await paidWithMilestones(node, address, 2)).map((o) => o.amount)).toEqual([AMOUNT, AMOUNT]);
    paidOut += AMOUNT;
  });

  it('batches 200 requests into one transaction per milestone, at most 127 recipients and a remainder each', async () => {
    const addresses = Array.from({ length: 200 }, (_, i) => bech32Of(`batch ${i}`));
    // No milestone comes while they are made: all 200 wait for the same one.
    const answers = await Promise.all(addresses.map((address) => enqueue(url, { address })));
    expect(answers.map((a) => a.status)).toEqual(addresses.map(() => 202));
    expect(Math.max(...answers.map((a) => a.body.waitingRequests))).toBe(200);
    const unpaid = new Set(addresses);
    await withMilestones(node, 'all 200 payouts', async () => {
      for (const address of [...unpaid])
        if ((await getJson(url, `/api/indexer/v1/outputs/basic?address=${address}`)).body.items.length > 0)
          unpaid.delete(address);
      return unpaid.size === 0 ? true : undefined;
    });
    const outputs = (await Promise.all(addresses.map((address) => paid(url, address)))).flat();
    expect(outputs.map((o) => o.amount)).toEqual(addresses.map(() => AMOUNT));
    paidOut += AMOUNT * 200n;
    const transactions = [...new Set(outputs.map((o) => o.outputId.slice(0, 66)))];
    const details = await Promise.all(
      transactions.map(async (id) => ({
        block: (await getJson(url, `/api/core/v2/transactions/${id}/included-block`)).body,
        metadata: (await getJson(url, `/api/core/v2/transactions/${id}/included-block/metadata`)).body,
      })),
    );
    const outputCounts = details.map((d) => d.block.payload.essence.outputs.length).sort((a, b) => b - a);
    for (const count of outputCounts) expect(count).toBeLessThanOrEqual(128);
    expect(outputCounts.reduce((sum, n) => sum + n - 1, 0)).toBe(200); // recipients + one remainder each
    expect(outputCounts).toEqual([128, 74]); // 127 + remainder, 73 + remainder
    const milestones = details.map((d) => d.metadata.referencedByMilestoneIndex);
    expect(new Set(milestones).size).toBe(transactions.length);
    const { body: info } = await getJson(url, '/api/faucet/v1/info');
    expect(BigInt(info.balance)).toBe(SUPPLY - paidOut);
  });

  it('answers 400 with the D6 body for a bad address, another network, its own address or a malformed body', async () => {
    const cases: [unknown, RegExp][] = [
      [{ address: 'tst1notanaddress' }, /address: 'tst1notanaddress' is not a valid bech32 address/],
      [{ address: bech32Of('x', 'rms') }, /address: HRP 'rms' is another network's; this network uses 'tst'/],
      [{ address: DEV_BECH32 }, /faucet's own address/],
      [{}, /address: a bech32 address is required/],
      [{ address: 42 }, /address: a bech32 address is required/],
      ['{"address":', /body: malformed JSON/],
      ['["tst1"]', /body: must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const answer = await enqueue(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('400');
      expect(answer.body.error.message).toMatch(/^invalid data provided: /);
      expect(answer.body.error.message).toMatch(message);
    }
    expect((await enqueue(url, 'address=x', 'text/plain')).status).toBe(415);
  });

  it('accepts a plain form post', async () => {
    const address = bech32Of('form');
    const answer = await enqueue(url, `address=${address}`, 'application/x-www-form-urlencoded');
    expect(answer.status).toBe(202);
    expect(answer.body.address).toBe(address);
    await paidWithMilestones(node, address);
  });

  it("answers under /faucet/api as inx-faucet does at its root (wasp-cli's l1.faucetAddress), without a token", async () => {
    const info = await fetch(`${url}/faucet/api/info`);
    expect(info.status).toBe(200);
    expect((await info.json()).address).toBe(DEV_BECH32);
    const address = bech32Of('inx-faucet layout');
    // wasp-cli posts {"address":…} to <l1.faucetAddress>/api/enqueue and waits for 202.
    const response = await fetch(`${url}/faucet/api/enqueue`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address }),
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ address, waitingRequests: 1 });
    // The same queue as /api/faucet/v1: a repeat there is refused while the request waits.
    expect((await enqueue(url, { address })).status).toBe(429);
    expect((await paidWithMilestones(node, address)).map((o) => o.amount)).toEqual([AMOUNT]);
  });
});

describe('the faucet when someone else spends its outputs first (the dev key is public)', () => {
  let node: TestNode;
  beforeAll(async () => {
    // Milestone 1 at start; the test issues the others: no milestone can reference the
    // faucet's payout before the competing spend is there.
    node = await startTestNode(['--milestone-interval', '3600']);
  });
  afterAll(() => node?.stop());

  it('queues the requests of a conflicting payout again and pays them in a later milestone', async () => {
    const { url } = node;
    const recipient = bech32Of('conflict');
    expect((await enqueue(url, { address: recipient })).status).toBe(202);
    // The faucet pays with the next milestone: its block F appears among the tips.
    await milestone(node);
    const faucetBlock = await poll(
      'the faucet block among the tips',
      async () => {
        for (const tip of (await getJson(url, '/api/core/v2/tips')).body.tips as string[]) {
          const { body } = await getJson(url, `/api/core/v2/blocks/${tip}`);
          if (body.payload?.type === 6) return { blockId: tip, payload: body.payload };
        }
        return undefined;
      },
      30_000,
      20,
    );
    expect(faucetBlock.payload.essence.inputs).toEqual([
      { type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 0 },
    ]);
    // A competing spend of the genesis output, on other parents, with a smaller block ID
    // than F: the next milestone applies it first (white flag visits its sorted parents
    // in order), so F conflicts. Its outputs go back to the faucet's address.
    const genesis = await genesisSpendable(url);
    const networkId = await networkIdOf(url);
    // Two parents that are not F (D3): a current tip (the latest milestone's block) and a parent of it.
    const [tip] = ((await getJson(url, '/api/core/v2/tips')).body.tips as string[]).filter(
      (t) => t !== faucetBlock.blockId,
    );
    const others = [tip, (await getJson(url, `/api/core/v2/blocks/${tip}`)).body.parents[0]];
    let competing: Awaited<ReturnType<typeof minedBlock>> | undefined;
    for (let i = 0n; competing === undefined || competing.blockId >= faucetBlock.blockId; i++) {
      const transfer = buildTransfer(
        networkId,
        [genesis],
        [
          { to: genesisKey, amount: SUPPLY - 1_000_000n - i },
          { to: genesisKey, amount: 1_000_000n + i },
        ],
      );
      competing = await minedBlock(others, transfer.payload);
    }
    const posted = await postBlock(url, new Uint8Array(competing.bytes));
    expect(posted.status, await posted.clone().text()).toBe(201);
    // One milestone finds both.
    const { index } = await milestone(node);
    const { body: conflicted } = await getJson(url, `/api/core/v2/blocks/${faucetBlock.blockId}/metadata`);
    expect(conflicted.referencedByMilestoneIndex).toBe(index);
    expect(conflicted.ledgerInclusionState).toBe('conflicting');
    // Requeued and paid from the competing spend's outputs, exactly once.
    const outputs = await paidWithMilestones(node, recipient);
    expect(outputs.map((o) => o.amount)).toEqual([1_000_000_000n]);
    const { body: payout } = await getJson(
      url,
      `/api/core/v2/transactions/${outputs[0].outputId.slice(0, 66)}/included-block`,
    );
    expect(payout.payload.essence.inputs[0].transactionId).toBe(
      core.transactionId(core.decodeBlock(competing.bytes).payload!),
    );
    const { body: info } = await getJson(url, '/api/faucet/v1/info');
    expect(BigInt(info.balance)).toBe(SUPPLY - 1_000_000_000n);
  });
});

describe('the faucet rate limit', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode(['--config', configFile({ rateLimit: { maxRequests: 1, period: 60, maxBurst: 2 } })]);
  });
  afterAll(() => node?.stop());

  it('answers 429 with Retry-After past the burst, per client', async () => {
    expect((await enqueue(node.url, { address: bech32Of('rate 1') })).status).toBe(202);
    expect((await enqueue(node.url, { address: 'bad' })).status).toBe(400); // counted too
    const limited = await enqueue(node.url, { address: bech32Of('rate 2') });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/^too many requests: rate limit of 1 requests per 60 s exceeded/);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(50);
    // Info is not limited.
    expect((await fetch(`${node.url}/api/faucet/v1/info`)).status).toBe(200);
  });
});

describe('the faucet on other networks', () => {
  const owner = testKey('faucet other network');
  const genesis = core.bech32Encode('tst', { type: 0, pubKeyHash: owner.address });

  it('is off with another genesis address: not listed, 404', async () => {
    const node = await startTestNode(['--genesis-address', genesis]);
    try {
      expect((await getJson(node.url, '/api/routes')).body.routes).not.toContain('faucet/v1');
      expect((await getJson(node.url, '/api/faucet/v1/info')).status).toBe(404);
      expect((await fetch(`${node.url}/faucet`)).status).toBe(404);
    } finally {
      await node.stop();
    }
  });

  it.each([
    [['--no-faucet']],
    [['--no-indexer']], // it finds its outputs through the indexer
    [['--no-pow']], // its blocks need the node's proof of work (minPowScore > 0)
  ])('is off on the dev network with %j', async (flags) => {
    const node = await startTestNode(flags);
    try {
      expect((await getJson(node.url, '/api/routes')).body.routes).not.toContain('faucet/v1');
      expect((await getJson(node.url, '/api/faucet/v1/info')).status).toBe(404);
    } finally {
      await node.stop();
    }
  });

  it('on a follower without a milestone yet: unhealthy, balance 0, requests answered 503', async () => {
    const node = await startTestNode([
      '--no-coordinator',
      '--coordinator-public-key',
      testKey('faucet follower').publicKey,
    ]);
    try {
      const { status, body } = await getJson(node.url, '/api/faucet/v1/info');
      expect(status).toBe(200);
      expect(body).toEqual({
        isHealthy: false,
        address: DEV_BECH32,
        balance: 0,
        tokenName: 'Ledger Dev Token',
        bech32Hrp: 'tst',
      });
      const answer = await enqueue(node.url, { address: bech32Of('follower') });
      expect(answer.status).toBe(503);
      expect(answer.body.error.message).toBe('service unavailable: the node is not ready, try again later');
    } finally {
      await node.stop();
    }
  });

  it('runs with a configured key on another network and pays from that key', async () => {
    const node = await startTestNode([
      '--milestone-interval',
      '1',
      '--genesis-address',
      genesis,
      '--faucet-private-key',
      owner.seed,
    ]);
    try {
      const { body: info } = await getJson(node.url, '/api/faucet/v1/info');
      expect(info).toMatchObject({ address: genesis, balance: Number(SUPPLY) });
      const address = bech32Of('recipient on another network');
      expect((await enqueue(node.url, { address })).status).toBe(202);
      expect((await paid(node.url, address)).map((o) => o.amount)).toEqual([1_000_000_000n]);
    } finally {
      await node.stop();
    }
  });
});
