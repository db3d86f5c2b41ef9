// Identifiers (wire-format.md §4), all as 0x-hex except the network id (decimal string).

import native from '../native';
import { bytesOrJson, toBuffer, toJsonText } from './bytes';
import { fromNative } from './errors';
import type { AddressJson, BlockInput, JsonInput } from './types';

export function blockId(input: BlockInput): string {
  return input instanceof Uint8Array
    ? native.blockId(toBuffer(input))
    : fromNative(() => native.blockIdOfJson(toJsonText(input)));
}

/** Of a block carrying a transaction, or of the transaction payload itself. */
export function transactionId(input: BlockInput): string {
  return fromNative(() => native.transactionIdOf(bytesOrJson(input)));
}

/** The message every signature unlock of the transaction signs. */
export function essenceHash(input: BlockInput): string {
  return fromNative(() => native.essenceHashOf(bytesOrJson(input)));
}

/** Of a block carrying a milestone, or of the milestone payload itself. */
export function milestoneId(input: BlockInput): string {
  return fromNative(() => native.milestoneIdOf(bytesOrJson(input)));
}

/** Inputs commitment over the consumed outputs, in input order. */
export function inputsCommitment(outputs: JsonInput[]): string {
  return fromNative(() => native.inputsCommitmentOf(JSON.stringify(outputs)));
}

export function outputId(transactionId: string, index: number): string {
  return fromNative(() => native.outputIdOf(transactionId, index));
}

/** Network id of a published network name, as a decimal string (D4). */
export function networkId(name: string): string {
  return native.networkIdOf(name);
}

/** TIP-4 merkle root over block ids (milestone inclusion and applied roots). */
export function merkleRoot(blockIds: string[]): string {
  return fromNative(() => native.merkleRootOf(blockIds));
}

/**
 * BIP-173 bech32 form of an address, e.g. `tst1qq…`. The address is its JSON object, or
 * `0x`-hex of its 33 bytes (kind first), or of 32 bytes for an Ed25519 address.
 */
export function bech32Encode(hrp: string, address: AddressJson | JsonInput): string {
  return fromNative(() => native.addressToBech32(hrp, typeof address === 'string' ? address : JSON.stringify(address)));
}

export function bech32Decode(text: string): { hrp: string; address: AddressJson } {
  const { hrp, addressJson } = fromNative(() => native.bech32ToAddressJson(text));
  return { hrp, address: JSON.parse(addressJson) };
}
