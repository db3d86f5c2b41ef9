// A node that has idled stays usable (issue 10, ledger.md §5 invariant, D21 revised): a
// child-process node with 1 s milestones idles past belowMaxDepth (15 milestones); then
// blocks without parents (JSON and bytes) and blocks on GET /tips parents are healthy
// when stored (shouldReattach false) and referenced within 2 milestones, and the
// unchanged reference client (@iota/sdk-wasm 1.1.3 `Client`, in Node with its built-in
// fetch) attaches a block on its own tips and spends the genesis output with the dev
// mnemonic (D23), which included-block then finds.

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { core, exited, spawnNode, tempDataDir } from './node-harness';
import { getJson, minedBlock, poll, postBlock, submit, waitForReferenced } from './transactions';

const sdk = require('@iota/sdk-wasm/node');

const DEV_MNEMONIC =
  'market sustain pattern display high people desert trial section prevent hat praise egg say gym design claw mosquito decide unaware fluid crash moon stairs';
const BELOW_MAX_DEPTH = 15;

let child: ChildProcess;
let url: string;

const latestIndex = async (): Promise<number> =>
  (await getJson(url, '/api/core/v2/info')).body.status.latestMilestone.index;
const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('idle').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});

/**
 * Submitted after the idle time, and stored when `latestWhenStored` was the latest
 * milestone (read after the node acknowledged it): healthy now, referenced within 2
 * milestones. The next one may have chosen its parents before the block was stored (it is
 * committed after): the one after it cannot have, however slow the machine.
 */
async function expectReferencedSoon(blockId: string, latestWhenStored: number): Promise<void> {
  const { body: meta } = await getJson(url, `/api/core/v2/blocks/${blockId}/metadata`);
  if (meta.referencedByMilestoneIndex === undefined) {
    expect(meta.shouldReattach).toBe(false);
    expect(meta.shouldPromote).toBe(false);
  }
  const referenced = await waitForReferenced(url, blockId, 30_000);
  expect(referenced.referencedByMilestoneIndex).toBeLessThanOrEqual(latestWhenStored + 2);
}

beforeAll(async () => {
  ({ child, url } = await spawnNode(['--milestone-interval', '1', '--log-level', 'warn'], tempDataDir()));
  // Some traffic at the start, then nothing for more than belowMaxDepth milestones.
  for (let i = 0; i < 3; i++) await submit(url, { protocolVersion: 2, payload: tagged(`early ${i}`) });
  const start = await latestIndex();
  await poll(
    'the node to idle past belowMaxDepth',
    async () => ((await latestIndex()) > start + BELOW_MAX_DEPTH + 1 ? true : undefined),
    60_000,
    250,
  );
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited(child);
  }
});

describe('after idling past belowMaxDepth', () => {
  it('the tips are the last two milestone blocks', async () => {
    const { body } = await getJson(url, '/api/core/v2/tips');
    const latest = await latestIndex();
    expect(body.tips).toHaveLength(2);
    // The latest milestone's block may be one newer by the time the tips were read.
    const candidates = [latest, latest - 1, latest - 2];
    for (const tip of body.tips as string[]) {
      const metadata = (await getJson(url, `/api/core/v2/blocks/${tip}/metadata`)).body;
      expect(candidates).toContain(metadata.milestoneIndex);
    }
  });

  it('references a JSON block without parents within 2 milestones', async () => {
    const blockId = await submit(url, { protocolVersion: 2, payload: tagged('json, no parents') });
    await expectReferencedSoon(blockId, await latestIndex());
  });

  it('references a binary block without parents within 2 milestones', async () => {
    const bytes = core.encodeBlock({
      protocolVersion: 2,
      parents: [],
      payload: tagged('bytes, no parents'),
      nonce: '0',
    });
    const blockId = await submit(url, new Uint8Array(bytes));
    await expectReferencedSoon(blockId, await latestIndex());
  });

  it('references blocks on GET /tips parents within 2 milestones (node mining, and a nonce mined here as bytes)', async () => {
    const { body } = await getJson(url, '/api/core/v2/tips');
    const mining = await submit(url, { protocolVersion: 2, parents: body.tips, payload: tagged('json on /tips') });
    const miningStored = await latestIndex();
    const { bytes, blockId } = await minedBlock(body.tips, tagged('bytes on /tips'));
    expect((await postBlock(url, new Uint8Array(bytes))).status).toBe(201);
    const bytesStored = await latestIndex();
    await expectReferencedSoon(mining, miningStored);
    await expectReferencedSoon(blockId, bytesStored);
  });

  it('serves the reference client: tips, a block it builds and the node mines, and a genesis spend', async () => {
    const client = new sdk.Client({ nodes: [url], localPow: false });
    const tips: string[] = await client.getTips();
    expect(tips.length).toBeGreaterThanOrEqual(2);
    // A block on the client's own tips, posted with nonce 0 for the node to mine.
    const block = {
      protocolVersion: 2,
      parents: tips,
      payload: new sdk.TaggedDataPayload(sdk.utf8ToHex('sdk'), sdk.utf8ToHex('on client tips')),
      nonce: '0',
    };
    const blockId: string = await client.postBlock(block);
    const stored = await latestIndex();
    const referenced = await poll(
      'the client block to be referenced',
      async () => {
        const meta = await client.getBlockMetadata(blockId);
        expect(meta.shouldReattach ?? false).toBe(false);
        return meta.referencedByMilestoneIndex !== undefined ? meta : undefined;
      },
      30_000,
      200,
    );
    expect(referenced.referencedByMilestoneIndex).toBeLessThanOrEqual(stored + 2);
    // The genesis output, spent with the dev mnemonic: the client selects the tips, the
    // node mines, and included-block finds the transaction.
    const secretManager = { mnemonic: DEV_MNEMONIC };
    const addresses: string[] = await new sdk.SecretManager(secretManager).generateEd25519Addresses({
      coinType: sdk.CoinType.IOTA,
      accountIndex: 0,
      range: { start: 0, end: 2 },
      bech32Hrp: 'tst',
    });
    expect(addresses[0]).toBe('tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc');
    const genesis = sdk.UTXOInput.fromOutputId('0x' + '00'.repeat(34));
    const [, txBlock] = await client.buildAndPostBlock(secretManager, {
      coinType: sdk.CoinType.IOTA,
      inputs: [genesis],
      output: { address: addresses[1], amount: '4600000000000000' },
    });
    const transactionId: string = sdk.Utils.transactionId(txBlock.payload);
    const included = await poll(
      'included-block',
      async () => {
        const { status, body } = await getJson(
          url,
          `/api/core/v2/transactions/${transactionId}/included-block/metadata`,
        );
        return status === 200 ? body : undefined;
      },
      10_000,
      200,
    );
    expect(included.ledgerInclusionState).toBe('included');
    const viaClient = await client.getIncludedBlock(transactionId);
    expect(sdk.Utils.transactionId(viaClient.payload)).toBe(transactionId);
    const { body: spent } = await getJson(url, `/api/core/v2/outputs/${'0x' + '00'.repeat(34)}/metadata`);
    expect(spent.isSpent).toBe(true);
    expect(spent.transactionIdSpent).toBe(transactionId);
  });
});
