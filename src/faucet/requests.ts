// Checking what a client asks the faucet for: a bech32 address of this network (Ed25519,
// alias or NFT), lower-cased as the node writes addresses. Refusals carry the HTTP status
// and a reason for the D6 body; the route turns them into answers.

import { bech32Decode } from '../core/ids';
import type { AddressJson } from '../core/types';

export class FaucetRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
    this.name = 'FaucetRefusal';
  }
}

export interface ParsedAddress {
  bech32: string;
  address: AddressJson;
}

export function parseRecipient(value: unknown, hrp: string): ParsedAddress {
  if (typeof value !== 'string' || value === '') throw new FaucetRefusal(400, 'address: a bech32 address is required');
  let decoded: ReturnType<typeof bech32Decode>;
  try {
    decoded = bech32Decode(value);
  } catch {
    throw new FaucetRefusal(400, `address: '${clip(value)}' is not a valid bech32 address`);
  }
  if (decoded.hrp !== hrp)
    throw new FaucetRefusal(400, `address: HRP '${decoded.hrp}' is another network's; this network uses '${hrp}'`);
  return { bech32: value.toLowerCase(), address: decoded.address };
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
