// For scripts/interop/inx-indexer.sh (issue 22): every TIP-26 route and every filter
// inx-indexer 1.0.1 takes (its pkg/server/routes.go), asked about the addresses, chain IDs,
// tags and times of a plan written by indexer-load.ts; and the comparison of two sets of
// answers (inx-indexer's through the node's proxy, the built-in indexer's).
//
//   node scripts/interop/indexer-queries.mjs collect <node url> <plan.json> <answers.json>
//   node scripts/interop/indexer-queries.mjs compare <extension.json> <built-in.json> <label>
//
// An answer is the status, the sorted items, the items in the order served (both order by
// created time, then output ID), the first page's field names and page size, and the
// cursors (both write created time ‖ output ID ‖ page size, so a client may page on one and
// go on with the other); the ledger index is left out. Paged queries
// (pageSize 1..3) follow the cursors to the last page and keep the union of the pages,
// duplicates included, so that an item returned twice or skipped shows as a difference.
// compare prints one ok/FAIL line per query (`known` where inx-indexer is known to differ
// from TIP-26, see knownDifference) and `N/N queries equal`; exits 1 on any FAIL.

import { readFileSync, writeFileSync } from 'node:fs';

const LISTS = ['outputs', 'outputs/basic', 'outputs/alias', 'outputs/nft', 'outputs/foundry'];

/** The query list of a plan: paths below /api/indexer/v1/, paged ones marked. */
export function queriesOf(plan) {
  const queries = [];
  const add = (path, params = {}) => {
    const query = new URLSearchParams(params).toString();
    queries.push(query ? `${path}?${query}` : path);
  };
  const middle = plan.bookedTimes[Math.floor(plan.bookedTimes.length / 2)];
  for (const route of LISTS) {
    add(route);
    for (const value of ['true', 'false']) add(route, { hasNativeTokens: value });
    for (const count of ['0', '1', '2']) {
      add(route, { minNativeTokenCount: count });
      add(route, { maxNativeTokenCount: count });
    }
    for (const time of plan.bookedTimes) {
      add(route, { createdBefore: time });
      add(route, { createdAfter: time });
    }
    add(route, { createdAfter: plan.bookedTimes[0], createdBefore: middle });
  }
  for (const address of plan.addresses) {
    add('outputs', { unlockableByAddress: address });
    add('outputs', { unlockableByAddress: address, hasNativeTokens: 'true' });
    for (const route of ['outputs/basic', 'outputs/nft']) {
      for (const name of [
        'address',
        'unlockableByAddress',
        'storageDepositReturnAddress',
        'expirationReturnAddress',
        'sender',
      ])
        add(route, { [name]: address });
      // What a wallet asks for its plain outputs.
      add(route, { address, hasStorageDepositReturn: 'false', hasExpiration: 'false', hasTimelock: 'false' });
      add(route, { address, hasNativeTokens: 'true' });
    }
    add('outputs/nft', { issuer: address });
    for (const name of ['unlockableByAddress', 'stateController', 'governor', 'issuer', 'sender'])
      add('outputs/alias', { [name]: address });
  }
  for (const route of ['outputs/basic', 'outputs/nft']) {
    for (const name of ['hasStorageDepositReturn', 'hasExpiration', 'hasTimelock'])
      for (const value of ['true', 'false']) add(route, { [name]: value });
    for (const time of plan.times)
      for (const name of ['expiresBefore', 'expiresAfter', 'timelockedBefore', 'timelockedAfter'])
        add(route, { [name]: time });
    for (const tag of plan.tags) add(route, { tag });
    add(route, { hasExpiration: 'true', hasStorageDepositReturn: 'true' });
    add(route, { hasTimelock: 'false', createdAfter: middle });
  }
  for (const address of plan.aliasAddresses) {
    add('outputs/foundry', { aliasAddress: address });
    add('outputs/foundry', { aliasAddress: address, hasNativeTokens: 'false' });
  }
  // Edge values and refusals (compared by status when not 200): page sizes out of range,
  // Go's boolean spellings, an empty tag, a parameter the route does not take, an Ed25519
  // address as aliasAddress, malformed values.
  for (const pageSize of ['0', '100000', 'x']) add('outputs/basic', { pageSize });
  for (const value of ['1', 'T', 'FALSE', 'maybe']) add('outputs/basic', { hasTimelock: value });
  add('outputs/basic', { tag: '0x' });
  add('outputs/basic', { createdBefore: '0' });
  add('outputs/basic', { cursor: 'nonsense.2' });
  add('outputs/alias', { address: plan.addresses[0] });
  add('outputs/foundry', { aliasAddress: plan.addresses[0] });
  add('outputs/foundry', { unlockableByAddress: plan.addresses[0] });
  add('outputs/nft', { issuer: 'tst1qqqq' });
  for (const time of ['abc', '-1', '4294967296', '99999999999']) {
    add('outputs/basic', { createdAfter: time });
    add('outputs/basic', { timelockedBefore: time });
  }
  for (const count of ['64', '65', '-1', 'x']) add('outputs/basic', { minNativeTokenCount: count });
  add('outputs/basic', { pageSize: '1001' });
  for (const tag of plan.tags.slice(0, 2)) add('outputs/basic', { tag: `0x${tag.slice(2).toUpperCase()}` });
  add('outputs/basic', { tag: 'abc' });
  add('outputs/basic', { cursor: `${'z'.repeat(76)}.2` });
  add('outputs/basic', { cursor: `${'f'.repeat(76)}.2` });
  add('outputs/basic', { cursor: `${'0'.repeat(76)}.2` });
  add('outputs/basic', { address: plan.addresses[0].toUpperCase() });
  for (const id of plan.aliasIds) add(`outputs/alias/${id}`);
  add(`outputs/alias/0x${plan.aliasIds[0].slice(2).toUpperCase()}`);
  add(`outputs/alias/${plan.aliasIds[0].slice(0, 20)}`);
  for (const id of plan.nftIds) add(`outputs/nft/${id}`);
  for (const id of plan.foundryIds) add(`outputs/foundry/${id}`);
  const paged = [...LISTS, ...plan.addresses.slice(0, 4).map((a) => `outputs/basic?address=${a}`)];
  paged.push(`outputs?unlockableByAddress=${plan.addresses[5]}`);
  for (const base of paged)
    for (const size of [1, 2, 3]) queries.push(`${base}${base.includes('?') ? '&' : '?'}pageSize=${size} (all pages)`);
  return queries;
}

async function answer(url, query) {
  const pagedMatch = query.match(/^(.*) \(all pages\)$/);
  const path = pagedMatch ? pagedMatch[1] : query;
  const items = [];
  let cursor;
  let shape;
  const cursors = [];
  for (let page = 0; page < 10_000; page++) {
    const withCursor = cursor === undefined ? path : `${path}&cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(`${url}/api/indexer/v1/${withCursor}`);
    const text = await res.text();
    if (res.status !== 200) return { status: res.status, items: [] };
    const body = JSON.parse(text);
    items.push(...body.items);
    cursor = body.cursor;
    if (cursor !== undefined) cursors.push(cursor);
    // The first page's fields and page size: the cursor itself is opaque, its presence is not.
    shape ??= { fields: Object.keys(body).sort(), pageSize: body.pageSize };
    if (!pagedMatch || cursor === undefined)
      return { status: 200, items: [...items].sort(), order: items, pages: page + 1, shape, cursors };
  }
  throw new Error(`${query}: more than 10000 pages`);
}

async function collect(url, planPath, outPath) {
  const plan = JSON.parse(readFileSync(planPath, 'utf8'));
  const answers = {};
  for (const query of queriesOf(plan)) answers[query] = await answer(url, query);
  // The cursor of a page read again, with another page size, in capitals, with its page
  // size changed: named by where the cursor came from, so that the two answers line up
  // even if the two indexers wrote different cursors (which compare shows first).
  for (const route of ['outputs', 'outputs/basic']) {
    const first = answers[`${route}?pageSize=2 (all pages)`].cursors?.[0];
    if (first === undefined) continue;
    const [position, size] = first.split('.');
    const from = 'the first cursor of pageSize=2';
    const derived = [
      [`${route}?cursor=<${from}>`, `${route}?cursor=${first}`],
      [`${route}?pageSize=2&cursor=<${from}>`, `${route}?pageSize=2&cursor=${first}`],
      [`${route}?pageSize=3&cursor=<${from}>`, `${route}?pageSize=3&cursor=${first}`],
      [`${route}?cursor=<${from}, in capitals>`, `${route}?cursor=${position.toUpperCase()}.${size}`],
      [`${route}?cursor=<${from}, page size 0>`, `${route}?cursor=${position}.0`],
      [`${route}?cursor=<${from}, page size 5000>`, `${route}?cursor=${position}.5000`],
    ];
    for (const [name, query] of derived) answers[name] = await answer(url, query);
  }
  writeFileSync(outPath, JSON.stringify(answers));
}

/** Go's strconv.ParseBool spellings, which inx-indexer and the built-in indexer take. */
const GO_BOOLS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Where inx-indexer is known to be wrong or inconsistent (docs/inx.md): the reason, or
 * undefined. Each case checks what both sides answered, not only which query it was:
 * - A malformed boolean reaches inx-indexer's error handler as a bare strconv error, not as
 *   an invalid parameter: 500 where TIP-26 (and the built-in indexer) say 400.
 * - A cursor in capitals: inx-indexer on SQLite upper-cases the cursor it is given and
 *   compares it with upper-case hex, on PostgreSQL it compares it as given with lower-case
 *   hex, so every row is past it and the answer starts over at the first page. The built-in
 *   indexer reads hex in either case, as inx-indexer on SQLite does.
 * - A cursor with page size 0: inx-indexer drops the cursor (its paging is skipped for page
 *   size 0) and, on /outputs, the union's LIMIT of page size + 1 keeps a single item; the
 *   built-in indexer reads page size 0 as it reads pageSize=0 (the largest page) and starts
 *   at the cursor. TIP-26 gives no meaning to page size 0.
 * - A cursor of the right length that is not hex: inx-indexer compares it as text (200, no
 *   items after "zzz…"); the built-in indexer refuses it as invalid data (400, as TIP-26).
 */
function knownDifference(query, a, b, extension, builtin) {
  const params = new URLSearchParams(query.split('?')[1] ?? '');
  const malformedBoolean = [...params].some(([name, value]) => name.startsWith('has') && !GO_BOOLS.has(value));
  if (malformedBoolean && a?.status === 500 && b?.status === 400)
    return 'inx-indexer answers 500 to a malformed boolean, TIP-26 says 400';
  const position = params.get('cursor')?.split('.')[0];
  if (position?.length === 76 && !/^[0-9a-f]*$/i.test(position) && a?.status === 200 && b?.status === 400)
    return 'inx-indexer takes a cursor that is not hex, TIP-26 says 400';
  const route = query.split('?')[0];
  const walk = extension[`${route}?pageSize=2 (all pages)`]?.order ?? [];
  const text = (x) => JSON.stringify(x);
  const derived = (side, what) => side[`${route}?cursor=<the first cursor of pageSize=2${what}>`]?.order;
  if (
    query.endsWith(', in capitals>') &&
    text(a?.order) === text(walk.slice(0, 2)) &&
    text(b?.order) === text(derived(builtin, ''))
  )
    return 'inx-indexer on PostgreSQL starts over for a cursor in capitals, on SQLite it does not';
  if (
    query.endsWith(', page size 0>') &&
    a?.shape?.pageSize === 0 &&
    a.order[0] === walk[0] &&
    text(b?.order) === text(derived(builtin, ', page size 5000'))
  )
    return 'inx-indexer drops a cursor of page size 0 (one item on /outputs); the built-in reads it as the largest page';
  return undefined;
}

function compare(extensionPath, builtinPath, label) {
  const extension = JSON.parse(readFileSync(extensionPath, 'utf8'));
  const builtin = JSON.parse(readFileSync(builtinPath, 'utf8'));
  const same = (a, b) =>
    a !== undefined &&
    b !== undefined &&
    a.status === b.status &&
    JSON.stringify(a.items) === JSON.stringify(b.items) &&
    JSON.stringify(a.order) === JSON.stringify(b.order) &&
    JSON.stringify(a.cursors) === JSON.stringify(b.cursors) &&
    JSON.stringify(a.shape) === JSON.stringify(b.shape);
  let equal = 0;
  let known = 0;
  const queries = Object.keys(extension);
  for (const query of queries) {
    const [a, b] = [extension[query], builtin[query]];
    const shown = (x) =>
      x === undefined ? 'not asked' : `${x.status} ${JSON.stringify(x.items)} ${JSON.stringify(x.shape ?? {})}`;
    const reason = knownDifference(query, a, b, extension, builtin);
    if (same(a, b)) {
      equal++;
      console.log(`ok ${query}: ${a.status}, ${a.items.length} items${a.pages ? ` in ${a.pages} pages` : ''}`);
    } else if (reason !== undefined) {
      known++;
      console.log(`known ${query}: inx-indexer ${a.status}, built-in ${b.status} (${reason})`);
    } else if (a && b && JSON.stringify(a.items) === JSON.stringify(b.items) && a.status === b.status)
      console.log(
        `FAIL ${query}: same items, other order or fields: inx-indexer ${JSON.stringify([a.order, a.shape])}; built-in ${JSON.stringify([b.order, b.shape])}`,
      );
    else console.log(`FAIL ${query}: inx-indexer ${shown(a)}; built-in ${shown(b)}`);
  }
  const count = (route) => builtin[route]?.items.length;
  console.log(
    `${label}: unspent basic ${count('outputs/basic')}, alias ${count('outputs/alias')}, nft ${count('outputs/nft')}, foundry ${count('outputs/foundry')}`,
  );
  const knownText =
    known > 0 ? `, ${known} known difference${known > 1 ? 's' : ''} where inx-indexer is wrong or inconsistent` : '';
  console.log(`${label}: ${equal}/${queries.length} queries equal${knownText}`);
  return equal + known === queries.length;
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'collect') await collect(...args);
else if (mode === 'compare') process.exit(compare(...args) ? 0 : 1);
else {
  console.error('usage: indexer-queries.mjs collect <url> <plan> <out> | compare <extension> <built-in> <label>');
  process.exit(2);
}
