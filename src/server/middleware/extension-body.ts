// The body of a request to a route an extension registered, read before anything is
// forwarded and held to `restApi.maxBodyBytes` (1 MiB, Hornet's `restAPI.limits.maxBodyLength`
// "1M", which its echo `BodyLimit` middleware applies to every request, proxied ones
// included): a larger body is answered 413 and the extension never sees the request. A
// declared Content-Length over the limit is refused before a byte is read; a streamed body
// as soon as it grows past it (then the connection closes: the rest is not read).

import type { Context } from 'koa';
import { HttpError } from '../../http/error';
import { collectBody } from './body';

export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `body larger than ${limit} bytes`);
}

/** The whole body (empty when the request has none), or 413 past `limit`. */
export async function extensionBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = ctx.get('Content-Length');
  if (declared !== '' && Number(declared) > limit) {
    ctx.set('Connection', 'close');
    throw tooLarge(limit);
  }
  let oversize = false;
  return collectBody(ctx.req, limit, () => {
    oversize = true;
    ctx.set('Connection', 'close');
  }).catch((err: unknown) => {
    throw oversize ? tooLarge(limit) : err;
  });
}
