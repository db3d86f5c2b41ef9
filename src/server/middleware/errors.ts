// Turns every failure into the D6 error body. HttpErrors carry their status; anything else
// is a bug or a storage failure and becomes 500 (logged with its stack, never shown).

import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { HttpError } from '../../http/error';

export function errors(logger: Logger) {
  return async function errorBody(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      let httpError: HttpError;
      if (err instanceof HttpError) {
        httpError = err;
      } else {
        logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
        httpError = new HttpError(500);
      }
      // A streamed answer that already sent its headers cannot become an error body: the
      // connection is cut instead, so the client sees a truncated response, not a false one.
      if (ctx.headerSent) {
        ctx.req.socket.destroy();
        return;
      }
      sendError(ctx, httpError);
    }
  };
}

export function sendError(ctx: Context, error: HttpError): void {
  ctx.status = error.status;
  ctx.set(error.headers);
  ctx.type = 'application/json';
  ctx.body = error.body();
}
