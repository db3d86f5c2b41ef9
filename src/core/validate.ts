// Syntactic validation (validation.md §2–§7) and the storage deposit (§6).

import native from '../native';
import { toBuffer, toJsonText } from './bytes';
import { fromNative } from './errors';
import type { BlockInput, OutputJson, ProtocolJson, RentStructureJson } from './types';

/**
 * Every syntactic rule, including those that need protocol parameters (network id, token
 * supply, storage deposit, minimum PoW score). `protocol` defaults to the development
 * network. Throws LedgerError with `.code` (the reason) and `.path`.
 */
export function validateBlock(block: BlockInput, protocol?: ProtocolJson): void {
  const params = protocol === undefined ? undefined : JSON.stringify(protocol);
  fromNative(() =>
    block instanceof Uint8Array
      ? native.validateBlockBytes(toBuffer(block), params)
      : native.validateBlockJson(toJsonText(block), params),
  );
}

/** Minimum storage deposit of an output, as a decimal string. */
export function storageDeposit(output: OutputJson | string, rent: RentStructureJson): string {
  return fromNative(() => native.storageDeposit(toJsonText(output), JSON.stringify(rent)));
}
