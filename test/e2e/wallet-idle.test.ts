// The reference wallet against a node that has been idle (issue 11 item 2, with issue 10's
// idle node): a child-process node with 1 s milestones idles past belowMaxDepth (15
// milestones) before the wallet's first request, and again between two transfers. The
// unchanged @iota/sdk-wasm 1.1.3 `Wallet` with the dev mnemonic (D23) syncs, sends from
// account 0 to account 1, waits until included and resyncs both to exact balances.

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, spawnNode, tempDataDir } from './node-harness';
import { getJson, poll } from './transactions';
import { devWallet, firstAddress, included, TOKEN_SUPPLY, type Account, type Wallet } from './wallet-harness';

const BELOW_MAX_DEPTH = 15;

let child: ChildProcess;
let url: string;
let wallet: Wallet;
let account0: Account;
let account1: Account;

const latestIndex = async (): Promise<number> =>
  (await getJson(url, '/api/core/v2/info')).body.status.latestMilestone.index;

async function idlePastBelowMaxDepth(): Promise<void> {
  const start = await latestIndex();
  await poll(
    'the node to idle past belowMaxDepth',
    async () => ((await latestIndex()) > start + BELOW_MAX_DEPTH + 1 ? true : undefined),
    60_000,
    250,
  );
}

beforeAll(async () => {
  ({ child, url } = await spawnNode(['--milestone-interval', '1', '--log-level', 'warn'], tempDataDir()));
  await idlePastBelowMaxDepth();
  wallet = devWallet(url);
  account0 = await wallet.createAccount({ alias: 'account 0', bech32Hrp: 'tst' });
  account1 = await wallet.createAccount({ alias: 'account 1', bech32Hrp: 'tst' });
}, 90_000);

afterAll(async () => {
  await wallet?.destroy();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited(child);
  }
});

describe('the reference wallet on a node that idled past belowMaxDepth', () => {
  it('syncs, sends, and resyncs both accounts to exact balances, twice with an idle time between', async () => {
    expect((await account0.sync()).baseCoin.total).toBe(TOKEN_SUPPLY);
    const address1 = await firstAddress(account1);
    const first = 5_000_000n;
    await included(account0, await account0.send(first, address1));
    expect((await account0.sync()).baseCoin).toEqual({ total: TOKEN_SUPPLY - first, available: TOKEN_SUPPLY - first });
    expect((await account1.sync()).baseCoin).toEqual({ total: first, available: first });

    await idlePastBelowMaxDepth();
    const second = 3_000_000n;
    await included(account1, await account1.send(second, await firstAddress(account0)));
    expect((await account0.sync()).baseCoin).toEqual({
      total: TOKEN_SUPPLY - first + second,
      available: TOKEN_SUPPLY - first + second,
    });
    expect((await account1.sync()).baseCoin).toEqual({ total: first - second, available: first - second });
  }, 90_000);
});
