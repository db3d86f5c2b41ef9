// Tip selection as the API sees it: the store's choice, or 503 when it cannot choose
// (before milestone 1 or when no parents can be selected).

import { LedgerError } from '../../core/errors';
import type { LedgerStoreApi } from '../../store-contract';
import { unavailable } from '../../http/error';

export function selectTips(store: LedgerStoreApi): string[] {
  try {
    return store.selectTips();
  } catch (err) {
    if (err instanceof LedgerError)
      throw unavailable(err.code === 'not-ready' ? 'node is not ready' : `no tips can be selected (${err.detail})`);
    throw err;
  }
}
