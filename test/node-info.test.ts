// The info object is built once per milestone and when health flips, not per request
// (src/server/lib/node-info.ts), over a real store in a temporary directory; its metrics
// are the rates of the last milestone interval.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import { protocolOf } from '../src/config/schema';
import { LedgerStore } from '../src/core/store';
import { genesisOutputs } from '../src/genesis';
import { NodeInfo, rates } from '../src/server/lib/node-info';

const config = loadConfig(['--min-pow-score', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'ledger-node-info-'))], {});
let store: LedgerStore;

beforeAll(async () => {
  store = await LedgerStore.open(config.dataDir, {
    protocol: protocolOf(config),
    genesisOutputs: genesisOutputs(config),
    coordinator: { enabled: true, privateKeys: ['0x' + '11'.repeat(32)], publicKeys: [] },
    syncWrites: false,
    blockCacheMiB: 8,
    writeBuffersMiB: 8,
    tips: config.tips,
    indexer: config.indexer,
  });
});
afterAll(() => store?.close());

describe('NodeInfo', () => {
  it('keeps the same text until the next milestone or a change of health', async () => {
    const info = new NodeInfo(store, config, protocolOf(config), '0.0.0-test');
    const first = await store.issueMilestone();
    const now = first.timestamp + 1;
    const text = info.jsonText(now);
    expect(info.jsonText(now + 10)).toBe(text);
    expect(JSON.parse(text).status).toMatchObject({ isHealthy: true, latestMilestone: { index: 1 } });
    // Health flips when the latest milestone gets too old (5 minutes at a 5 s interval).
    const stale = info.jsonText(now + 600);
    expect(JSON.parse(stale).status.isHealthy).toBe(false);
    expect(info.jsonText(now)).not.toBe(stale);
    // A new milestone: rebuilt.
    await store.issueMilestone(first.timestamp + 4);
    const second = info.jsonText(now + 4);
    expect(JSON.parse(second).status.latestMilestone.index).toBe(2);
    expect(JSON.parse(second).metrics).toEqual({
      blocksPerSecond: 0.25,
      referencedBlocksPerSecond: 0.25,
      referencedRate: 100,
    });
  });

  it('reads the whole status object only when the latest milestone changed', async () => {
    let reads = 0;
    const counting = Object.create(store) as LedgerStore;
    counting.status = () => {
      reads++;
      return store.status();
    };
    const info = new NodeInfo(counting, config, protocolOf(config), '0.0.0-test');
    const before = info.jsonText();
    info.jsonText();
    info.jsonText();
    expect(reads).toBe(1);
    await store.issueMilestone();
    const after = info.jsonText();
    expect(reads).toBe(2);
    expect(JSON.parse(after).status.confirmedMilestone.index).toBe(
      JSON.parse(before).status.confirmedMilestone.index + 1,
    );
  });
});

describe('rates', () => {
  it('divides by the seconds between the milestones, as Hornet does', () => {
    expect(rates({ index: 9, newBlocks: 50, referencedBlocks: 40, seconds: 5 })).toEqual({
      blocksPerSecond: 10,
      referencedBlocksPerSecond: 8,
      referencedRate: 80,
    });
    expect(rates({ index: 9, newBlocks: 0, referencedBlocks: 3, seconds: 3 })).toEqual({
      blocksPerSecond: 0,
      referencedBlocksPerSecond: 1,
      referencedRate: 0,
    });
    expect(rates(undefined)).toEqual({ blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 });
  });
});
