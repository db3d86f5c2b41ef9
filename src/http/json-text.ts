// API JSON of stored objects as text (api.md §2.6–§2.12, events.md §3.3), straight from
// the native emitter (it already writes the canonical key order), so lookups do not parse
// and re-serialize in JavaScript. The REST routes and the event API write the same bytes
// with it.

import native from '../native';
import { fromNative } from '../core/errors';

export const blockJsonText = (bytes: Buffer): string => fromNative(() => native.decodeBlockToJson(bytes));

// A block read from the store's cache is the same Buffer every time, so its JSON text is
// kept per Buffer (and forgotten with it). Text rather than UTF-8 bytes: Node writes a
// string body together with the headers in one write, a Buffer body as a second chunk.
const blockTexts = new WeakMap<Buffer, string>();

export function cachedBlockJsonText(bytes: Buffer): string {
  let text = blockTexts.get(bytes);
  if (text === undefined) {
    text = blockJsonText(bytes);
    blockTexts.set(bytes, text);
  }
  return text;
}

export const payloadJsonText = (bytes: Buffer): string => fromNative(() => native.decodePayloadToJson(bytes));
export const outputJsonText = (bytes: Buffer): string => fromNative(() => native.decodeOutputToJson(bytes));

/** The body of GET /api/core/v2/outputs/{outputId} (api.md §2.8), also the event API's output payload. */
export const outputBodyJsonText = (output: Buffer, metadataJson: string): string =>
  `{"metadata":${metadataJson},"output":${outputJsonText(output)}}`;
