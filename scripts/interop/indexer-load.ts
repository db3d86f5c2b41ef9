// For scripts/interop/inx-indexer.sh (issue 22): makes a ledger that exercises every TIP-26
// filter, on a node whose indexer is whatever serves /api/indexer/v1 (inx-indexer through
// the proxy, or the built-in one), and writes a plan: the addresses, chain IDs, tags and
// times the queries will ask about (indexer-queries.mjs).
//
// Two phases, both reusing the end-to-end tests' helpers:
// 1. Random basic transfers built with the repo's own builder (test/e2e/transactions.ts):
//    the genesis output split among test keys, then rounds that spend random outputs into
//    1..3 new ones, some with a timelock in the past or the future.
// 2. The reference wallet (@iota/sdk-wasm 1.1.3, test/e2e/wallet-harness.ts) on what is
//    left of the genesis output: an alias whose governor is not its state controller, with
//    sender, metadata and issuer features; a foundry under it minting native tokens; basic
//    outputs with a storage deposit return, an expiration, a timelock, a tag, a sender and
//    native tokens; NFTs with issuer and metadata, one owned by the alias, one sent to
//    account 1; then some of each spent (tokens minted again, an NFT burned, account 1
//    sends back what it can), so that spent outputs must disappear from the index.
//
//   npx vite-node scripts/interop/indexer-load.ts <node url> <plan.json>    (SEED=n, FUNDING_OUTPUT=0x…)

import { writeFileSync } from 'node:fs';
import { core } from '../../test/e2e/node-harness';
import {
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  minedBlock,
  networkIdOf,
  postBlock,
  poll,
  split,
  submitPayload,
  testKey,
  waitForInclusion,
  type Key,
  type Spendable,
  type Target,
  type Transfer,
} from '../../test/e2e/transactions';
import { devWallet, firstAddress, sdk, type Account } from '../../test/e2e/wallet-harness';

const [url, planPath] = process.argv.slice(2);
if (!url || !planPath) throw new Error('usage: indexer-load.ts <node url> <plan.json>');
const seed = Number(process.env.SEED ?? Date.now() % 100_000);

/** mulberry32: a small seeded generator, so that a run can be repeated with SEED. */
function generator(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(seed);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
const now = () => Math.floor(Date.now() / 1000);
const hex = (text: string) => `0x${Buffer.from(text).toString('hex')}`;

async function spendableOfGenesisKey(url: string, outputId: string): Promise<Spendable> {
  const { status, body } = await getJson(url, `/api/core/v2/outputs/${outputId}`);
  if (status !== 200 || body.metadata.isSpent) throw new Error(`FUNDING_OUTPUT ${outputId}: ${status}, not spendable`);
  return { outputId, output: body.output, key: genesisKey };
}

async function main(): Promise<void> {
  const info = (await getJson(url, '/api/core/v2/info')).body;
  const hrp: string = info.protocol.bech32Hrp;
  const bech32 = (key: Key) => core.bech32Encode(hrp, key.address) as string;
  const confirmedIndex = async (): Promise<number> =>
    (await getJson(url, '/api/core/v2/info')).body.status.confirmedMilestone.index;
  /** The timestamp of the milestone that referenced a block: the created time of its outputs. */
  async function bookedAt(blockId: string): Promise<number> {
    const metadata = (await getJson(url, `/api/core/v2/blocks/${blockId}/metadata`)).body;
    const milestone = await getJson(url, `/api/core/v2/milestones/by-index/${metadata.referencedByMilestoneIndex}`);
    return milestone.body.timestamp;
  }

  /** Wait until the indexer serving /api/indexer/v1 has applied the confirmed milestone. */
  async function indexerCaughtUp(): Promise<void> {
    const target = await confirmedIndex();
    await poll(
      `the indexer to reach milestone ${target}`,
      async () => {
        const res = await fetch(`${url}/api/indexer/v1/outputs/basic?pageSize=1`);
        if (res.status !== 200) return undefined;
        return (await res.json()).ledgerIndex >= target ? true : undefined;
      },
      60_000,
    );
  }

  // ---- phase 1: random basic transfers with the repo's builder ----

  const networkId = await networkIdOf(url);
  const keys = Array.from({ length: 5 }, (_, i) => testKey(`indexer interop ${i}`));
  /** Created times of outputs (booking milestones' timestamps), to ask createdBefore/After about. */
  const bookedTimes = new Set<number>();
  const timelocks: number[] = [];
  // FUNDING_OUTPUT: another output of the genesis key to fund the load, half of which goes
  // to a reserve key the load never touches, for the caller to go on with (hornet.sh
  // snapshots, where the genesis output is spent before the load and transfers follow it).
  const funding = process.env.FUNDING_OUTPUT;
  const genesis = funding ? await spendableOfGenesisKey(url, funding) : await genesisSpendable(url);
  const reserveKey = testKey('indexer interop reserve');
  const reserve = funding ? BigInt(genesis.output.amount) / 2n : 0n;
  const shares = Array.from({ length: keys.length }, () => BigInt(20_000_000 + Math.floor(random() * 80_000_000)));
  const rest = BigInt(genesis.output.amount) - reserve - shares.reduce((a, b) => a + b, 0n);
  const first = buildTransfer(
    networkId,
    [genesis],
    [
      ...keys.map((to, i) => ({ to, amount: shares[i] })),
      { to: genesisKey, amount: rest },
      ...(funding ? [{ to: reserveKey, amount: reserve }] : []),
    ],
  );
  await submitPayload(url, first.payload);
  const reserved = first.outputs.find((o) => o.key === reserveKey);
  if (reserved) console.log(`reserve: ${reserved.outputId} ${reserveKey.seed}`);
  bookedTimes.add(await bookedAt((await waitForInclusion(url, first.transactionId, 60_000)).blockId));
  /** Outputs of the test keys that are unspent and not timelocked into the future. */
  const spendable: Spendable[] = first.outputs.filter((o) => o.key !== genesisKey && o.key !== reserveKey);
  const spent = new Set<string>();
  let transfers = 1;
  let chained = 0;
  const lockedInFuture = (transfer: Transfer, index: number) => {
    const { outputs } = transfer.payload.essence as {
      outputs: { unlockConditions: { type: number; unixTime?: number }[] }[];
    };
    const timelock = outputs[index].unlockConditions.find((c) => c.type === 2)?.unixTime;
    return timelock !== undefined && timelock >= now();
  };
  for (let round = 0; round < 10; round++) {
    // Up to four transfers a round with distinct inputs, so that one milestone books several.
    const pending = [];
    for (let t = 0; t < 4 && spendable.length > 0; t++) {
      const input = spendable.splice(Math.floor(random() * spendable.length), 1)[0];
      // Each new output keeps at least 1 Mi, well above the minimum storage deposit.
      const parts = Math.max(
        1,
        Math.min(1 + Math.floor(random() * 3), Number(BigInt(input.output.amount) / 1_000_000n)),
      );
      const amounts = split(input.output.amount, parts);
      const targets: Target[] = amounts.map((amount) => {
        const target: Target = { to: pick(keys), amount };
        const r = random();
        // A timelock already past (spendable) or an hour ahead (not spendable here).
        if (r < 0.15) target.timelock = now() - 60 - Math.floor(random() * 600);
        else if (r < 0.25) target.timelock = now() + 3600 + Math.floor(random() * 600);
        if (target.timelock !== undefined) timelocks.push(target.timelock);
        return target;
      });
      const transfer = buildTransfer(networkId, [input], targets);
      const blockId = await submitPayload(url, transfer.payload);
      pending.push(transfer);
      // Now and then a transfer that spends the first output of this one at once, in a block
      // approving it: usually booked by the same milestone, so that output is created and
      // spent in one ledger update and must never be listed.
      if (t === 0 && random() < 0.6 && !lockedInFuture(transfer, 0)) {
        const next = buildTransfer(
          networkId,
          [transfer.outputs[0]],
          [{ to: pick(keys), amount: transfer.outputs[0].output.amount }],
        );
        const tips: string[] = (await getJson(url, '/api/core/v2/tips')).body.tips;
        const parents = [...new Set([blockId, ...tips])].slice(0, 8);
        const res = await postBlock(url, (await minedBlock(parents, next.payload, info.protocol.minPowScore)).bytes);
        if (res.status !== 201) throw new Error(`chained transfer: ${res.status} ${await res.text()}`);
        spent.add(transfer.outputs[0].outputId);
        pending.push(next);
      }
    }
    const referencedBy = new Map<string, number>();
    for (const transfer of pending) {
      const metadata = await waitForInclusion(url, transfer.transactionId, 60_000);
      referencedBy.set(transfer.transactionId, metadata.referencedByMilestoneIndex);
      bookedTimes.add(await bookedAt(metadata.blockId));
      transfers++;
      for (const [i, output] of transfer.outputs.entries())
        if (!lockedInFuture(transfer, i) && !spent.has(output.outputId)) spendable.push(output);
    }
    for (const [i, transfer] of pending.entries())
      if (i > 0 && transfer.inputs[0] === pending[i - 1].outputs[0].outputId) {
        const same = referencedBy.get(transfer.transactionId) === referencedBy.get(pending[i - 1].transactionId);
        if (same) chained++;
      }
  }
  await indexerCaughtUp();
  console.log(
    `seed ${seed}: ${transfers} basic transfers among ${keys.length} test keys, ${chained} outputs created and spent under one milestone`,
  );

  // ---- phase 2: the reference wallet ----

  /** The IDs of the new alias or NFT outputs of a wallet transaction. */
  function createdChainIds(
    transaction: { transactionId: string; payload: { essence: unknown } },
    type: number,
    chainId: (outputId: string) => string,
  ): string[] {
    const { outputs } = transaction.payload.essence as import('@iota/sdk-wasm/node').RegularTransactionEssence;
    return outputs.flatMap((output, index) =>
      output.type === type ? [chainId(sdk.Utils.computeOutputId(transaction.transactionId, index))] : [],
    );
  }

  const wallet = devWallet(url);
  try {
    const account0 = await wallet.createAccount({ alias: 'account 0', bech32Hrp: hrp });
    const account1 = await wallet.createAccount({ alias: 'account 1', bech32Hrp: hrp });
    const address0 = await firstAddress(account0);
    const address1 = await firstAddress(account1);
    if (address0 !== bech32(genesisKey)) throw new Error('account 0 does not own the genesis key');
    /** Wait for inclusion, then for the indexer, then sync (a wallet syncs through the indexer). */
    let walletTransactions = 0;
    const done = async (account: Account, transaction: { transactionId: string }) => {
      walletTransactions++;
      const blockId: string = await account.retryTransactionUntilIncluded(transaction.transactionId, 1, 60);
      bookedTimes.add(await bookedAt(blockId));
      await indexerCaughtUp();
      await account.sync({ forceSyncing: true });
      await account1.sync({ forceSyncing: true });
    };
    await account0.sync();
    await account1.sync();

    // An alias: state controller account 0, governor account 1, sender, metadata and issuer.
    const client = new sdk.Client({ nodes: [url] });
    const aliasOutput = await client.buildAliasOutput({
      aliasId: `0x${'00'.repeat(32)}`,
      unlockConditions: [
        new sdk.StateControllerAddressUnlockCondition(sdk.Utils.parseBech32Address(address0)),
        new sdk.GovernorAddressUnlockCondition(sdk.Utils.parseBech32Address(address1)),
      ],
      features: [new sdk.SenderFeature(sdk.Utils.parseBech32Address(address0)), new sdk.MetadataFeature(hex('alias'))],
      immutableFeatures: [new sdk.IssuerFeature(sdk.Utils.parseBech32Address(address0))],
    });
    await done(account0, await account0.sendOutputs([aliasOutput]));
    const aliasId = (await account0.sync({ forceSyncing: true })).aliases[0];
    if (!aliasId) throw new Error('account 0 does not see its alias');
    const aliasAddress = sdk.Utils.aliasIdToBech32(aliasId, hrp);

    // A foundry under it, minting native tokens (the alias transitions, its old output spent).
    const prepared = await account0.prepareCreateNativeToken({
      aliasId,
      circulatingSupply: 1000n,
      maximumSupply: 9000n,
    });
    const tokenId = prepared.tokenId();
    await done(account0, await prepared.send());
    await done(account0, await account0.mintNativeToken(tokenId, 500n));
    // A second token of the same alias, so that an output can hold two kinds.
    const second = await account0.prepareCreateNativeToken({ aliasId, circulatingSupply: 700n, maximumSupply: 700n });
    const secondTokenId = second.tokenId();
    await done(account0, await second.send());
    // A second alias holding both tokens (state controller account 1, governor account 0),
    // so that the native-token filters of the alias route have something to tell apart.
    const tokenAliasOutput = await client.buildAliasOutput({
      aliasId: `0x${'00'.repeat(32)}`,
      nativeTokens: [
        { id: tokenId, amount: 10n },
        { id: secondTokenId, amount: 5n },
      ],
      unlockConditions: [
        new sdk.StateControllerAddressUnlockCondition(sdk.Utils.parseBech32Address(address1)),
        new sdk.GovernorAddressUnlockCondition(sdk.Utils.parseBech32Address(address0)),
      ],
    });
    await client.destroy();
    const tokenAliasTransaction = await account0.sendOutputs([tokenAliasOutput]);
    await done(account0, tokenAliasTransaction);
    const tokenAliasId = createdChainIds(tokenAliasTransaction, sdk.OutputType.Alias, sdk.Utils.computeAliasId)[0];
    const tokenAliasAddress = sdk.Utils.aliasIdToBech32(tokenAliasId, hrp);

    // Basic outputs with each unlock condition and feature a filter can ask about.
    const tag = hex('indexer interop');
    const expiresAt = now() + 7200 + Math.floor(random() * 600);
    const lockedUntil = now() + 5400 + Math.floor(random() * 600);
    const outputs = [
      // Too small to stand alone: the wallet adds a storage deposit return to account 0.
      await account0.prepareOutput({
        recipientAddress: address1,
        amount: '10000',
        storageDeposit: { returnStrategy: sdk.ReturnStrategy.Return },
      }),
      await account0.prepareOutput({
        recipientAddress: address1,
        amount: '2000000',
        unlocks: { expirationUnixTime: expiresAt },
      }),
      await account0.prepareOutput({
        recipientAddress: bech32(pick(keys)),
        amount: '1500000',
        unlocks: { timelockUnixTime: lockedUntil },
      }),
      await account0.prepareOutput({
        recipientAddress: bech32(pick(keys)),
        amount: '1200000',
        features: { tag, sender: address0, metadata: hex('tagged') },
      }),
      await account0.prepareOutput({
        recipientAddress: address1,
        amount: '1000000',
        assets: { nativeTokens: [{ id: tokenId, amount: 300n }] },
        features: { sender: address0 },
      }),
      await account0.prepareOutput({
        recipientAddress: address1,
        amount: '1000000',
        assets: {
          nativeTokens: [
            { id: tokenId, amount: 20n },
            { id: secondTokenId, amount: 30n },
          ],
        },
      }),
    ];
    timelocks.push(lockedUntil);
    await done(account0, await account0.sendOutputs(outputs));
    // The wallet's own way of sending tokens: a storage deposit return and an expiration.
    await done(
      account0,
      await account0.sendNativeTokens([{ address: bech32(pick(keys)), nativeTokens: [[tokenId, 100n]] }]),
    );

    // NFTs: with issuer, metadata, tag and sender; one owned by the alias; one to send; one to burn.
    const minted = await account0.mintNfts([
      { issuer: address0, immutableMetadata: hex('nft 1'), metadata: hex('mutable 1'), tag, sender: address0 },
      { address: aliasAddress, issuer: address0, immutableMetadata: hex('nft of the alias') },
      { issuer: address0, immutableMetadata: hex('nft to send') },
      { immutableMetadata: hex('nft to burn') },
    ]);
    await done(account0, minted);
    // Every NFT the transaction minted, the alias's included (account 0's sync leaves it out).
    const nftIds = createdChainIds(minted, sdk.OutputType.Nft, sdk.Utils.computeNftId);
    const nftOutputs = await Promise.all(
      nftIds.map(async (id) => ({
        id,
        output: (await getJson(url, `/api/core/v2/outputs/${await getNftOutputId(id)}`)).body.output,
      })),
    );
    const byMetadata = (text: string) =>
      nftOutputs.find((n) => JSON.stringify(n.output).includes(hex(text).slice(2)))?.id as string;
    const toSend = byMetadata('nft to send');
    const toBurn = byMetadata('nft to burn');
    // The NFT to send goes to account 1 with an expiration back to account 0.
    const nftWithExpiration = await account0.prepareOutput({
      recipientAddress: address1,
      amount: '0',
      assets: { nftId: toSend },
      unlocks: { expirationUnixTime: expiresAt + 60 },
      features: { tag: hex('nft tag'), sender: address0 },
    });
    await done(account0, await account0.sendOutputs([nftWithExpiration]));
    // Basic outputs owned by the alias and by an NFT (unlocked through the chain).
    const toChains = [aliasAddress, sdk.Utils.nftIdToBech32(byMetadata('nft 1'), hrp)].map((recipientAddress) =>
      account0.prepareOutput({ recipientAddress, amount: '1000000' }),
    );
    await done(account0, await account0.sendOutputs(await Promise.all(toChains)));
    // An NFT that holds native tokens.
    const nftWithTokens = await account0.prepareOutput({
      recipientAddress: address0,
      amount: '0',
      assets: { nftId: byMetadata('nft 1'), nativeTokens: [{ id: tokenId, amount: 7n }] },
    });
    await done(account0, await account0.sendOutputs([nftWithTokens]));
    await done(account0, await account0.burn({ nfts: [toBurn] }));

    // Spent later: account 1 sends back what it may (its plain outputs), account 0 mints again.
    const balance1 = await account1.sync({ forceSyncing: true });
    if (balance1.baseCoin.available > 1_000_000n)
      await done(account1, await account1.send(balance1.baseCoin.available / 2n, address0));
    await done(account0, await account0.mintNativeToken(tokenId, 50n));

    const foundryIds = (await account0.sync({ forceSyncing: true })).foundries;
    const plan = {
      seed,
      addresses: [
        ...new Set([
          ...keys.map(bech32),
          address0,
          address1,
          aliasAddress,
          tokenAliasAddress,
          ...nftIds.map(nftAddress),
        ]),
      ],
      aliasAddresses: [aliasAddress, tokenAliasAddress],
      aliasIds: [aliasId, tokenAliasId, `0x${'11'.repeat(32)}`],
      nftIds,
      foundryIds: [...foundryIds, sdk.Utils.computeFoundryId(aliasId, 3, 0)],
      // Tags asked exactly, by a prefix of one, and one nobody used.
      tags: [tag, hex('nft tag'), hex('indexer'), hex('no such tag')],
      times: [...new Set([...bookedTimes, ...timelocks, expiresAt, expiresAt + 60, lockedUntil])].sort((a, b) => a - b),
      bookedTimes: [...bookedTimes].sort((a, b) => a - b),
    };
    writeFileSync(planPath, JSON.stringify(plan, null, 2));
    console.log(
      `wallet: ${walletTransactions} transactions, alias ${aliasId}, foundries ${foundryIds.length}, NFTs ${nftIds.length} (1 burned), ${plan.addresses.length} addresses`,
    );

    function nftAddress(id: string): string {
      return sdk.Utils.nftIdToBech32(id, hrp);
    }
    async function getNftOutputId(id: string): Promise<string> {
      const { status, body } = await getJson(url, `/api/indexer/v1/outputs/nft/${id}`);
      if (status !== 200) throw new Error(`nft ${id}: ${status}`);
      return body.items[0];
    }
  } finally {
    await wallet.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
