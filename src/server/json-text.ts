// API JSON of stored objects as text, straight from the native emitter (it already writes
// the canonical key order), so lookups do not parse and re-serialize in JavaScript.

import native from '../native';
import { fromNative } from '../core/errors';

export const blockJsonText = (bytes: Buffer): string => fromNative(() => native.decodeBlockToJson(bytes));
export const payloadJsonText = (bytes: Buffer): string => fromNative(() => native.decodePayloadToJson(bytes));
export const outputJsonText = (bytes: Buffer): string => fromNative(() => native.decodeOutputToJson(bytes));
