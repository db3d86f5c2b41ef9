// What the store's JavaScript side keeps between reads (src/core/store.ts), over a real
// store: a block's metadata, final once a milestone references it, and before that only
// until the next milestone (its tip score and reference change then); GET /tips's text is
// the same selection as the list.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import { protocolOf } from '../src/config/schema';
import { encodeBlock } from '../src/core/codec';
import { LedgerStore } from '../src/core/store';
import { genesisOutputs } from '../src/genesis';

const config = loadConfig(
  ['--min-pow-score', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'ledger-node-reads-'))],
  {},
);
let store: LedgerStore;

beforeAll(async () => {
  store = await LedgerStore.open(config.dataDir, {
    protocol: protocolOf(config),
    genesisOutputs: genesisOutputs(config),
    coordinator: { enabled: true, privateKeys: ['0x' + '22'.repeat(32)], publicKeys: [] },
    syncWrites: false,
    blockCacheMiB: 8,
    writeBuffersMiB: 8,
    tips: config.tips,
    indexer: config.indexer,
  });
  await store.issueMilestone();
});
afterAll(() => store?.close());

describe('LedgerStore reads', () => {
  it('keeps a block metadata until the next milestone, and for good once referenced', async () => {
    const bytes = encodeBlock({
      protocolVersion: 2,
      parents: store.selectTips(),
      payload: { type: 5, tag: '0x72656164', data: '0x01' },
      nonce: '0',
    });
    const { blockId } = await store.submitBlock(bytes);
    const pending = JSON.parse(store.getBlockMetadata(blockId)!);
    expect(pending.referencedByMilestoneIndex).toBeUndefined();
    expect(pending.shouldPromote).toBe(false);
    expect(store.getBlockMetadata(blockId)).toBe(store.getBlockMetadata(blockId));
    const issued = await store.issueMilestone();
    const referenced = store.getBlockMetadata(blockId)!;
    expect(JSON.parse(referenced).referencedByMilestoneIndex).toBe(issued.index);
    expect(store.getBlockMetadata(blockId)).toBe(referenced);
    expect(store.getBlockMetadata('0x' + 'ee'.repeat(32))).toBeNull();
  });

  it('answers GET /tips as text from the same selection', () => {
    const { tips } = JSON.parse(store.selectTipsJson());
    expect(tips.length).toBeGreaterThanOrEqual(2);
    expect([...tips].sort()).toEqual(tips);
    for (const tip of tips) expect(tip).toMatch(/^0x[0-9a-f]{64}$/);
    expect(store.latestMilestoneIndex()).toBe(store.status().latestMilestone.index);
  });
});
