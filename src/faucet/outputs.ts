// The faucet's money: the unspent Basic outputs of its address that only need its
// signature (no storage deposit return, timelock, expiration or native tokens), found
// through the node's own indexer (one prefix scan per page) and read from the ledger.

import { decodeOutput } from '../core/codec';
import type { BasicOutputJson } from '../core/types';
import type { IndexerQuery, LedgerStoreApi } from '../store-contract';

export interface FaucetOutput {
  outputId: string;
  output: BasicOutputJson;
  amount: bigint;
}

export interface FaucetFunds {
  ledgerIndex: number;
  outputs: FaucetOutput[];
  balance: bigint;
}

const PAGE_SIZE = 1000;
/** Enough to pay any batch many times over; the balance counts only these. */
const MAX_OUTPUTS = 10_000;

export async function faucetFunds(store: LedgerStoreApi, bech32: string): Promise<FaucetFunds> {
  const outputs: FaucetOutput[] = [];
  let cursor: string | undefined;
  let ledgerIndex = 0;
  do {
    const query: IndexerQuery = {
      route: 'basic',
      address: bech32,
      hasStorageDepositReturn: false,
      hasTimelock: false,
      hasExpiration: false,
      hasNativeTokens: false,
      pageSize: PAGE_SIZE,
      cursor,
    };
    const page = JSON.parse((await store.queryOutputs(query)).toString()) as {
      ledgerIndex: number;
      cursor?: string;
      items: string[];
    };
    if (cursor === undefined) ledgerIndex = page.ledgerIndex;
    for (const outputId of page.items) {
      const found = store.getOutput(outputId);
      if (found === null || (JSON.parse(found.metadata) as { isSpent: boolean }).isSpent) continue;
      const output = decodeOutput(found.output) as BasicOutputJson;
      outputs.push({ outputId, output, amount: BigInt(output.amount) });
    }
    cursor = page.cursor ?? undefined;
  } while (cursor !== undefined && outputs.length < MAX_OUTPUTS);
  return { ledgerIndex, outputs, balance: outputs.reduce((sum, o) => sum + o.amount, 0n) };
}
