// The UTXO indexer end to end against real nodes (indexer.md): every example of §5 byte
// for byte on the worked history of the spec (ledger index 2), then a live node with
// transfers: filters, paging across milestones, consistency with the core API, the by-ID
// routes, every 400 reason, 404/405/503, public access and the routes list; and a node
// with the indexer switched off.

import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, WORKED } from '../vectors';
import { startTestNode, tempDataDir, type TestNode } from './node-harness';
import {
  GENESIS_OUTPUT_ID,
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  networkIdOf,
  testKey,
  transferAndWait,
  waitForInclusion,
  submitPayload,
  type Key,
} from './transactions';

const root = resolve(__dirname, '../..');
const { loadConfig } = require(join(root, 'dist/config/load.js')) as typeof import('../../src/config/load');
const { protocolOf } = require(join(root, 'dist/config/schema.js')) as typeof import('../../src/config/schema');
const { genesisOutputs } = require(join(root, 'dist/genesis.js')) as typeof import('../../src/genesis');
const { LedgerStore } = require(join(root, 'dist/core/store.js')) as typeof import('../../src/core/store');
const { startNode } = require(join(root, 'dist/node.js')) as typeof import('../../src/node');
const core = require(join(root, 'dist/index.js')) as typeof import('../../src/index');

// The spec's worked history (vectors/worked-examples.json; wire-format §9, ledger.md §7.4):
// the dev coordinator's seed (BLAKE2b-256 of "ledger-devnet-coordinator"), the recipient
// and genesis addresses, and the two outputs Example C (the genesis spend) creates.
// Examples B and C, both mined for minPowScore 1500, are replayed from there below.
const SPEC_COORDINATOR_SEED = WORKED.keys.coordinator.seed;
const RECIPIENT = WORKED.keys.recipient.bech32;
const GENESIS = WORKED.keys.genesis.bech32;
const [OUTPUT_0, OUTPUT_1] = WORKED.C.extra.outputIds;

async function text(url: string, path: string, init?: RequestInit): Promise<[number, string]> {
  const res = await fetch(url + path, init);
  return [res.status, await res.text()];
}

describe('indexer.md §5 on the worked history (ledger index 2)', () => {
  let node: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    // Milestones 1 and 2 at the spec's timestamps, then the node on the same data
    // directory with a coordinator that waits an hour: the ledger stays at index 2.
    const dataDir = tempDataDir();
    const config = loadConfig(
      [
        '--port',
        '0',
        '--bind',
        '127.0.0.1',
        '--data-dir',
        dataDir,
        '--coordinator-key',
        SPEC_COORDINATOR_SEED,
        '--milestone-interval',
        '3600',
      ],
      {},
    );
    const store = await LedgerStore.open(dataDir, {
      protocol: protocolOf(config),
      genesisOutputs: genesisOutputs(config),
      coordinator: { enabled: true, privateKeys: [SPEC_COORDINATOR_SEED], publicKeys: [] },
      syncWrites: false,
      blockCacheMiB: config.storage.blockCacheMiB,
      writeBuffersMiB: config.storage.writeBuffersMiB,
      tips: config.tips,
      indexer: { enabled: true },
    });
    await store.issueMilestone(WORKED.A.json.payload.timestamp);
    await store.submitBlock(bytesOf(WORKED.B.bytes));
    await store.submitBlock(bytesOf(WORKED.C.bytes));
    const second = await store.issueMilestone(WORKED.D.extra.timestamp);
    expect(second.blockId).toBe(WORKED.D.id);
    store.close();
    node = await startNode(config, { logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("answers the recipient wallet's first sync", async () => {
    expect(await text(node.url, `/api/indexer/v1/outputs?unlockableByAddress=${RECIPIENT}`)).toEqual([
      200,
      '{"ledgerIndex":2,"pageSize":1000,"items":["0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710000"]}',
    ]);
  });

  it('lists the plain basic outputs of the genesis address', async () => {
    expect(
      await text(
        node.url,
        `/api/indexer/v1/outputs/basic?address=${GENESIS}&hasExpiration=false&hasStorageDepositReturn=false&hasTimelock=false`,
      ),
    ).toEqual([
      200,
      '{"ledgerIndex":2,"pageSize":1000,"items":["0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100"]}',
    ]);
  });

  it('pages through all unspent outputs one at a time', async () => {
    expect(await text(node.url, '/api/indexer/v1/outputs?pageSize=1')).toEqual([
      200,
      '{"ledgerIndex":2,"pageSize":1,"cursor":"6553f10a77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100.1","items":["0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710000"]}',
    ]);
    expect(
      await text(
        node.url,
        '/api/indexer/v1/outputs?cursor=6553f10a77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100.1',
      ),
    ).toEqual([
      200,
      '{"ledgerIndex":2,"pageSize":1,"items":["0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100"]}',
    ]);
  });

  it('finds nothing, and refuses what is malformed', async () => {
    expect(await text(node.url, `/api/indexer/v1/outputs/nft?address=${RECIPIENT}`)).toEqual([
      200,
      '{"ledgerIndex":2,"pageSize":1000,"items":[]}',
    ]);
    expect(
      await text(
        node.url,
        '/api/indexer/v1/outputs/alias/0x0eefba3e6591b115cf0cb065c602d41b4dd61d8da1a3976613f7b41ba40de72e',
      ),
    ).toEqual([
      404,
      '{"error":{"code":"404","message":"could not find data: no unspent alias output with ID 0x0eefba3e6591b115cf0cb065c602d41b4dd61d8da1a3976613f7b41ba40de72e"}}',
    ]);
    expect(
      await text(
        node.url,
        '/api/indexer/v1/outputs/basic?address=rms1qz2fwnh90thjx9hmh24jyfeljy2gttvee35gkj3e3yljx9s50vjckrqknyg',
      ),
    ).toEqual([400, '{"error":{"code":"400","message":"invalid data provided: address: bech32 HRP must be tst"}}']);
    expect(await text(node.url, `/api/indexer/v1/outputs/foundry?aliasAddress=${RECIPIENT}`)).toEqual([
      400,
      '{"error":{"code":"400","message":"invalid data provided: aliasAddress: not an alias address"}}',
    ]);
    expect(await text(node.url, '/api/indexer/v1/outputs/basic?hasTimelock=maybe')).toEqual([
      400,
      '{"error":{"code":"400","message":"invalid data provided: hasTimelock: not a boolean"}}',
    ]);
  });

  it('keeps the order across kinds, filters by created time, and reads the core API consistently', async () => {
    const all = JSON.parse((await text(node.url, '/api/indexer/v1/outputs'))[1]);
    expect(all.items).toEqual([OUTPUT_0, OUTPUT_1]);
    expect(
      JSON.parse(
        (await text(node.url, '/api/indexer/v1/outputs/basic?createdAfter=1700000009&createdBefore=1700000011'))[1],
      ).items,
    ).toEqual([OUTPUT_0, OUTPUT_1]);
    expect(
      JSON.parse((await text(node.url, '/api/indexer/v1/outputs/basic?createdAfter=1700000010'))[1]).items,
    ).toEqual([]);
    expect(
      JSON.parse((await text(node.url, '/api/indexer/v1/outputs/basic?createdBefore=1700000010'))[1]).items,
    ).toEqual([]);
    for (const id of all.items) {
      const { status, body } = await getJson(node.url, `/api/core/v2/outputs/${id}/metadata`);
      expect(status).toBe(200);
      expect(body.isSpent).toBe(false);
      expect(body.ledgerIndex).toBe(all.ledgerIndex);
    }
    // The spent genesis output is listed nowhere.
    expect(all.items).not.toContain(GENESIS_OUTPUT_ID);
  });
});

describe('a live node', () => {
  let node: TestNode;
  let networkId: string;
  const owner = testKey('indexer owner');
  const other = testKey('indexer other');
  const bech32 = (key: Key) => core.bech32Encode('tst', key.address);
  const list = async (path: string) => {
    const { status, body } = await getJson(node.url, path);
    expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body as { ledgerIndex: number; pageSize: number; cursor?: string; items: string[] };
  };
  const error = async (path: string, status: number, message: string) => {
    expect(await text(node.url, path), path).toEqual([
      status,
      JSON.stringify({ error: { code: String(status), message } }),
    ]);
  };

  beforeAll(async () => {
    node = await startTestNode(['--milestone-interval', '1']);
    networkId = await networkIdOf(node.url);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('is public, listed in /api/routes, and answers GET only', async () => {
    expect((await getJson(node.url, '/api/routes')).body).toEqual({
      routes: ['core/v2', 'indexer/v1', 'mqtt/v1', 'dashboard-metrics/v1', 'faucet/v1'],
    });
    expect((await list('/api/indexer/v1/outputs')).items).toEqual([GENESIS_OUTPUT_ID]);
    expect((await list('/api/indexer/v1/outputs/')).items).toEqual([GENESIS_OUTPUT_ID]);
    expect((await list('/api/indexer/v1/outputs/basic/')).items).toEqual([GENESIS_OUTPUT_ID]);
    await error(
      '/api/indexer/v1/outputs/unknown',
      404,
      'could not find data: no route /api/indexer/v1/outputs/unknown',
    );
    await error('/api/indexer/v1/nothing', 404, 'could not find data: no route /api/indexer/v1/nothing');
    expect((await text(node.url, '/api/indexer/v1/outputs', { method: 'POST' }))[0]).toBe(405);
    expect((await text(node.url, '/api/indexer/v1/outputs/nft/0x' + '00'.repeat(32), { method: 'DELETE' }))[0]).toBe(
      405,
    );
  });

  it('follows transfers milestone by milestone: filters, paging and the core API agree', async () => {
    const genesis = await genesisSpendable(node.url);
    const supply = BigInt(genesis.output.amount);
    const lockUntil = Math.floor(Date.now() / 1000) + 5;
    const fan = buildTransfer(
      networkId,
      [genesis],
      [
        { to: owner, amount: 1_000_000 },
        { to: owner, amount: 2_000_000 },
        { to: owner, amount: 3_000_000, timelock: lockUntil },
        { to: other, amount: 4_000_000 },
        { to: genesisKey, amount: supply - 10_000_000n },
      ],
    );
    await transferAndWait(node.url, fan);
    const [o1, o2, o3, o4, rest] = fan.outputs.map((o) => o.outputId);

    const ownerOutputs = await list(`/api/indexer/v1/outputs/basic?address=${bech32(owner)}`);
    expect(ownerOutputs.items).toEqual([o1, o2, o3].sort());
    expect((await list(`/api/indexer/v1/outputs?unlockableByAddress=${bech32(owner)}`)).items).toEqual(
      [o1, o2, o3].sort(),
    );
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(owner)}&hasTimelock=true`)).items).toEqual([o3]);
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(owner)}&hasTimelock=0`)).items).toEqual(
      [o1, o2].sort(),
    );
    expect((await list(`/api/indexer/v1/outputs/basic?timelockedAfter=${lockUntil - 1}`)).items).toEqual([o3]);
    expect((await list(`/api/indexer/v1/outputs/basic?timelockedBefore=${lockUntil}`)).items).toEqual([]);
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(other)}`)).items).toEqual([o4]);
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(other).toUpperCase()}`)).items).toEqual([o4]);
    expect((await list(`/api/indexer/v1/outputs/alias?unlockableByAddress=${bech32(owner)}`)).items).toEqual([]);
    // Parameters a route does not take are ignored, even malformed ones; unknown ones too.
    expect(
      (await list(`/api/indexer/v1/outputs?address=${bech32(other)}&issuer=nonsense&whatever=1`)).items.length,
    ).toBe(5);

    // One per page, following the cursor: the owner's three outputs in order, each once.
    const seen: string[] = [];
    let page = await list(`/api/indexer/v1/outputs/basic?address=${bech32(owner)}&pageSize=1`);
    for (;;) {
      expect(page.pageSize).toBe(1);
      seen.push(...page.items);
      if (page.cursor === undefined) break;
      expect(page.cursor).toMatch(/^[0-9a-f]{76}\.1$/);
      page = await list(
        `/api/indexer/v1/outputs/basic?address=${bech32(owner)}&cursor=${page.cursor.toUpperCase()}&pageSize=50`,
      );
    }
    expect(seen).toEqual(ownerOutputs.items);

    // A cursor stays usable across milestones. The three outputs share a created time, so
    // they follow their output IDs (o1 < o2 < o3); the cursor after o1 names o2. o2 is
    // spent in between, and a new output of the owner appears (newer, so after o3).
    const first = await list(`/api/indexer/v1/outputs/basic?address=${bech32(owner)}&pageSize=1`);
    expect(first.items).toEqual([o1]);
    expect(first.cursor!.slice(8, 76)).toBe(o2.slice(2));
    const spend = buildTransfer(networkId, [fan.outputs[1]], [{ to: owner, amount: 2_000_000 }]);
    await transferAndWait(node.url, spend);
    const after = await list(
      `/api/indexer/v1/outputs/basic?address=${bech32(owner)}&cursor=${first.cursor!.split('.')[0]}.10`,
    );
    expect(after.items).toEqual([o3, spend.outputs[0].outputId]);
    expect(after.cursor).toBeUndefined();
    expect(after.ledgerIndex).toBeGreaterThan(first.ledgerIndex);

    // Everything listed reads unspent from the core API at the same ledger index.
    const everything = await list('/api/indexer/v1/outputs');
    expect(everything.items).not.toContain(o2);
    expect(everything.items).toContain(rest);
    for (const id of everything.items) {
      const { status, body } = await getJson(node.url, `/api/core/v2/outputs/${id}/metadata`);
      expect(status).toBe(200);
      expect(body.isSpent).toBe(false);
    }
    // Created-time bounds: the newest output alone.
    const newest = (await getJson(node.url, `/api/core/v2/outputs/${spend.outputs[0].outputId}/metadata`)).body
      .milestoneTimestampBooked;
    expect((await list(`/api/indexer/v1/outputs?createdAfter=${newest - 1}`)).items).toEqual([
      spend.outputs[0].outputId,
    ]);
    expect((await list(`/api/indexer/v1/outputs?createdBefore=${newest}`)).items).not.toContain(
      spend.outputs[0].outputId,
    );
  });

  it('never lists an output created and spent under the same milestone', async () => {
    const start = (await list(`/api/indexer/v1/outputs/basic?address=${bech32(other)}`)).items[0];
    const from = {
      outputId: start,
      output: (await getJson(node.url, `/api/core/v2/outputs/${start}`)).body.output,
      key: other,
    };
    const hop = testKey('indexer hop');
    const a = buildTransfer(networkId, [from], [{ to: hop, amount: 4_000_000 }]);
    const b = buildTransfer(networkId, [a.outputs[0]], [{ to: other, amount: 4_000_000 }]);
    await submitPayload(node.url, a.payload);
    await submitPayload(node.url, b.payload);
    const metadata = await waitForInclusion(node.url, b.transactionId);
    const aMeta = (await getJson(node.url, `/api/core/v2/outputs/${a.outputs[0].outputId}/metadata`)).body;
    if (aMeta.milestoneIndexSpent === aMeta.milestoneIndexBooked) {
      // The usual case: both in one milestone. Never indexed, never listed.
      expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(hop)}`)).items).toEqual([]);
    }
    expect(metadata.ledgerInclusionState).toBe('included');
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(hop)}`)).items).toEqual([]);
    expect((await list(`/api/indexer/v1/outputs/basic?address=${bech32(other)}`)).items).toEqual([
      b.outputs[0].outputId,
    ]);
  });

  it('refuses malformed values with 400 naming the parameter', async () => {
    const base = '/api/indexer/v1/outputs';
    const cases: [string, string][] = [
      [`${base}/basic?address=tst1qqqq`, 'address: '],
      [`${base}/basic?address=${RECIPIENT.slice(0, -1)}x`, 'address: '],
      [
        `${base}?unlockableByAddress=rms1qz2fwnh90thjx9hmh24jyfeljy2gttvee35gkj3e3yljx9s50vjckrqknyg`,
        'unlockableByAddress: bech32 HRP must be tst',
      ],
      [`${base}/basic?sender=abc`, 'sender: '],
      [`${base}/nft?issuer=tst1`, 'issuer: '],
      [`${base}/alias?stateController=x`, 'stateController: '],
      [`${base}/alias?governor=x`, 'governor: '],
      [`${base}/basic?storageDepositReturnAddress=x`, 'storageDepositReturnAddress: '],
      [`${base}/nft?expirationReturnAddress=x`, 'expirationReturnAddress: '],
      [`${base}/basic?hasStorageDepositReturn=yes`, 'hasStorageDepositReturn: not a boolean'],
      [`${base}/nft?hasExpiration=TrUe`, 'hasExpiration: not a boolean'],
      [`${base}?hasNativeTokens=2`, 'hasNativeTokens: not a boolean'],
      [`${base}/basic?timelockedBefore=-1`, 'timelockedBefore: not a decimal unsigned 32-bit number'],
      [`${base}/basic?timelockedAfter=4294967296`, 'timelockedAfter: not a decimal unsigned 32-bit number'],
      [`${base}/basic?expiresBefore=1.5`, 'expiresBefore: not a decimal unsigned 32-bit number'],
      [`${base}/nft?expiresAfter=0x10`, 'expiresAfter: not a decimal unsigned 32-bit number'],
      [`${base}?createdBefore=soon`, 'createdBefore: not a decimal unsigned 32-bit number'],
      [`${base}/foundry?createdAfter=1e3`, 'createdAfter: not a decimal unsigned 32-bit number'],
      [`${base}?minNativeTokenCount=65`, 'minNativeTokenCount: at most 64'],
      [`${base}/alias?maxNativeTokenCount=x`, 'maxNativeTokenCount: not a decimal unsigned 32-bit number'],
      [`${base}/basic?tag=abcd`, 'tag: not 0x followed by an even number of hex digits'],
      [`${base}/basic?tag=0xabc`, 'tag: not 0x followed by an even number of hex digits'],
      [`${base}/nft?tag=0x${'00'.repeat(65)}`, 'tag: more than 64 bytes'],
      [`${base}/foundry?aliasAddress=${GENESIS}`, 'aliasAddress: not an alias address'],
      [`${base}?cursor=abc`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'0'.repeat(76)}`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'0'.repeat(76)}.1.2`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'0'.repeat(75)}.1`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'g'.repeat(76)}.1`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'0'.repeat(76)}.4294967296`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}?cursor=${'0'.repeat(76)}.-1`, 'cursor: not <76 hex digits>.<page size>'],
      [`${base}/alias/0x1234`, 'aliasId: must be 0x followed by 64 hex digits'],
      [`${base}/nft/${'0'.repeat(66)}`, 'nftId: must be 0x followed by 64 hex digits'],
      [`${base}/foundry/0x${'00'.repeat(32)}`, 'foundryId: must be 0x followed by 76 hex digits'],
    ];
    for (const [path, reason] of cases) {
      const [status, body] = await text(node.url, path);
      expect(status, path).toBe(400);
      const { error: e } = JSON.parse(body);
      expect(e.code).toBe('400');
      expect(e.message.startsWith(`invalid data provided: ${reason}`), `${path}: ${e.message}`).toBe(true);
    }
  });

  it('accepts every boolean spelling, empty values, repeated parameters and any page size', async () => {
    for (const spelling of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
      expect((await list(`/api/indexer/v1/outputs/basic?hasNativeTokens=${spelling}`)).items).toEqual([]);
    }
    for (const spelling of ['0', 'f', 'F', 'FALSE', 'false', 'False']) {
      expect((await list(`/api/indexer/v1/outputs/basic?hasNativeTokens=${spelling}`)).items.length).toBeGreaterThan(0);
    }
    const all = (await list('/api/indexer/v1/outputs')).items;
    expect((await list('/api/indexer/v1/outputs?tag=&address=&hasTimelock=')).items).toEqual(all);
    expect((await list('/api/indexer/v1/outputs/basic?tag=0x')).items).toEqual(all);
    expect((await list('/api/indexer/v1/outputs/basic?hasTimelock=true&hasTimelock=nonsense')).items.length).toBe(1);
    for (const [asked, used] of [
      ['0', 1000],
      ['1001', 1000],
      ['-3', 1000],
      ['two', 1000],
      ['2', 2],
      ['1000', 1000],
    ] as const) {
      const page = await list(`/api/indexer/v1/outputs?pageSize=${asked}`);
      expect(page.pageSize, asked).toBe(used);
    }
    // With a cursor its own page size counts; .0 and too large mean the maximum.
    const page = await list('/api/indexer/v1/outputs?pageSize=1');
    const key = page.cursor!.split('.')[0];
    expect((await list(`/api/indexer/v1/outputs?cursor=${key}.2&pageSize=7`)).pageSize).toBe(2);
    expect((await list(`/api/indexer/v1/outputs?cursor=${key}.0`)).pageSize).toBe(1000);
    expect((await list(`/api/indexer/v1/outputs?cursor=${key}.99999`)).pageSize).toBe(1000);
  });

  it('answers the by-ID routes with 404 for chains that do not exist', async () => {
    await error(
      `/api/indexer/v1/outputs/nft/0x${'AB'.repeat(32)}`,
      404,
      `could not find data: no unspent nft output with ID 0x${'ab'.repeat(32)}`,
    );
    await error(
      `/api/indexer/v1/outputs/foundry/0x${'00'.repeat(38)}/`,
      404,
      `could not find data: no unspent foundry output with ID 0x${'00'.repeat(38)}`,
    );
  });
});

describe('other configurations', () => {
  it('is refused to anonymous clients when the public routes leave it out (403)', async () => {
    const dataDir = tempDataDir();
    const config = loadConfig(
      ['--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', '5'],
      {},
    );
    config.restApi.publicRoutes = ['/api/routes'];
    const node = await startNode(config, { logger: pino({ level: 'silent' }) });
    try {
      expect(await text(node.url, '/api/indexer/v1/outputs')).toEqual([
        403,
        '{"error":{"code":"403","message":"not available for public use"}}',
      ]);
    } finally {
      await node.stop();
    }
  });

  it('with --no-indexer: no routes, not listed; switched on again, rebuilt from the ledger', async () => {
    const dataDir = tempDataDir();
    const off = await startTestNode(['--no-indexer', '--milestone-interval', '1'], dataDir);
    let outputs: string[];
    try {
      expect((await getJson(off.url, '/api/routes')).body).toEqual({
        routes: ['core/v2', 'mqtt/v1', 'dashboard-metrics/v1'],
      });
      expect((await text(off.url, '/api/indexer/v1/outputs'))[0]).toBe(404);
      const networkId = await networkIdOf(off.url);
      const genesis = await genesisSpendable(off.url);
      const t = buildTransfer(
        networkId,
        [genesis],
        [
          { to: testKey('indexer off'), amount: 1_000_000 },
          { to: genesisKey, amount: BigInt(genesis.output.amount) - 1_000_000n },
        ],
      );
      await transferAndWait(off.url, t);
      outputs = t.outputs.map((o) => o.outputId).sort();
    } finally {
      await off.stop();
    }
    const on = await startTestNode(['--milestone-interval', '1'], dataDir);
    try {
      expect((await getJson(on.url, '/api/indexer/v1/outputs')).body.items.sort()).toEqual(outputs);
    } finally {
      await on.stop();
    }
  });

  it('answers 503 before the first milestone (a follower that has none yet)', async () => {
    const key = testKey('indexer follower');
    const follower = await startTestNode(['--no-coordinator', '--coordinator-public-key', key.publicKey]);
    try {
      await error503(follower.url, '/api/indexer/v1/outputs');
      await error503(follower.url, `/api/indexer/v1/outputs/alias/0x${'00'.repeat(32)}`);
    } finally {
      await follower.stop();
    }
  });
});

async function error503(url: string, path: string) {
  expect(await text(url, path)).toEqual([
    503,
    '{"error":{"code":"503","message":"service unavailable: no confirmed milestone yet"}}',
  ]);
}
