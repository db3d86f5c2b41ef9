// Which requests may pass (D19, api.md §1.5): a path matching a public pattern passes; every
// other request needs `Authorization: Bearer <HS256 JWT>` signed with the node's secret.
// The rule only, with no framework: the Koa middleware (server/middleware/auth.ts), the
// answers before Koa (server/before-koa/) and the event API's WebSocket upgrade
// (events/server.ts, events.md §1) all apply it.

import { jwtVerify } from 'jose';

/** `*` matches any run of characters (including `/`); whole path, case-insensitive. */
export function publicRouteMatcher(patterns: string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const alternatives = patterns.map((p) =>
    p
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );
  const regex = new RegExp(`^(?:${alternatives.join('|')})$`, 'i');
  return (path) => regex.test(path);
}

/**
 * The rule itself: may a request for `path` with this `Authorization` header value pass?
 * Shared by the middleware and the event API's WebSocket upgrade (events.md §1).
 */
export function routeAuthorizer(
  publicPatterns: string[],
  secret: string,
): (path: string, authorization: string | undefined) => true | Promise<boolean> {
  const isPublic = publicRouteMatcher(publicPatterns);
  const key = new TextEncoder().encode(secret);
  const verify = async (token: string) => {
    try {
      await jwtVerify(token, key, { algorithms: ['HS256'] });
      return true;
    } catch {
      return false;
    }
  };
  return (path, authorization) => {
    if (isPublic(path)) return true;
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    return match === null ? Promise.resolve(false) : verify(match[1]);
  };
}
