// Loaded with `node --allow-natives-syntax --require` into a node under test (and, through
// the inherited execArgv, into each of its HTTP worker threads). When a thread's HTTP server
// starts listening — every module loaded, every schema compiled — it builds two objects the
// way Node builds its per-request records (`{}` plus keys, and a literal with computed
// symbol keys, as `process.nextTick` does) and prints whether each pair shares one hidden
// class. They do unless V8's transition list from the empty object's hidden class has
// overflowed (src/server/schemas/block.ts says how that happened). `%HaveSameMap` is V8's
// own answer, so the check depends on no timing.
'use strict';
const http = require('node:http');
const { threadId } = require('node:worker_threads');

function shared() {
  const a = {};
  a.probeKey = 1;
  const b = {};
  b.probeKey = 2;
  const first = Symbol('first');
  const second = Symbol('second');
  const callback = () => {};
  const tick = (n) => ({ [first]: n, [second]: n, callback, args: undefined });
  return %HaveSameMap(a, b) && %HaveSameMap(tick(1), tick(2));
}

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.once('listening', () => process.stderr.write(`hidden-classes thread=${threadId} shared=${shared()}\n`));
  return listen.apply(this, args);
};
