// Blocks, payloads and outputs between their API JSON and their wire bytes.

import native from '../native';
import { bytesOrJson, toBuffer, toJsonText } from './bytes';
import { fromNative } from './errors';
import type { BlockInput, BlockJson, JsonInput, OutputJson, PayloadJson } from './types';

export function encodeBlock(json: JsonInput): Buffer {
  return fromNative(() => native.encodeBlockJson(toJsonText(json)));
}

/**
 * Where the binding writes a block's bytes and id (this thread's own): a block is at most
 * 32,768 bytes on the wire, its id 32 more. A Buffer made by the binding for every call
 * costs more than the copy out of this one into Node's pooled small Buffers.
 */
const SCRATCH = Buffer.allocUnsafeSlow(32_768 + 32);

/** Wire bytes and block id of a block given as JSON, in one native call. */
export function encodeBlockWithId(json: JsonInput): { bytes: Buffer; id: string } {
  const text = toJsonText(json);
  let out = SCRATCH;
  let length = fromNative(() => native.encodeBlockJsonInto(text, out));
  if (length < 0) {
    // Larger than any valid block: encoded all the same (validation says what is wrong).
    out = Buffer.allocUnsafeSlow(-length);
    length = fromNative(() => native.encodeBlockJsonInto(text, out));
  }
  const bytes = Buffer.allocUnsafe(length);
  out.copy(bytes, 0, 0, length);
  return { bytes, id: '0x' + out.toString('hex', length, length + 32) };
}

export function decodeBlock(bytes: Uint8Array): BlockJson {
  return JSON.parse(fromNative(() => native.decodeBlockToJson(toBuffer(bytes))));
}

/** The block and its id from its bytes, in one native call. */
export function decodeBlockWithId(bytes: Uint8Array): { block: BlockJson; id: string } {
  const { json, id } = fromNative(() => native.decodeBlockToJsonWithId(toBuffer(bytes)));
  return { block: JSON.parse(json), id };
}

export function encodePayload(json: JsonInput): Buffer {
  return fromNative(() => native.encodePayloadJson(toJsonText(json)));
}

export function decodePayload(bytes: Uint8Array): PayloadJson {
  return JSON.parse(fromNative(() => native.decodePayloadToJson(toBuffer(bytes))));
}

export function encodeOutput(json: JsonInput): Buffer {
  return fromNative(() => native.encodeOutputJson(toJsonText(json)));
}

export function decodeOutput(bytes: Uint8Array): OutputJson {
  return JSON.parse(fromNative(() => native.decodeOutputToJson(toBuffer(bytes))));
}

/** Serialized bytes of a block given in any accepted form. */
export function blockBytes(input: BlockInput): Buffer {
  return input instanceof Uint8Array ? toBuffer(input) : encodeBlock(input);
}

export { bytesOrJson };
