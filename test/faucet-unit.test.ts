// The faucet's parts without a node: configuration defaults and checks, the per-client
// rate limiter (a token bucket, driven by an explicit clock here), and the transaction it
// builds (input selection, remainder, the protocol's limits, a valid signature).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { verify } from '../src/core/crypto';
import { essenceHash } from '../src/core/ids';
import { DEV_ADDRESS, DEV_SEED, faucetKey, isDevNetwork, type FaucetKey } from '../src/faucet/key';
import type { FaucetOutput } from '../src/faucet/outputs';
import { type FaucetRefusal, parseRecipient } from '../src/faucet/requests';
import { buildFaucetTransaction, InsufficientFunds, selectInputs } from '../src/faucet/transaction';
import type { HttpError } from '../src/http/error';
import { rateLimit } from '../src/server/middleware/rate-limit';
import { TokenBuckets } from '../src/http/token-buckets';

const RENT = { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 };

describe('faucet configuration', () => {
  it('has the documented defaults and is public', () => {
    const c = loadConfig([], {});
    expect(c.faucet).toEqual({
      enabled: true,
      privateKey: '',
      amount: 1_000_000_000,
      cooldown: 300,
      maxOutputs: 127,
      maxQueueSize: 10_000,
      rateLimit: { maxRequests: 10, period: 300, maxBurst: 20 },
    });
    expect(c.restApi.publicRoutes).toEqual(expect.arrayContaining(['/api/faucet/v1/*', '/faucet', '/faucet/*']));
  });

  it('reads flags and environment, and refuses bad values', () => {
    const c = loadConfig(['--faucet-amount', '5000000', '--faucet-cooldown', '0', '--no-faucet'], {});
    expect(c.faucet).toMatchObject({ enabled: false, amount: 5_000_000, cooldown: 0 });
    expect(loadConfig([], { LEDGER_NODE_FAUCET_AMOUNT: '7' }).faucet.amount).toBe(7);
    expect(() => loadConfig(['--faucet-private-key', '0x12'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--faucet-amount', '0'], {})).toThrow('faucet.amount must be a positive integer');
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ faucet: { maxOutputs: 128 } }));
    expect(() => loadConfig(['--config', file], {})).toThrow('faucet.maxOutputs must be an integer 1..127');
    writeFileSync(file, JSON.stringify({ faucet: { rateLimit: { maxRequests: 1, period: 0, maxBurst: 1 } } }));
    expect(() => loadConfig(['--config', file], {})).toThrow('faucet.rateLimit.period');
  });

  it('uses the dev key on the dev network only, a configured key anywhere', () => {
    const dev = loadConfig([], {});
    expect(isDevNetwork(dev)).toBe(true);
    expect(faucetKey(dev, 'tst')).toMatchObject({
      seed: DEV_SEED,
      address: DEV_ADDRESS,
      bech32: 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc',
    });
    const other = loadConfig(['--genesis-address', '0x' + '11'.repeat(32)], {});
    expect(faucetKey(other, 'tst')).toEqual({ off: 'not the dev network and no faucet.privateKey configured' });
    const keyed = loadConfig(
      ['--genesis-address', '0x' + '11'.repeat(32), '--faucet-private-key', '0x' + '22'.repeat(32)],
      {},
    );
    expect((faucetKey(keyed, 'tst') as FaucetKey).seed).toBe('0x' + '22'.repeat(32));
    expect(faucetKey(loadConfig(['--no-faucet'], {}), 'tst')).toEqual({ off: 'disabled by configuration' });
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ snapshot: { loadPath: '/some/full_snapshot.bin' } }));
    expect(isDevNetwork(loadConfig(['--config', file], {}))).toBe(false);
  });
});

describe('faucet requests', () => {
  it('takes Ed25519, alias and NFT addresses of the network, lower-cased', () => {
    expect(parseRecipient('TST1QQGDNRAHTVFNXTPPHAKSXPR2U34N5TKW7L26DQCFDMHSK9DT0GT86DXC8ZC', 'tst').bech32).toBe(
      'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc',
    );
    const refusal = (value: unknown) => {
      try {
        parseRecipient(value, 'tst');
      } catch (err) {
        return err as FaucetRefusal;
      }
      throw new Error('accepted');
    };
    expect(refusal('x'.repeat(500)).reason).toMatch(/…' is not a valid bech32 address$/);
    expect(refusal(null).status).toBe(400);
  });
});

describe('faucet rate limit', () => {
  const run = async (limiter: ReturnType<typeof rateLimit>, ip: string) => {
    try {
      await limiter({ ip } as Context, async () => {});
      return 'passed';
    } catch (err) {
      return err as HttpError;
    }
  };

  it('lets a burst through, then one request per period share, per IP, with Retry-After', async () => {
    let now = 1_000_000;
    const limit = { maxRequests: 2, period: 10, maxBurst: 3 };
    const buckets = new TokenBuckets(limit, () => now);
    const limiter = rateLimit(limit, (ip) => buckets.take(ip));
    for (let i = 0; i < 3; i++) expect(await run(limiter, 'a')).toBe('passed');
    const refused = (await run(limiter, 'a')) as HttpError;
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toBe('5');
    expect(await run(limiter, 'b')).toBe('passed'); // another client
    now += 5000; // one token back (2 per 10 s)
    expect(await run(limiter, 'a')).toBe('passed');
    expect(((await run(limiter, 'a')) as HttpError).status).toBe(429);
    now += 60_000; // refilled to the burst, never beyond
    for (let i = 0; i < 3; i++) expect(await run(limiter, 'a')).toBe('passed');
    expect(((await run(limiter, 'a')) as HttpError).status).toBe(429);
  });
});

describe('faucet transactions', () => {
  const key = faucetKey(loadConfig([], {}), 'tst') as FaucetKey;
  const outputOf = (i: number, amount: bigint): FaucetOutput => ({
    outputId: '0x' + i.toString(16).padStart(64, '0') + '0000',
    amount,
    output: {
      type: 3,
      amount: amount.toString(),
      unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: key.address } }],
    },
  });
  const recipient = (i: number, amount: bigint) => ({
    address: { type: 0 as const, pubKeyHash: '0x' + i.toString(16).padStart(64, '0') },
    amount,
  });

  it('selects the largest outputs first and leaves nothing or a remainder that covers its deposit', () => {
    const outputs = [outputOf(1, 100_000n), outputOf(2, 5_000_000n), outputOf(3, 1_000_000n)];
    expect(selectInputs(outputs, 5_000_000n, 42_600n)).toMatchObject({ inputs: [outputs[1]], remainder: 0n });
    // 5_000_000 would leave 10 below the deposit: take the next output too.
    const two = selectInputs(outputs, 4_999_990n, 42_600n);
    expect(two.inputs).toEqual([outputs[1], outputs[2]]);
    expect(two.remainder).toBe(1_000_010n);
    expect(() => selectInputs(outputs, 7_000_000n, 42_600n)).toThrow(InsufficientFunds);
    // At most 128 inputs, however many small outputs there are.
    const dust = Array.from({ length: 200 }, (_, i) => outputOf(i + 10, 1_000_000n));
    expect(() => selectInputs(dust, 150_000_000n, 42_600n)).toThrow(/in 128 outputs/);
  });

  it('pays each recipient, returns the remainder to the faucet, signs once and references the signature', () => {
    const outputs = [outputOf(1, 3_000_000n), outputOf(2, 3_000_000n)];
    const recipients = [recipient(7, 2_000_000n), recipient(8, 2_000_000n), recipient(9, 1_000_000n)];
    const tx = buildFaucetTransaction('1', key, outputs, recipients, RENT);
    const essence = tx.payload.essence as {
      inputs: { transactionOutputIndex: number }[];
      outputs: { amount: string; unlockConditions: { address: { pubKeyHash: string } }[] }[];
    };
    expect(essence.inputs).toHaveLength(2);
    expect(essence.outputs.map((o) => o.amount)).toEqual(['2000000', '2000000', '1000000', '1000000']);
    expect(essence.outputs[3].unlockConditions[0].address.pubKeyHash).toBe(key.address);
    expect(tx.remainder).toBe(1_000_000n);
    const [first, second] = tx.payload.unlocks as [
      { type: 0; signature: { publicKey: string; signature: string } },
      { type: 1; reference: number },
    ];
    expect(second).toEqual({ type: 1, reference: 0 });
    expect(verify(first.signature.publicKey, essenceHash(tx.payload), first.signature.signature)).toBe(true);
    expect(() =>
      buildFaucetTransaction(
        '1',
        key,
        outputs,
        Array.from({ length: 128 }, (_, i) => recipient(i, 1n)),
        RENT,
      ),
    ).toThrow(RangeError);
  });
});
