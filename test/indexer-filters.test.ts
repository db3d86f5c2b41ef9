// The indexer's filters are listed once, in the store (ledger-store `index/filters.rs`):
// the binding hands the list over (`indexerFilterFields()`), the query-string parser is
// driven by it (src/server/pipeline/indexer-query.ts), and here the TypeScript query type
// (src/store-contract.ts `IndexerQuery`) is checked against it — every filter of the list is
// a key of the type with a value of the filter's kind, and no key is left over.

import { describe, expect, it } from 'vitest';
import { bech32Encode } from '../src/core/ids';
import native from '../src/native';
import {
  FILTER_FIELDS,
  type FilterKind,
  type FilterName,
  parseIndexerQuery,
  ROUTE_PARAMETERS,
} from '../src/server/pipeline/indexer-query';
import type { IndexerQuery } from '../src/store-contract';

const HRP = 'rms';
const ED25519 = bech32Encode(HRP, { type: 0, pubKeyHash: `0x${'ab'.repeat(32)}` });

/** One value of each filter, typed by IndexerQuery: tsc refuses a missing or extra key. */
const SAMPLE: Required<Pick<IndexerQuery, FilterName>> = {
  unlockableByAddress: ED25519,
  address: ED25519,
  hasStorageDepositReturn: true,
  storageDepositReturnAddress: ED25519,
  hasTimelock: true,
  timelockedBefore: 1,
  timelockedAfter: 1,
  hasExpiration: true,
  expiresBefore: 1,
  expiresAfter: 1,
  expirationReturnAddress: ED25519,
  sender: ED25519,
  issuer: ED25519,
  tag: '0x01',
  stateController: ED25519,
  governor: ED25519,
  aliasAddress: ED25519,
  hasNativeTokens: true,
  minNativeTokenCount: 1,
  maxNativeTokenCount: 1,
  createdBefore: 1,
  createdAfter: 1,
};

const JS_TYPE: Record<FilterKind, string> = {
  address: 'string',
  aliasAddress: 'string',
  tag: 'string',
  boolean: 'boolean',
  time: 'number',
  tokenCount: 'number',
};

describe('indexer filter fields', () => {
  it('are the filters of IndexerQuery, each with a value of its kind', () => {
    expect(FILTER_FIELDS.map((f) => f.name).sort()).toEqual(Object.keys(SAMPLE).sort());
    for (const field of FILTER_FIELDS) expect(typeof SAMPLE[field.name], field.name).toBe(JS_TYPE[field.kind]);
    expect(native.indexerFilterFields()).toEqual(FILTER_FIELDS);
  });

  it('give each route the parameters of indexer.md §2.2, in inx-indexer order', () => {
    const names = (route: IndexerQuery['route']) => ROUTE_PARAMETERS[route].map((f) => f.name);
    const common = ['hasNativeTokens', 'minNativeTokenCount', 'maxNativeTokenCount', 'createdBefore', 'createdAfter'];
    const owned = [
      'address',
      'hasStorageDepositReturn',
      'storageDepositReturnAddress',
      'hasTimelock',
      'timelockedBefore',
      'timelockedAfter',
      'hasExpiration',
      'expiresBefore',
      'expiresAfter',
      'expirationReturnAddress',
      'sender',
      'tag',
    ];
    expect(names('outputs')).toEqual(['unlockableByAddress', ...common]);
    expect(names('basic')).toEqual(['unlockableByAddress', ...owned, ...common]);
    expect(names('nft')).toEqual(['unlockableByAddress', ...owned, 'issuer', ...common]);
    expect(names('alias')).toEqual([
      'unlockableByAddress',
      'sender',
      'issuer',
      'stateController',
      'governor',
      ...common,
    ]);
    expect(names('foundry')).toEqual(['aliasAddress', ...common]);
  });

  it('drive the parser: kinds checked, other routes’ parameters ignored, the first bad one named', () => {
    const query = { hasTimelock: 'f', minNativeTokenCount: '2', tag: '0xAB', stateController: ED25519 };
    expect(parseIndexerQuery('basic', query, HRP, 100)).toEqual({
      route: 'basic',
      hasTimelock: false,
      tag: '0xab',
      minNativeTokenCount: 2,
      pageSize: 100,
    });
    expect(() => parseIndexerQuery('nft', { issuer: 'x', hasTimelock: 'maybe' }, HRP, 100)).toThrow(
      'hasTimelock: not a boolean',
    );
    expect(() => parseIndexerQuery('foundry', { aliasAddress: ED25519 }, HRP, 100)).toThrow(
      'aliasAddress: not an alias address',
    );
  });
});
