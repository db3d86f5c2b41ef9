// The one error format across the binding (crates/ledger-napi/src/errors.rs): whatever the
// kind of native call — a sync throw, an async task's rejection, a failed open, a gossip
// future's rejection, a mining deferred's — the error carries the reason as `code` and
// `path␟detail` as its message, and src/core/errors.ts makes the same LedgerError of it.
// A batch's per-block failure (data, not an error) becomes the same LedgerError too.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import { protocolOf } from '../src/config/schema';
import { encodeBlock } from '../src/core/codec';
import { ERROR_CODES } from '../src/core/error-codes';
import { fromNative, fromNativeAsync, LedgerError, toLedgerError } from '../src/core/errors';
import { MiningPool } from '../src/core/mining-pool';
import { LedgerStore } from '../src/core/store';
import { genesisOutputs } from '../src/genesis';
import native from '../src/native';
import type { StoreOptions } from '../src/store-contract';

const config = loadConfig(
  ['--min-pow-score', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'ledger-node-errors-'))],
  {},
);
const options = (coordinatorKeys: string[]): StoreOptions => ({
  protocol: protocolOf(config),
  genesisOutputs: genesisOutputs(config),
  coordinator: { enabled: true, privateKeys: coordinatorKeys, publicKeys: [] },
  syncWrites: false,
  blockCacheMiB: 8,
  writeBuffersMiB: 8,
  tips: config.tips,
  indexer: config.indexer,
});
/** A block whose parents no store has. */
const orphan = encodeBlock({
  protocolVersion: 2,
  parents: ['0x' + 'ee'.repeat(32), '0x' + 'ef'.repeat(32)],
  payload: { type: 5, tag: '0x6f727068616e', data: '0x' },
  nonce: '0',
});
let store: LedgerStore;

beforeAll(async () => {
  store = await LedgerStore.open(config.dataDir, options(['0x' + '22'.repeat(32)]));
});
afterAll(() => store?.close());

/** What a call threw or rejected with. */
async function failureOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}

function expectLedgerError(err: unknown, code: string, path: string, detail: RegExp): void {
  expect(err).toBeInstanceOf(LedgerError);
  const e = err as LedgerError;
  expect([e.code, e.path]).toEqual([code, path]);
  expect(e.detail).toMatch(detail);
  expect(e.message).toBe(path ? `${path}: ${e.detail}` : e.detail);
}

/** The format itself: `code` on a JS Error, message `path␟detail`. */
function expectNativeFormat(err: unknown, code: string, path: string): void {
  expect(err).toBeInstanceOf(Error);
  expect((err as { code?: string }).code).toBe(code);
  expect((err as Error).message.startsWith(`${path}\u001f`)).toBe(true);
}

describe('native errors', () => {
  it('a sync call throws the reason as code, path␟detail as message', async () => {
    const tooShort = { protocolVersion: 2, parents: ['0x00'], payload: null, nonce: '0' };
    expectNativeFormat(
      await failureOf(() => native.encodeBlockJson(JSON.stringify(tooShort))),
      'wrong-id-length',
      'parents[0]',
    );
    expectLedgerError(await failureOf(() => encodeBlock(tooShort)), 'wrong-id-length', 'parents[0]', /32 bytes/);
  });

  it('an async task rejects in the same format', async () => {
    // Before the first milestone the store takes no block and the indexer has nothing to answer.
    expectNativeFormat(await failureOf(() => store.native.precheckBlock(orphan)), 'not-ready', '');
    expectLedgerError(await failureOf(() => store.precheckBlock(orphan)), 'not-ready', '', /no milestone/);
    expectLedgerError(
      await failureOf(() => store.queryOutputs({ route: 'outputs', pageSize: 10 })),
      'not-ready',
      '',
      /no confirmed milestone/,
    );
    await store.issueMilestone();
    expectNativeFormat(await failureOf(() => store.native.precheckBlock(orphan)), 'unknown-parent', 'parents[0]');
    expectLedgerError(
      await failureOf(() => store.precheckBlock(orphan)),
      'unknown-parent',
      'parents[0]',
      /not a known block/,
    );
  });

  it('a batch answers a failure per block, made into the same LedgerError', async () => {
    const [outcome] = await store.native.submitBlocks([orphan]);
    expect(outcome.failure).toMatchObject({ code: 'unknown-parent', path: 'parents[0]' });
    expectLedgerError(
      await failureOf(() => store.submitBlock(orphan)),
      'unknown-parent',
      'parents[0]',
      /not a known block/,
    );
  });

  it('a failed open rejects in the same format', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-node-errors-open-'));
    const nativeOptions = {
      protocolJson: JSON.stringify(protocolOf(config)),
      genesisOutputs: genesisOutputs(config),
      genesisStyle: 'ledger',
      coordinatorEnabled: true,
      coordinatorPrivateKeys: [],
      coordinatorPublicKeys: [],
      syncWrites: false,
      maxDeltaYcri: 8,
      maxDeltaOcri: 13,
      blockCacheMib: 8,
      writeBuffersMib: 8,
      indexerEnabled: false,
    };
    expectNativeFormat(
      await failureOf(() => native.LedgerStore.open(dataDir, nativeOptions)),
      'coordinator-keys-missing',
      'coordinator.privateKeys',
    );
    expectLedgerError(
      await failureOf(() => LedgerStore.open(dataDir, options([]))),
      'coordinator-keys-missing',
      'coordinator.privateKeys',
      /at least one key/,
    );
    // Options refused before the task starts: a sync throw, the same LedgerError.
    expectLedgerError(
      await failureOf(() => LedgerStore.open(dataDir, { ...options([]), genesisStyle: 'chrysalis' as 'ledger' })),
      'invalid-genesis-style',
      'genesis.style',
      /neither/,
    );
  });

  it("gossip's futures reject in the same format", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-node-errors-gossip-'));
    const node = native.GossipNode.start(store.native, {
      networkName: protocolOf(config).networkName,
      bindMultiAddresses: ['/ip4/127.0.0.1/tcp/0'],
      identityFile: join(dir, 'p2p-identity.key'),
      peers: [],
      unknownPeersLimit: 4,
      reconnectIntervalMs: 30_000,
      lowWatermark: 4,
      highWatermark: 8,
      warpSyncRange: 50,
    });
    try {
      expectNativeFormat(await failureOf(() => node.peer('not-a-peer-id')), 'invalid-argument', 'peerId');
      expectLedgerError(
        await failureOf(() => fromNativeAsync(() => node.peer('not-a-peer-id'))),
        'invalid-argument',
        'peerId',
        /not a peer id/,
      );
      const own = `/ip4/127.0.0.1/tcp/1/p2p/${node.peerId}`;
      expectLedgerError(
        await failureOf(() => fromNativeAsync(() => node.addPeer(own))),
        'own-peer-id',
        '',
        /own peer id/,
      );
    } finally {
      node.stop();
    }
    expectLedgerError(await failureOf(() => fromNativeAsync(() => node.peers())), 'gossip-stopped', '', /not running/);
  });

  it("a mining job's refusal rejects in the same format", async () => {
    const pool = new MiningPool({ jobs: 1, queueSize: 1 });
    pool.close();
    expectLedgerError(
      await failureOf(() => pool.mine(Buffer.from(orphan), { targetScore: 1 })),
      'pow-pool-closed',
      'nonce',
      /closed/,
    );
  });

  it('leaves what is not a ledger error alone, and takes napi argument errors for invalid-argument', () => {
    const plain = new Error('boom');
    expect(toLedgerError(plain)).toBe(plain);
    const napiFailure = Object.assign(new Error('x\u001fy'), { code: 'GenericFailure' });
    expect(toLedgerError(napiFailure)).toBe(napiFailure);
    const argument = failureOfSync(() => native.encodeBlockJson(42 as unknown as string));
    expectLedgerError(toLedgerError(argument), 'invalid-argument', '', /string/i);
    expect(() => fromNative(() => native.encodeBlockJson(42 as unknown as string))).toThrow(LedgerError);
    expect(ERROR_CODES).toContain('invalid-argument');
  });
});

function failureOfSync(call: () => unknown): unknown {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}
