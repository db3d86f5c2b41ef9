// The reference wallet's other chain operations and sync options against the node (beyond
// issue 11's list, to exercise the indexer the way wallets do): native tokens minted more,
// melted and burned; a foundry and its alias destroyed; an NFT burned; a timelocked output
// that account 1 can spend only after its time; the non-default sync options (most basic
// outputs only, per-kind queries, native-token foundries) and account recovery, which must
// all agree with the default sync. Unchanged @iota/sdk-wasm 1.1.3, dev mnemonic (D23).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './node-harness';
import { getJson, poll } from './transactions';
import { devWallet, firstAddress, included, sdk, TOKEN_SUPPLY, type Account, type Wallet } from './wallet-harness';

/** How long the timelocked output stays locked (s). */
const LOCKED_FOR = 20;

let node: TestNode;
let wallet: Wallet;
let account0: Account;
let account1: Account;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
  wallet = devWallet(node.url);
  account0 = await wallet.createAccount({ alias: 'account 0', bech32Hrp: 'tst' });
  account1 = await wallet.createAccount({ alias: 'account 1', bech32Hrp: 'tst' });
  await account0.sync();
}, 60_000);

afterAll(async () => {
  await wallet?.destroy();
  await node?.stop();
});

describe('the reference wallet: token and chain life cycles', () => {
  let tokenId: string;
  let aliasId: string;

  it('mints more tokens and melts some; the foundry counts what was minted and melted', async () => {
    await included(account0, await account0.createAliasOutput());
    aliasId = (await account0.sync()).aliases[0];
    const prepared = await account0.prepareCreateNativeToken({ circulatingSupply: 1000n, maximumSupply: 5000n });
    tokenId = prepared.tokenId();
    await included(account0, await prepared.send());
    await included(account0, await account0.mintNativeToken(tokenId, 500n));
    await included(account0, await account0.meltNativeToken(tokenId, 200n));
    const balance = await account0.sync();
    expect(balance.nativeTokens).toMatchObject([{ tokenId, total: 1300n }]);
    // The foundry by ID, as the wallet reads it (indexer §3.4), and its supply counters.
    const foundry = await account0.getFoundryOutput(tokenId);
    expect(foundry.tokenScheme).toMatchObject({ mintedTokens: 1500n, meltedTokens: 200n, maximumSupply: 5000n });
    const { body } = await getJson(node.url, `/api/indexer/v1/outputs/foundry/${tokenId}`);
    expect(body.items).toHaveLength(1);
  });

  it('agrees with itself under every sync option', async () => {
    const reference = await account0.sync();
    const variants = [
      { syncNativeTokenFoundries: true },
      { syncOnlyMostBasicOutputs: true },
      {
        account: { basicOutputs: true, nftOutputs: true, aliasOutputs: true },
        alias: { basicOutputs: true, nftOutputs: true, aliasOutputs: true, foundryOutputs: true },
        nft: { basicOutputs: true, nftOutputs: true, aliasOutputs: true },
      },
      { forceSyncing: true, syncIncomingTransactions: true },
    ];
    // What the alias and the foundry hold: a sync of basic outputs only leaves them out.
    const chainAmount = async (route: string) => {
      const { body } = await getJson(node.url, `/api/indexer/v1/outputs/${route}`);
      return BigInt((await getJson(node.url, `/api/core/v2/outputs/${body.items[0]}`)).body.output.amount);
    };
    const inChains = (await chainAmount(`alias/${aliasId}`)) + (await chainAmount(`foundry/${tokenId}`));
    for (const options of variants) {
      // forceSyncing: the wallet answers a sync within 5 s of the last one from its cache,
      // which would make the result depend on how fast the machine runs this loop.
      const balance = await account0.sync({ ...options, forceSyncing: true });
      const expected = options.syncOnlyMostBasicOutputs
        ? reference.baseCoin.total - inChains
        : reference.baseCoin.total;
      expect(balance.baseCoin.total, JSON.stringify(options)).toBe(expected);
      if (!options.syncOnlyMostBasicOutputs)
        expect(balance.foundries, JSON.stringify(options)).toEqual(reference.foundries);
    }
    expect((await account0.sync()).aliases).toEqual([aliasId]);
  });

  it('mints and burns an NFT', async () => {
    await included(account0, await account0.mintNfts([{ immutableMetadata: sdk.utf8ToHex('to burn') }]));
    const [nftId] = (await account0.sync()).nfts;
    expect((await getJson(node.url, `/api/indexer/v1/outputs/nft/${nftId}`)).status).toBe(200);
    await included(account0, await account0.burn({ nfts: [nftId] }));
    expect((await account0.sync()).nfts).toEqual([]);
    expect((await getJson(node.url, `/api/indexer/v1/outputs/nft/${nftId}`)).status).toBe(404);
  });

  it('melts the rest and destroys the foundry, then the alias', async () => {
    // (Burned tokens would stay in the foundry's circulating supply: only melting brings it
    // to 0, which destroying a foundry needs.)
    await included(account0, await account0.meltNativeToken(tokenId, 1300n));
    const [foundryId] = (await account0.sync()).foundries;
    await included(account0, await account0.burn({ foundries: [foundryId] }));
    await included(account0, await account0.burn({ aliases: [aliasId] }));
    const balance = await account0.sync();
    expect(balance).toMatchObject({ aliases: [], foundries: [], nativeTokens: [] });
    expect((await getJson(node.url, `/api/indexer/v1/outputs/alias/${aliasId}`)).status).toBe(404);
    // Every storage deposit came back: account 0 holds the whole supply again.
    expect(balance.baseCoin).toEqual({ total: TOKEN_SUPPLY, available: TOKEN_SUPPLY });
  });

  it('sends a timelocked output that account 1 can spend only after its time', async () => {
    const amount = 1_000_000n;
    // Sending, waiting for the inclusion (the wallet polls once a second) and syncing take
    // a few seconds: the lock lasts long enough for all of that on a loaded machine.
    const unlocksAt = Math.floor(Date.now() / 1000) + LOCKED_FOR;
    const output = await account0.prepareOutput({
      recipientAddress: await firstAddress(account1),
      amount,
      unlocks: { timelockUnixTime: unlocksAt },
    });
    await included(account0, await account0.sendOutputs([output]));
    const locked = await account1.sync();
    const lockedChecked = `synced ${Math.floor(Date.now() / 1000) - unlocksAt} s after the unlock time`;
    expect(locked.baseCoin.available, lockedChecked).toBe(0n);
    expect(Object.values(locked.potentiallyLockedOutputs), lockedChecked).toEqual([false]); // not unlockable yet
    // Past the time on this clock (the wallet's) and on the ledger's (the latest milestone's
    // timestamp), so that the milestone that confirms the spend is past it too.
    await poll(
      'a milestone after the unlock time',
      async () => {
        const { timestamp } = (await getJson(node.url, '/api/core/v2/info')).body.status.latestMilestone;
        return Date.now() / 1000 > unlocksAt + 1 && timestamp > unlocksAt ? true : undefined;
      },
      LOCKED_FOR * 1000 + 30_000,
      250,
    );
    expect((await account1.sync()).baseCoin).toEqual({ total: amount, available: amount });
    const back = await account1.send(amount, await firstAddress(account0));
    await included(account1, back);
    expect((await account0.sync()).baseCoin.total).toBe(TOKEN_SUPPLY);
  }, 120_000);

  it('recovers both accounts from the mnemonic alone', async () => {
    const amount = 3_000_000n;
    await included(account0, await account0.send(amount, await firstAddress(account1)));
    const fresh = devWallet(node.url);
    try {
      const accounts = await fresh.recoverAccounts(0, 2, 2, {});
      expect(accounts).toHaveLength(2);
      expect((await accounts[0].sync()).baseCoin.total).toBe(TOKEN_SUPPLY - amount);
      expect((await accounts[1].sync()).baseCoin.total).toBe(amount);
    } finally {
      await fresh.destroy();
    }
  });
});
