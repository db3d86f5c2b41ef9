// GET /dashboard/… (docs/dashboard.md): the web dashboard's static files from `dashboard/`,
// read once when the server starts. Files are not fingerprinted, so browsers revalidate
// each one (Cache-Control: no-cache) and get 304 while its ETag still matches; an upgraded
// node therefore never serves a stale script. The page loads only its own files
// (Content-Security-Policy) and reads the node through the public REST and event APIs.

import type Router from '@koa/router';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** `dashboard/` of the package (from src/server/routes or dist/server/routes alike). */
export const DASHBOARD_DIR = join(__dirname, '..', '..', '..', 'dashboard');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** Every servable file under `dir`, keyed by its URL path below /dashboard/. */
export function loadAssets(dir: string = DASHBOARD_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      const type = CONTENT_TYPES[extname(entry.name)];
      if (!entry.isFile() || type === undefined) continue;
      const body = readFileSync(path);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      assets.set(relative(dir, path).split(sep).join('/'), { body, type, etag });
    }
  };
  try {
    walk(dir);
  } catch (err) {
    throw new Error(
      `the dashboard's files are missing from ${dir} (${(err as Error).message}); run with --no-dashboard or reinstall`,
    );
  }
  if (!assets.has('index.html')) throw new Error(`the dashboard's index.html is missing from ${dir}`);
  return assets;
}

export function dashboardRoutes(router: Router, assets: Map<string, Asset> = loadAssets()): void {
  // Relative links in the page resolve against /dashboard/, so the bare path redirects
  // there. (The router lets '/dashboard' match '/dashboard/' too: that goes on to the page.)
  router.get('/dashboard', (ctx, next) => {
    if (ctx.path !== '/dashboard') return next();
    ctx.status = 301;
    ctx.redirect(`/dashboard/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  });
  for (const [path, asset] of assets) {
    router.get(path === 'index.html' ? '/dashboard/' : `/dashboard/${path}`, (ctx) => {
      ctx.set(SECURITY_HEADERS);
      ctx.set('Cache-Control', 'no-cache');
      ctx.status = 200;
      ctx.etag = asset.etag;
      ctx.type = asset.type;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.body = asset.body;
    });
  }
}
