// The reference wallet end to end (issue 11 item 2): the unchanged @iota/sdk-wasm 1.1.3
// `Wallet` with the dev mnemonic (D23) against a node with a milestone every second.
// Accounts 0 and 1 sync, account 0 sees the genesis balance and sends to account 1; then,
// all through the wallet, an NFT is minted and sent, an alias, a foundry and native tokens
// are created and tokens sent, and account 1 claims an output with a storage deposit
// return and one with an expiration. Balances are checked exactly: account 1 against the
// outputs the node lists for each transaction, account 0 against the token supply (the
// ledger has no fees, so the two always add up to it).

import type { BasicOutput } from '@iota/sdk-wasm/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './node-harness';
import { getJson } from './transactions';
import {
  devWallet,
  firstAddress,
  GENESIS_BECH32,
  included,
  sdk,
  TOKEN_SUPPLY,
  type Account,
  type Wallet,
} from './wallet-harness';

let node: TestNode;
let wallet: Wallet;
let account0: Account;
let account1: Account;
let address1: string;
/** What account 1 owns by the node's outputs, kept up to date by each flow. */
let owned1 = 0n;

interface OutputJson {
  type: number;
  amount: string;
  nftId?: string;
  nativeTokens?: { id: string; amount: string }[];
  unlockConditions: {
    type: number;
    address?: { pubKeyHash?: string };
    returnAddress?: { pubKeyHash?: string };
    amount?: string;
    unixTime?: number;
  }[];
}

/** The outputs of an included transaction, as the node's core API has them. */
async function outputsOf(transactionId: string): Promise<OutputJson[]> {
  const { status, body } = await getJson(node.url, `/api/core/v2/transactions/${transactionId}/included-block`);
  expect(status).toBe(200);
  return body.payload.essence.outputs;
}

/** The base tokens `address` gains from these outputs once it owns them (amount less any deposit to return). */
function creditOf(outputs: OutputJson[], bech32: string): bigint {
  const pubKeyHash = sdk.Utils.bech32ToHex(bech32);
  let sum = 0n;
  for (const output of outputs) {
    const owner = output.unlockConditions.find((u) => u.type === 0);
    if (owner?.address?.pubKeyHash !== pubKeyHash) continue;
    const deposit = output.unlockConditions.find((u) => u.type === 1);
    sum += BigInt(output.amount) - BigInt(deposit?.amount ?? 0);
  }
  return sum;
}

async function expectBalances(): Promise<void> {
  const [balance0, balance1] = [await account0.sync(), await account1.sync()];
  expect(balance1.baseCoin.total).toBe(owned1);
  expect(balance0.baseCoin.total).toBe(TOKEN_SUPPLY - owned1);
}

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
  wallet = devWallet(node.url);
  account0 = await wallet.createAccount({ alias: 'account 0', bech32Hrp: 'tst' });
  account1 = await wallet.createAccount({ alias: 'account 1', bech32Hrp: 'tst' });
  address1 = await firstAddress(account1);
}, 60_000);

afterAll(async () => {
  await wallet?.destroy();
  await node?.stop();
});

describe('the reference wallet with the dev mnemonic', () => {
  it('syncs account 0 to the genesis balance and account 1 to nothing', async () => {
    expect(await firstAddress(account0)).toBe(GENESIS_BECH32);
    const balance0 = await account0.sync();
    expect(balance0.baseCoin).toEqual({ total: TOKEN_SUPPLY, available: TOKEN_SUPPLY });
    const balance1 = await account1.sync();
    expect(balance1.baseCoin).toEqual({ total: 0n, available: 0n });
  });

  it('sends base tokens to account 1: included, exact balances after a resync of both', async () => {
    const amount = 1_000_000_000n;
    const transaction = await account0.send(amount, address1);
    const blockId = await included(account0, transaction);
    const { body: metadata } = await getJson(node.url, `/api/core/v2/blocks/${blockId}/metadata`);
    expect(metadata.ledgerInclusionState).toBe('included');
    owned1 += creditOf(await outputsOf(transaction.transactionId), address1);
    expect(owned1).toBe(amount);
    const [balance0, balance1] = [await account0.sync(), await account1.sync()];
    expect(balance0.baseCoin).toEqual({ total: TOKEN_SUPPLY - amount, available: TOKEN_SUPPLY - amount });
    expect(balance1.baseCoin).toEqual({ total: amount, available: amount });
  });

  it('mints an NFT and sends it to account 1', async () => {
    const minted = await account0.mintNfts([{ immutableMetadata: sdk.utf8ToHex('ledger-node e2e NFT') }]);
    await included(account0, minted);
    const { nfts } = await account0.sync();
    expect(nfts).toHaveLength(1);
    const nftId: string = nfts[0];
    // The indexer finds it by ID, and the core API has the output it names.
    const { body: byId } = await getJson(node.url, `/api/indexer/v1/outputs/nft/${nftId}`);
    expect(byId.items).toHaveLength(1);
    expect((await getJson(node.url, `/api/core/v2/outputs/${byId.items[0]}`)).status).toBe(200);

    const sent = await account0.sendNft([{ address: address1, nftId }]);
    await included(account0, sent);
    owned1 += creditOf(await outputsOf(sent.transactionId), address1);
    expect((await account0.sync()).nfts).toEqual([]);
    expect((await account1.sync()).nfts).toEqual([nftId]);
    await expectBalances();
  });

  it('creates an alias, a foundry and native tokens, and sends tokens that account 1 claims', async () => {
    await included(account0, await account0.createAliasOutput());
    const { aliases } = await account0.sync();
    expect(aliases).toHaveLength(1);

    const prepared = await account0.prepareCreateNativeToken({
      circulatingSupply: 1000n,
      maximumSupply: 5000n,
      foundryMetadata: sdk.utf8ToHex('e2e token'),
    });
    const tokenId: string = prepared.tokenId();
    await included(account0, await prepared.send());
    const created = await account0.sync();
    expect(created.foundries).toEqual([tokenId]);
    expect(created.nativeTokens).toMatchObject([{ tokenId, total: 1000n, available: 1000n }]);
    // The wallet's sync found the foundry through the alias address (indexer §7).
    const aliasAddress = sdk.Utils.aliasIdToBech32(aliases[0], 'tst');
    const { body: foundries } = await getJson(node.url, `/api/indexer/v1/outputs/foundry?aliasAddress=${aliasAddress}`);
    expect(foundries.items).toHaveLength(1);

    // The wallet sends native tokens with a storage deposit return (and an expiration) to
    // the sender: account 1 has to claim them.
    const sent = await account0.sendNativeTokens([{ address: address1, nativeTokens: [[tokenId, 100n]] }]);
    await included(account0, sent);
    const tokenOutputs = (await outputsOf(sent.transactionId)).filter((o) => o.nativeTokens?.length);
    expect(tokenOutputs).toHaveLength(2); // account 1's 100, account 0's 900 in the remainder
    expect((await account0.sync()).nativeTokens).toMatchObject([{ tokenId, total: 900n }]);
    await account1.sync();
    const claimable: string[] = await account1.claimableOutputs(sdk.OutputsToClaim.NativeTokens);
    expect(claimable).toHaveLength(1);
    await included(account1, await account1.claimOutputs(claimable));
    const balance1 = await account1.sync();
    expect(balance1.nativeTokens).toMatchObject([{ tokenId, total: 100n, available: 100n }]);
    // Claiming returned the deposit to account 0 and moved nothing else.
    owned1 += creditOf(await outputsOf(sent.transactionId), address1);
    await expectBalances();
  });

  it('sends a micro amount with a storage deposit return that account 1 claims', async () => {
    const sent = await account0.sendWithParams([{ address: address1, amount: 1000n }], { allowMicroAmount: true });
    await included(account0, sent);
    const [output] = (await outputsOf(sent.transactionId)).filter((o) => o.unlockConditions.some((u) => u.type === 1));
    const deposit = output.unlockConditions.find((u) => u.type === 1)!;
    expect(BigInt(output.amount) - BigInt(deposit.amount!)).toBe(1000n);
    expect(deposit.returnAddress!.pubKeyHash).toBe(sdk.Utils.bech32ToHex(GENESIS_BECH32));
    // Until account 1 claims it, the output is only "potentially locked" for it.
    const before = await account1.sync();
    expect(before.baseCoin.total).toBe(owned1);
    const claimable: string[] = await account1.claimableOutputs(sdk.OutputsToClaim.All);
    expect(claimable).toHaveLength(1);
    await included(account1, await account1.claimOutputs(claimable));
    owned1 += 1000n;
    await expectBalances();
  });

  it('sends an output with an expiration that account 1 claims before it expires', async () => {
    const amount = 2_000_000n;
    const expiration = Math.floor(Date.now() / 1000) + 3600;
    const output = await account0.prepareOutput({
      recipientAddress: address1,
      amount,
      unlocks: { expirationUnixTime: expiration },
    });
    expect((output as BasicOutput).unlockConditions.map((u: { type: number }) => u.type).sort()).toEqual([0, 3]);
    const sent = await account0.sendOutputs([output]);
    await included(account0, sent);
    // The node's indexer lists it for both: unlockable by account 1 now, by account 0 after expiration.
    const outputId = (await outputsOf(sent.transactionId)).findIndex((o) =>
      o.unlockConditions.some((u) => u.type === 3),
    );
    const id = sent.transactionId + outputId.toString(16).padStart(2, '0') + '00';
    for (const address of [address1, GENESIS_BECH32]) {
      const { body } = await getJson(node.url, `/api/indexer/v1/outputs?unlockableByAddress=${address}`);
      expect(body.items).toContain(id);
    }
    await account1.sync();
    const claimable: string[] = await account1.claimableOutputs(sdk.OutputsToClaim.All);
    expect(claimable).toEqual([id]);
    await included(account1, await account1.claimOutputs(claimable));
    owned1 += amount;
    await expectBalances();
    // Nothing left to claim, nothing locked: the two accounts hold the whole supply.
    expect(await account1.claimableOutputs(sdk.OutputsToClaim.All)).toEqual([]);
  });
});
