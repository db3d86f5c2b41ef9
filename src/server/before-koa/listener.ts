// Answers before Koa (docs/performance.md, "Answers before Koa"; api.md §2.3–§2.10): the
// HTTP request listener itself answers the hottest requests, without Koa's middleware chain
// (which costs several times the answer), and hands everything else to the Koa app.
// The idea of this folder: a second door in front of the same pipeline, never a second
// pipeline. What it answers it answers as Koa would: the same pipeline and store calls as
// the routes, the same headers, the public-route rule of src/http/route-auth.ts, the D6 error
// body, and the request counters and log line (early-answers.ts). What it does not answer
// (an error of any kind, a block to mine, a protected route) goes on to Koa, with a body
// already read kept for it (middleware/body.ts).
//   POST /api/core/v2/blocks of a block that gets stored       → submissions.ts
//   GET info, tips, a block, its metadata, an included block,
//       an output, its metadata (and their 404s)              → reads.ts
//   anything else                                              → Koa (../app.ts)
// The main thread (src/node.ts) and every HTTP worker thread (../http-worker.ts) serve
// their Koa app through this listener.

import type { RequestListener } from 'node:http';
import type { ServerServices } from '../services';
import { withFastReads } from './reads';
import { withFastSubmit } from './submissions';

/** Koa's request listener (`app.callback()`) with the answers before Koa in front of it. */
export function beforeKoa(koa: RequestListener, services: ServerServices): RequestListener {
  return withFastSubmit(withFastReads(koa, services), services);
}
