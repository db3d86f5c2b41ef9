// Auth before routing (D19, api.md §1.5): the request passes by the rule of
// src/http/route-auth.ts (a public path, or a valid bearer JWT); anything else is 403, so
// unknown paths are 403 without a token and 404 with one.

import type { Context, Next } from 'koa';
import { HttpError } from '../../http/error';
import { routeAuthorizer } from '../../http/route-auth';

export function auth(publicPatterns: string[], secret: string) {
  const allowed = routeAuthorizer(publicPatterns, secret);
  return async function authorize(ctx: Context, next: Next): Promise<void> {
    const verdict = allowed(ctx.path, ctx.get('Authorization'));
    if (verdict !== true && !(await verdict)) throw new HttpError(403);
    await next();
  };
}
