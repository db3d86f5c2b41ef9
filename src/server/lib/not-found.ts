// The reasons of the 404s that both the routes and the answers before Koa
// (before-koa/reads.ts) give, so that the two always say the same.

import type { LedgerStoreApi } from '../../store-contract';

export const blockNotFound = (blockId: string): string => `block ${blockId} not found`;

export const outputNotFound = (outputId: string): string => `output ${outputId} not found`;

/** Why a transaction has no included block: never seen, or carried only by blocks that no
 * milestone confirmed as included (the transaction-id index tells the two apart). */
export function transactionNotIncluded(
  store: Pick<LedgerStoreApi, 'getBlocksWithTransaction'>,
  transactionId: string,
): string {
  const carriers = store.getBlocksWithTransaction(transactionId).length;
  return carriers === 0
    ? `transaction ${transactionId} not found`
    : `transaction ${transactionId} not included (carried by ${carriers} block(s) not confirmed as included)`;
}
