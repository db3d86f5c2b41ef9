// Reading request bodies ourselves, with a hard size limit: a declared Content-Length over
// the limit is refused before reading, and a streamed body is cut off as soon as it grows
// past it (never buffered unbounded). Oversize is 400 (api.md §1.1).

import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { badRequest, type HttpError } from '../../http/error';

/**
 * Bodies read before Koa (before-koa/submissions.ts), or the error reading them ended with,
 * for the requests it then hands to Koa: the stream is consumed, so `readBody` answers from
 * here.
 */
const readBefore = new WeakMap<IncomingMessage, Buffer | HttpError>();

/** Hand a request whose body was already read (or failed to read) over to `readBody`. */
export function keepReadBody(req: IncomingMessage, body: Buffer | HttpError): void {
  readBefore.set(req, body);
}

export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const before = readBefore.get(ctx.req);
  if (before !== undefined) {
    readBefore.delete(ctx.req);
    if (before instanceof Error) return Promise.reject(before);
    if (before.length > limit) return Promise.reject(badRequest(`body larger than ${limit} bytes`));
    return Promise.resolve(before);
  }
  const declared = ctx.get('Content-Length');
  if (declared !== '' && Number(declared) > limit) {
    return Promise.reject(badRequest(`body larger than ${limit} bytes`));
  }
  // Stop reading past the limit; the connection closes after the error response.
  return collectBody(ctx.req, limit, () => ctx.set('Connection', 'close'));
}

/**
 * The body of `req`, or the HttpError a client gets for it: cut off (and `onOversize`
 * called) as soon as it grows past `limit`, a read error, or the client going away.
 */
export function collectBody(req: IncomingMessage, limit: number, onOversize: () => void = () => {}): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: HttpError) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (err !== undefined) reject(err);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        onOversize();
        finish(badRequest(`body larger than ${limit} bytes`));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => finish();
    const onError = (err: Error) => finish(badRequest(`cannot read body: ${err.message}`));
    const onAborted = () => finish(badRequest('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** Deepest nesting of arrays/objects in JSON text, stopping early past `max`. */
export function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Parse a JSON body: UTF-8, at most `maxDepth` levels, an object at the top. */
export function parseJsonBody(bytes: Buffer, maxDepth: number): { value: Record<string, unknown>; text: string } {
  const text = bytes.toString('utf8');
  if (exceedsDepth(text, maxDepth)) throw badRequest(`body: nesting deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`body: malformed JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('body: must be a JSON object');
  return { value: value as Record<string, unknown>, text };
}
