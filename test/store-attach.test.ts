// Another thread's handle on the store this process opened (LedgerStore.attach): found by
// any spelling of the data directory, also when the directory was new and named relative to
// the working directory (`npm start` in a fresh clone: ./data, whose ledger folder does not
// exist until the store creates it).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import { protocolOf } from '../src/config/schema';
import { LedgerStore } from '../src/core/store';
import { genesisOutputs } from '../src/genesis';

const absolute = mkdtempSync(join(tmpdir(), 'ledger-node-attach-'));
const config = loadConfig(['--min-pow-score', '0', '--data-dir', relative(process.cwd(), absolute)], {});
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
});
afterAll(() => store?.close());

describe('LedgerStore.attach', () => {
  it('finds a store opened in a new directory named relative to the working directory', () => {
    expect(config.dataDir.startsWith('/')).toBe(false);
    for (const spelling of [config.dataDir, absolute]) {
      const handle = LedgerStore.attach(spelling);
      expect(handle.status().ledgerIndex).toBe(store.status().ledgerIndex);
      handle.close();
    }
  });
});
