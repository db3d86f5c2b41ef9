// Path parameters (api.md §1.4): malformed → 400; returned lower-cased for the store.

import { badRequest } from '../../http/error';

const ID32 = /^0x[0-9a-f]{64}$/i;
const OUTPUT_ID = /^0x[0-9a-f]{68}$/i;

export function id32Param(value: string, name: string): string {
  if (!ID32.test(value)) throw badRequest(`${name}: must be 0x followed by 64 hex digits`);
  return value.toLowerCase();
}

export function outputIdParam(value: string): string {
  if (!OUTPUT_ID.test(value)) throw badRequest('outputId: must be 0x followed by 68 hex digits');
  return value.toLowerCase();
}

export function indexParam(value: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > 0xffffffff) throw badRequest('index: must be a decimal u32');
  return Number(value);
}
