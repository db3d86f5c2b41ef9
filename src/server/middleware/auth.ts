// Auth before routing (D19, api.md §1.5): a path matching a public pattern passes; every
// other request needs `Authorization: Bearer <HS256 JWT>` signed with the node's secret.
// Anything else is 403, so unknown paths are 403 without a token and 404 with one.

import { jwtVerify } from 'jose';
import type { Context, Next } from 'koa';
import { HttpError } from '../lib/http-error';

/** `*` matches any run of characters (including `/`); whole path, case-insensitive. */
export function publicRouteMatcher(patterns: string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const alternatives = patterns.map((p) => p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*'));
  const regex = new RegExp(`^(?:${alternatives.join('|')})$`, 'i');
  return (path) => regex.test(path);
}

export function auth(publicPatterns: string[], secret: string) {
  const isPublic = publicRouteMatcher(publicPatterns);
  const key = new TextEncoder().encode(secret);
  return async function authorize(ctx: Context, next: Next): Promise<void> {
    if (!isPublic(ctx.path)) {
      const header = ctx.get('Authorization');
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (match === null) throw new HttpError(403);
      try {
        await jwtVerify(match[1], key, { algorithms: ['HS256'] });
      } catch {
        throw new HttpError(403);
      }
    }
    await next();
  };
}
