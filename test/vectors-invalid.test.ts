import { describe, expect, it } from 'vitest';
import { LedgerError, validateBlock } from '../src/index';
import { bytesOf, protocolOf, records } from './vectors';

describe('invalid.jsonl: every record rejected with its reason', () => {
  it.each(records('invalid.jsonl').map((r) => [r.name, r]))('%s', (_name, r) => {
    const input = r.form === 'json' ? r.json : bytesOf(r.bytes);
    let error: unknown;
    try {
      validateBlock(input, protocolOf(r.network));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LedgerError);
    expect((error as LedgerError).code).toBe(r.reason);
  });

  it('names the path of the offending field', () => {
    const r = records('invalid.jsonl').find((x) => x.reason === 'amount-not-decimal');
    try {
      validateBlock(r.json, protocolOf(r.network));
      expect.unreachable();
    } catch (e) {
      expect((e as LedgerError).path).toBe('payload.essence.outputs[0].amount');
    }
  });
});
