// The baseline of the HTTP benchmark: Koa with @koa/router and one empty JSON route, in a
// process of its own. `node benches/bare-koa.mjs <port>`
import { createRequire } from 'node:module';
import { createServer } from 'node:http';

const require = createRequire(import.meta.url);
const Koa = require('koa');
const Router = require('@koa/router');

const app = new Koa();
const router = new Router();
router.get('/empty', (ctx) => {
  ctx.body = '{}';
});
app.use(router.routes());
const server = createServer(app.callback());
server.listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
