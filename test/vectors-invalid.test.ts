import { describe, expect, it } from 'vitest';
import { encodeBlock, encodeBlockWithId, LedgerError, validateBlock } from '../src/index';
import type { ProtocolJson } from '../src/index';
import { bytesOf, protocolOf, records } from './vectors';

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
const EXAMPLE_B =
  '02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f' +
  '5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000';
const EXAMPLE_C =
  '0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f' +
  '5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e925392135759' +
  '3702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a3989' +
  '3f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a' +
  '6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171' +
  'd703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000';

const EXAMPLE_B_JSON = {
  protocolVersion: 2,
  parents: [`0x${'00'.repeat(32)}`, '0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19'],
  payload: { type: 5, tag: '0x6c6564676572', data: '0x68656c6c6f20776f726c64' },
  nonce: '39061',
};

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
