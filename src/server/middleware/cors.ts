// CORS (api.md §1.1): every response allows any origin; OPTIONS preflights are answered
// 204 here, before auth, so browsers can reach protected routes with their token.

import type { Context, Next } from 'koa';

export function cors(ctx: Context, next: Next): Promise<void> {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', 'Content-Type, Accept, Authorization');
    ctx.status = 204;
    return Promise.resolve();
  }
  return next();
}
