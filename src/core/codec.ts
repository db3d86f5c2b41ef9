// Blocks, payloads and outputs between their API JSON and their wire bytes.

import native from '../native';
import { bytesOrJson, toBuffer, toJsonText } from './bytes';
import { fromNative } from './errors';
import type { BlockInput, BlockJson, JsonInput, OutputJson, PayloadJson } from './types';

export function encodeBlock(json: JsonInput): Buffer {
  return fromNative(() => native.encodeBlockJson(toJsonText(json)));
}

/** Wire bytes and block id of a block given as JSON, in one native call. */
export function encodeBlockWithId(json: JsonInput): { bytes: Buffer; id: string } {
  return fromNative(() => native.encodeBlockJsonWithId(toJsonText(json)));
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
