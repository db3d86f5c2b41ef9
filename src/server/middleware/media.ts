// Media types (D18, api.md §1.2). Requests: Content-Type picks JSON or binary. Responses:
// the first range of Accept decides; a serializer type is echoed back exactly.

import type { Context } from 'koa';
import { HttpError } from '../../http/error';

export const JSON_TYPE = 'application/json';
export const SERIALIZER_TYPES = ['application/vnd.ledger.serializer-v1', 'application/vnd.iota.serializer-v1'];

function essence(header: string, cutAtComma: boolean): string {
  let value = header;
  if (cutAtComma) {
    const comma = value.indexOf(',');
    if (comma >= 0) value = value.slice(0, comma);
  }
  const semicolon = value.indexOf(';');
  if (semicolon >= 0) value = value.slice(0, semicolon);
  return value.trim().toLowerCase();
}

/** The serializer type the client asked for, or undefined for JSON. */
export function binaryResponseType(ctx: Context): string | undefined {
  return binaryTypeOf(ctx.get('Accept'));
}

/** The serializer type an Accept header value asks for, or undefined for JSON. */
export function binaryTypeOf(accept: string): string | undefined {
  if (accept === '') return undefined;
  const wanted = essence(accept, true);
  return SERIALIZER_TYPES.includes(wanted) ? wanted : undefined;
}

/** 'json' or 'binary' for a submit body; 415 for anything else. */
export function requestBodyKind(ctx: Context): 'json' | 'binary' {
  const kind = bodyKindOf(ctx.get('Content-Type'));
  if (kind === undefined) throw new HttpError(415);
  return kind;
}

/** What a Content-Type header value (empty when absent) makes of a submit body: undefined is neither. */
export function bodyKindOf(type: string): 'json' | 'binary' | undefined {
  if (type === '') return 'json';
  const value = essence(type, false);
  if (value === JSON_TYPE) return 'json';
  if (SERIALIZER_TYPES.includes(value)) return 'binary';
  return undefined;
}

/** Answer with JSON text (already serialized) or the raw bytes, as Accept asks. */
export function sendJsonOrBinary(ctx: Context, bytes: Buffer, jsonText: () => string): void {
  const binary = binaryResponseType(ctx);
  if (binary !== undefined) {
    ctx.type = binary;
    ctx.body = bytes;
  } else {
    ctx.type = JSON_TYPE;
    ctx.body = jsonText();
  }
}

/** Answer with JSON already written (metadata objects come from the store as text, indexer
 * pages as UTF-8 bytes). */
export function sendJsonText(ctx: Context, text: string | Buffer): void {
  ctx.type = JSON_TYPE;
  ctx.body = text;
}
