// The faucet's routes (docs/faucet.md), on while the faucet runs: inx-faucet's API under
// /api/faucet/v1 — GET /info (address, balance, HRP, token name) and POST /enqueue
// {"address":"tst1…"} → 202 {"address","waitingRequests"}, rate limited per client — and
// the one-page form at /faucet (static files from `faucet/` of the package, own files only).
// The same two API routes answer under /faucet/api too, laid out as inx-faucet serves them at
// the root of its own port (/api/info, /api/enqueue): a tool that takes an inx-faucet base URL
// and appends /api/enqueue (wasp-cli's l1.faucetAddress) is given http://<node>/faucet.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaucetService } from '../../faucet/faucet';
import { FaucetRefusal } from '../../faucet/requests';
import { HttpError } from '../../http/error';
import { parseJsonBody, readBody } from '../middleware/body';
import { rateLimit } from '../middleware/rate-limit';
import type { ServerServices } from '../services';

/** `faucet/` of the package (from src/server/routes or dist/server/routes alike). */
export const FAUCET_PAGE_DIR = join(__dirname, '..', '..', '..', 'faucet');

const BASE = '/api/faucet/v1';
/** inx-faucet's own layout, under the page's path. */
const INX_FAUCET_BASE = '/faucet/api';
/** An address and some slack: nothing a client sends here needs more. */
const MAX_BODY_BYTES = 4096;

const PAGE_FILES: Record<string, string> = {
  '/faucet': 'index.html',
  '/faucet/faucet.js': 'faucet.js',
  '/faucet/faucet.css': 'faucet.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function faucetRoutes(router: Router, { config, faucet }: ServerServices & { faucet: FaucetService }): void {
  router.get([`${BASE}/info`, `${INX_FAUCET_BASE}/info`], async (ctx) => {
    const info = await faucet.info();
    ctx.type = 'application/json';
    // The balance as a JSON number (as inx-faucet answers), written exactly.
    ctx.body = `{"isHealthy":${info.isHealthy},"address":"${info.address}","balance":${info.balance},"tokenName":${JSON.stringify(info.tokenName)},"bech32Hrp":"${info.bech32Hrp}"}`;
  });

  router.post(
    [`${BASE}/enqueue`, `${INX_FAUCET_BASE}/enqueue`],
    rateLimit(config.faucet.rateLimit, (ip) => faucet.admit(ip)),
    async (ctx) => {
      const address = await requestedAddress(ctx);
      try {
        ctx.body = await faucet.enqueue(address);
      } catch (err) {
        if (err instanceof FaucetRefusal) {
          throw new HttpError(
            err.status,
            err.reason,
            err.retryAfterSeconds ? { 'Retry-After': String(err.retryAfterSeconds) } : {},
          );
        }
        throw err;
      }
      ctx.status = 202;
    },
  );

  for (const [path, file] of Object.entries(PAGE_FILES)) {
    const body = readFileSync(join(FAUCET_PAGE_DIR, file));
    const type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
    router.get(path, (ctx) => {
      ctx.set(SECURITY_HEADERS);
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = type;
      ctx.body = body;
    });
  }
}

/** `address` from a JSON body, or from a form post (the page without JavaScript). */
async function requestedAddress(ctx: Context): Promise<unknown> {
  const body = await readBody(ctx, MAX_BODY_BYTES);
  if (ctx.is('application/x-www-form-urlencoded'))
    return new URLSearchParams(body.toString('utf8')).get('address') ?? undefined;
  if (ctx.get('Content-Type') !== '' && !ctx.is('application/json'))
    throw new HttpError(415, 'send {"address":"…"} as application/json');
  return parseJsonBody(body, 4).value.address;
}
