// The HTTP building blocks that need no node: route patterns, body depth, block schema.

import { describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_ROUTES } from '../src/config/schema';
import { publicRouteMatcher } from '../src/http/route-auth';
import { exceedsDepth, parseJsonBody } from '../src/server/middleware/body';
import { checkBlockShape, describeShapeError } from '../src/server/schemas/block';

describe('public route patterns', () => {
  const isPublic = publicRouteMatcher(DEFAULT_PUBLIC_ROUTES);
  it('matches whole paths, case-insensitively, * across slashes', () => {
    expect(isPublic('/health')).toBe(true);
    expect(isPublic('/HEALTH')).toBe(true);
    expect(isPublic('/api/core/v2/blocks/0x12/metadata')).toBe(true);
    expect(isPublic('/api/core/v2/info/x')).toBe(false);
    expect(isPublic('/metrics')).toBe(false);
    expect(isPublic('/x/health')).toBe(false);
    expect(isPublic('/api/indexer/v1/outputs/basic')).toBe(true);
    expect(isPublic('/dashboard')).toBe(true);
    expect(isPublic('/dashboard/lib/mqtt.js')).toBe(true);
    expect(isPublic('/dashboardx')).toBe(false);
    expect(isPublic('/api/dashboard-metrics/v1/database/sizes')).toBe(true);
  });
});

describe('body parsing', () => {
  it('measures nesting outside strings', () => {
    expect(exceedsDepth('{"a":"[[[[[[[["}', 2)).toBe(false);
    expect(exceedsDepth('[[[]]]', 2)).toBe(true);
    expect(() => parseJsonBody(Buffer.from('[1]'), 8)).toThrow(/JSON object/);
    expect(() => parseJsonBody(Buffer.from('{'), 8)).toThrow(/malformed JSON/);
  });
});

describe('block schema', () => {
  const error = (block: unknown) => {
    expect(checkBlockShape(block)).toBe(false);
    const { path, detail } = describeShapeError(checkBlockShape.errors);
    return `${path}: ${detail}`;
  };
  it('accepts the shapes of wire-format §5–§7 and ignores unknown keys', () => {
    expect(checkBlockShape({ protocolVersion: 2, extra: 1, payload: { type: 5, tag: '0x6c', data: '0x' } })).toBe(true);
    expect(checkBlockShape({ protocolVersion: 2, payload: null, nonce: '0x98b5' })).toBe(true);
  });
  it('names the failing path', () => {
    expect(error({ protocolVersion: 3 })).toMatch(/^protocolVersion/);
    expect(error({ protocolVersion: 2, parents: ['0x12'] })).toMatch(/^parents\[0\]/);
    expect(error({ protocolVersion: 2, payload: { type: 9 } })).toMatch(/^payload\.type/);
    expect(error({ protocolVersion: 2, payload: { type: 5, data: '0xabc' } })).toMatch(/^payload\.data/);
    expect(error({ protocolVersion: 2, nonce: '-1' })).toMatch(/^nonce/);
    expect(
      error({
        protocolVersion: 2,
        payload: {
          type: 6,
          essence: {
            type: 1,
            networkId: '1',
            inputs: [{ type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 70000 }],
            inputsCommitment: '0x' + '00'.repeat(32),
            outputs: [],
          },
          unlocks: [],
        },
      }),
    ).toMatch(/^payload\.essence\.inputs\[0\]\.transactionOutputIndex/);
  });
});
