// The query string of an indexer list route (indexer.md §1.3, §2.2, §3.2–§3.3, D30, D31)
// as a checked IndexerQuery: malformed values are 400 naming the parameter; parameters the
// route does not take, and unknown ones, are ignored; the first of repeated ones counts;
// an empty value is no value. Which filters exist, the kind of value each takes and the
// routes that take it are the store's list (ledger-store `index/filters.rs`, handed over by
// the binding's `indexerFilterFields()`), in the order they are checked; this file reads
// the values.

import { bech32Decode } from '../../core/ids';
import { badRequest } from '../../http/error';
import native from '../../native';
import type { IndexerQuery } from '../../store-contract';

type Route = IndexerQuery['route'];
/** The kinds of filter value (ledger-store `FilterKind`). */
export type FilterKind = 'address' | 'aliasAddress' | 'boolean' | 'time' | 'tokenCount' | 'tag';
/** A filter parameter: a key of IndexerQuery. */
export type FilterName = Exclude<keyof IndexerQuery, 'route' | 'cursor' | 'pageSize'>;

export interface FilterField {
  name: FilterName;
  kind: FilterKind;
  routes: readonly Route[];
}

const KINDS: readonly string[] = ['address', 'aliasAddress', 'boolean', 'time', 'tokenCount', 'tag'];
const ROUTES: readonly Route[] = ['outputs', 'basic', 'alias', 'foundry', 'nft'];

/** Every filter, in the order a route's parameters are checked. */
export const FILTER_FIELDS: readonly FilterField[] = native.indexerFilterFields().map((field) => {
  // The binding and this file are built together; a kind or route this file does not know
  // is a build mistake, found when the module loads.
  if (!KINDS.includes(field.kind) || !field.routes.every((r) => (ROUTES as readonly string[]).includes(r)))
    throw new Error(`indexer filter ${field.name}: kind ${field.kind} or routes ${field.routes} unknown here`);
  return field as FilterField;
});

/** The parameters each route takes (indexer.md §2.2, inx-indexer's lists), in order. */
const takenBy = (route: Route) => FILTER_FIELDS.filter((field) => field.routes.includes(route));
export const ROUTE_PARAMETERS: Record<Route, readonly FilterField[]> = {
  outputs: takenBy('outputs'),
  basic: takenBy('basic'),
  alias: takenBy('alias'),
  foundry: takenBy('foundry'),
  nft: takenBy('nft'),
};

// Go's strconv.ParseBool, which inx-indexer uses.
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
const DECIMAL = /^\d{1,10}$/;
const HEX = /^0x(?:[0-9a-f]{2})*$/i;
const CURSOR = /^([0-9a-f]{76})\.(\d{1,10})$/i;
const MAX_NATIVE_TOKENS = 64;
const MAX_TAG_BYTES = 64;

type Query = Record<string, string | string[] | undefined>;

function first(query: Query, name: string): string | undefined {
  const value = query[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

function u32(name: string, text: string): number {
  if (!DECIMAL.test(text) || Number(text) > 0xffffffff)
    throw badRequest(`${name}: not a decimal unsigned 32-bit number`);
  return Number(text);
}

/** A bech32 address of this network, lower-cased (the form the store decodes). */
function address(name: string, text: string, hrp: string, aliasOnly: boolean): string {
  const lower = text.toLowerCase();
  let decoded: ReturnType<typeof bech32Decode>;
  try {
    decoded = bech32Decode(lower);
  } catch (err) {
    throw badRequest(`${name}: ${(err as { detail?: string }).detail ?? 'not a bech32 address'}`);
  }
  if (decoded.hrp !== hrp) throw badRequest(`${name}: bech32 HRP must be ${hrp}`);
  if (aliasOnly && decoded.address.type !== 8) throw badRequest(`${name}: not an alias address`);
  return lower;
}

/** `pageSize`: 1..max as asked; absent, 0, too large or not a number → max (D31). */
function pageSize(text: string | undefined, max: number): number {
  if (text === undefined || !/^\d+$/.test(text)) return max;
  const n = Number(text);
  return n >= 1 && n <= max ? n : max;
}

export function parseIndexerQuery(route: Route, query: Query, hrp: string, maxPageSize: number): IndexerQuery {
  const parsed: Record<string, unknown> = { route };
  for (const { name, kind } of ROUTE_PARAMETERS[route]) {
    const text = first(query, name);
    if (text === undefined) continue;
    switch (kind) {
      case 'address':
      case 'aliasAddress':
        parsed[name] = address(name, text, hrp, kind === 'aliasAddress');
        break;
      case 'boolean':
        if (TRUE.has(text)) parsed[name] = true;
        else if (FALSE.has(text)) parsed[name] = false;
        else throw badRequest(`${name}: not a boolean`);
        break;
      case 'time':
        parsed[name] = u32(name, text);
        break;
      case 'tokenCount': {
        const n = u32(name, text);
        if (n > MAX_NATIVE_TOKENS) throw badRequest(`${name}: at most ${MAX_NATIVE_TOKENS}`);
        parsed[name] = n;
        break;
      }
      case 'tag':
        if (!HEX.test(text)) throw badRequest(`${name}: not 0x followed by an even number of hex digits`);
        if (text.length - 2 > 2 * MAX_TAG_BYTES) throw badRequest(`${name}: more than ${MAX_TAG_BYTES} bytes`);
        // `tag=0x` (no bytes) adds no condition.
        if (text.length > 2) parsed[name] = text.toLowerCase();
        break;
    }
  }
  const cursor = first(query, 'cursor');
  if (cursor !== undefined) {
    const match = CURSOR.exec(cursor);
    if (match === null || Number(match[2]) > 0xffffffff) throw badRequest('cursor: not <76 hex digits>.<page size>');
    parsed.cursor = match[1].toLowerCase();
    parsed.pageSize = pageSize(match[2], maxPageSize);
  } else {
    parsed.pageSize = pageSize(first(query, 'pageSize'), maxPageSize);
  }
  return parsed as unknown as IndexerQuery;
}
