// Glue between the end-to-end tests and the unchanged reference wallet (@iota/sdk-wasm
// 1.1.3 `Wallet`, the Rust wallet of iota-sdk 1.1 compiled to WebAssembly). In Node its
// storage is in memory (the WebAssembly build has no database, `storagePath` is ignored),
// the secret manager is the mnemonic itself, and it talks to the node with Node's fetch.
// Nothing here changes what the wallet does: it only waits the way a wallet user would.

export const sdk = require('@iota/sdk-wasm/node') as typeof import('@iota/sdk-wasm/node');

/** The published development mnemonic (D23); account 0, address 0 owns the genesis output. */
export const DEV_MNEMONIC =
  'market sustain pattern display high people desert trial section prevent hat praise egg say gym design claw mosquito decide unaware fluid crash moon stairs';
export const GENESIS_BECH32 = 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc';
export const TOKEN_SUPPLY = 4_600_000_000_000_000n;

export type Account = import('@iota/sdk-wasm/node').Account;
export type Wallet = import('@iota/sdk-wasm/node').Wallet;

/** A wallet on the node at `url` with the dev mnemonic, coin type 4218 (IOTA, as D23). */
export function devWallet(url: string): Wallet {
  return new sdk.Wallet({
    coinType: sdk.CoinType.IOTA,
    clientOptions: { nodes: [url] },
    secretManager: { mnemonic: DEV_MNEMONIC },
  });
}

export async function firstAddress(account: Account): Promise<string> {
  return (await account.addresses())[0].address;
}

/**
 * Wait until the account's transaction is included (the wallet polls the node once a
 * second and reattaches if the node says so), then sync it so that its balance and the
 * outputs it may spend next are the node's. Returns the including block's ID.
 */
export async function included(account: Account, transaction: { transactionId: string }): Promise<string> {
  const blockId: string = await account.retryTransactionUntilIncluded(transaction.transactionId, 1, 30);
  await account.sync();
  return blockId;
}
