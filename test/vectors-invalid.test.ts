import { describe, expect, it } from 'vitest';
import { encodeBlock, encodeBlockWithId, LedgerError, validateBlock } from '../src/index';
import type { ProtocolJson } from '../src/index';
import { bytesOf, protocolOf, records, WORKED } from './vectors';

function reasonOf(run: () => void): string | undefined {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(LedgerError);
    return (e as LedgerError).code;
  }
  return undefined;
}

describe('invalid.jsonl: every record rejected with its reason', () => {
  const all = records('invalid.jsonl');

  it('holds the 112 records of the README', () => {
    expect(all.length).toBe(112);
  });

  it.each(all.map((r) => [r.name, r]))('%s', (_name, r) => {
    const input = r.form === 'json' ? r.json : bytesOf(r.bytes);
    expect(reasonOf(() => validateBlock(input, protocolOf(r.network)))).toBe(r.reason);
  });

  it('json records read from JSON text give the same reason', () => {
    for (const r of all.filter((x) => x.form === 'json')) {
      expect(
        reasonOf(() => validateBlock(JSON.stringify(r.json), protocolOf(r.network))),
        r.name,
      ).toBe(r.reason);
    }
  });

  it('encodeBlockWithId fails exactly as encodeBlock does (code, path, detail)', () => {
    const failure = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        const { code, path, detail } = e as LedgerError;
        return { code, path, detail };
      }
      return undefined;
    };
    for (const r of all.filter((x) => x.form === 'json')) {
      expect(
        failure(() => encodeBlockWithId(r.json)),
        r.name,
      ).toEqual(failure(() => encodeBlock(r.json)));
    }
  });

  it('names the path of the offending field', () => {
    const path = (reason: string) => {
      const r = all.find((x) => x.reason === reason);
      try {
        validateBlock(r.form === 'json' ? r.json : bytesOf(r.bytes), protocolOf(r.network));
      } catch (e) {
        return (e as LedgerError).path;
      }
      return undefined;
    };
    expect(path('amount-not-decimal')).toBe('payload.essence.outputs[0].amount');
    expect(path('parents-unsorted')).toMatch(/^parents\[\d\]$/);
    expect(path('network-id-mismatch')).toBe('payload.essence.networkId');
    expect(path('storage-deposit-too-low')).toMatch(/^payload\.essence\.outputs\[\d+\]\.amount$/);
  });
});

// The parents and nonce a transaction payload record is wrapped in to validate it as a block.
const SEP_PARENTS = [`0x${'00'.repeat(32)}`, `0x${'00'.repeat(31)}01`];

describe('valid vectors pass the rules of their own network', () => {
  const networkOf = (r: { extra?: { networkName?: string } }) => r.extra?.networkName ?? 'ledger-devnet-v2';

  it.each(
    records('valid.jsonl')
      .filter((r) => r.kind === 'block')
      .map((r) => [r.name, r]),
  )('%s', (_name, r) => {
    expect(() => validateBlock(bytesOf(r.bytes), protocolOf(networkOf(r)))).not.toThrow();
    expect(() => validateBlock(r.json, protocolOf(networkOf(r)))).not.toThrow();
  });

  const transactions = [...records('valid.jsonl'), ...records('transactions.jsonl')].filter(
    (r) => r.kind === 'transaction',
  );
  it.each(transactions.map((r) => [r.name, r]))('%s inside a block', (_name, r) => {
    const block = { protocolVersion: 2, parents: SEP_PARENTS, payload: r.json, nonce: '0' };
    expect(() => validateBlock(block, protocolOf(networkOf(r)))).not.toThrow();
  });
});

// wire-format §9.2 and §9.3: both meet the dev minimum PoW score 1500 (pow.md).
const EXAMPLE_B = WORKED.B.bytes.slice(2);
const EXAMPLE_C = WORKED.C.bytes.slice(2);
const EXAMPLE_B_JSON = WORKED.B.json;

describe('PoW is judged last, at minPowScore 1500', () => {
  const dev: ProtocolJson = { ...protocolOf('ledger-devnet-v2'), minPowScore: 1500, tokenSupply: '4600000000000000' };

  it.each([
    ['Example B', EXAMPLE_B],
    ['Example C', EXAMPLE_C],
  ])('%s passes, and fails with another nonce', (_name, hex) => {
    const bytes = Buffer.from(hex, 'hex');
    expect(() => validateBlock(bytes, dev)).not.toThrow();
    expect(() => validateBlock(bytes)).not.toThrow(); // the default is the dev network
    const changed = Buffer.from(bytes);
    changed.writeBigUInt64LE(changed.readBigUInt64LE(changed.length - 8) + 1n, changed.length - 8);
    expect(reasonOf(() => validateBlock(changed, dev))).toBe('pow-score-too-low');
  });

  it('Example B as JSON, and with another nonce', () => {
    expect(() => validateBlock(EXAMPLE_B_JSON, dev)).not.toThrow();
    expect(reasonOf(() => validateBlock({ ...EXAMPLE_B_JSON, nonce: '39062' }, dev))).toBe('pow-score-too-low');
  });

  it('a block breaking a rule reports the rule, not its PoW', () => {
    const wrongVersion = { ...EXAMPLE_B_JSON, protocolVersion: 3 };
    expect(reasonOf(() => validateBlock(wrongVersion, dev))).toBe('wrong-protocol-version');
  });
});
