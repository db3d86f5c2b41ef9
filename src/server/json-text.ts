// API JSON of stored objects as text, straight from the native emitter (it already writes
// the canonical key order), so lookups do not parse and re-serialize in JavaScript.

import native from '../native';
import { fromNative } from '../core/errors';

export const blockJsonText = (bytes: Buffer): string => fromNative(() => native.decodeBlockToJson(bytes));

// A block read from the store's cache is the same Buffer every time, so its JSON is kept
// per Buffer (and forgotten with it), already encoded as UTF-8: the response then writes
// it as it is.
const blockJsons = new WeakMap<Buffer, Buffer>();

export function blockJsonBytes(bytes: Buffer): Buffer {
  let json = blockJsons.get(bytes);
  if (json === undefined) {
    json = Buffer.from(blockJsonText(bytes));
    blockJsons.set(bytes, json);
  }
  return json;
}
export const payloadJsonText = (bytes: Buffer): string => fromNative(() => native.decodePayloadToJson(bytes));
export const outputJsonText = (bytes: Buffer): string => fromNative(() => native.decodeOutputToJson(bytes));
