// The event API's topics (events.md §3, TIP-28): every topic template, the syntax of a
// topic filter, and the index that finds the holders of filters matching a topic —
// standard MQTT matching (`+` one level, `#` the rest) with the one exception of D35.

/** Topic names the node publishes, as functions of their parameters (0x lower-case hex, bech32). */
export const topics = {
  milestoneInfoLatest: 'milestone-info/latest',
  milestoneInfoConfirmed: 'milestone-info/confirmed',
  milestones: 'milestones',
  blocks: 'blocks',
  blocksTransaction: 'blocks/transaction',
  blocksTransactionTaggedData: 'blocks/transaction/tagged-data',
  blocksTransactionTaggedDataTag: (tag: string) => `blocks/transaction/tagged-data/${tag}`,
  blocksTaggedData: 'blocks/tagged-data',
  blocksTaggedDataTag: (tag: string) => `blocks/tagged-data/${tag}`,
  blockMetadata: (blockId: string) => `block-metadata/${blockId}`,
  blockMetadataReferenced: 'block-metadata/referenced',
  includedBlock: (transactionId: string) => `transactions/${transactionId}/included-block`,
  output: (outputId: string) => `outputs/${outputId}`,
  /** `alias`, `nft` or `foundry` and the chain's id. */
  chain: (kind: string, id: string) => `outputs/${kind}/${id}`,
  /** `condition` is a name of UNLOCK_CONDITIONS, or `+` for the literal topic of D35. */
  unlock: (condition: string, address: string, spent: boolean) =>
    `outputs/unlock/${condition}/${address}${spent ? '/spent' : ''}`,
  receipts: 'receipts',
  /** inx-mqtt's topic: blocks entering and leaving the tip pool (§3). */
  tipScoreUpdates: 'tip-score-updates',
} as const;

/** Unlock condition type code → its `{condition}` name in topics (events.md §3.4). */
export const UNLOCK_CONDITIONS: ReadonlyMap<number, string> = new Map([
  [0, 'address'],
  [1, 'storage-return'],
  [3, 'expiration'],
  [4, 'state-controller'],
  [5, 'governor'],
  [6, 'immutable-alias'],
]);

/** Output type code of a chain output → its chain topic's name. */
export const CHAIN_KINDS: ReadonlyMap<number, string> = new Map([
  [4, 'alias'],
  [5, 'foundry'],
  [6, 'nft'],
]);

/** Topics a client subscribes to exactly whose current state is sent on subscribe (§4). */
export const currentStateTopics = {
  blockMetadata: /^block-metadata\/(0x[0-9a-f]{64})$/,
  output: /^outputs\/(0x[0-9a-f]{68})$/,
  includedBlock: /^transactions\/(0x[0-9a-f]{64})\/included-block$/,
};

/** A valid MQTT topic filter (3.1.1 §4.7): non-empty, no NUL, `#` only as the last level, wildcards fill their level. */
export function isValidFilter(filter: string): boolean {
  if (filter.length === 0 || filter.includes('\u0000') || Buffer.byteLength(filter) > 65_535) return false;
  const levels = filter.split('/');
  return levels.every((level, i) =>
    level.includes('#') ? level === '#' && i === levels.length - 1 : !level.includes('+') || level === '+',
  );
}

const hasWildcard = (filter: string) => filter.includes('+') || filter.includes('#');

/**
 * D35: `outputs/unlock/+/{address}` or `…/spent`, written exactly so with a concrete
 * address, receives only the literal-`+` topic of that name, not the per-condition ones.
 */
export function isLiteralUnlockFilter(filter: string): boolean {
  const levels = filter.split('/');
  if (levels.length !== 4 && levels.length !== 5) return false;
  if (levels[0] !== 'outputs' || levels[1] !== 'unlock' || levels[2] !== '+') return false;
  if (levels[3] === '' || hasWildcard(levels[3])) return false;
  return levels.length === 4 || levels[4] === 'spent';
}

/** Filters matched as plain strings: those without wildcards and the literal-`+` ones. */
const matchedExactly = (filter: string) => !hasWildcard(filter) || isLiteralUnlockFilter(filter);

interface Node<T> {
  children: Map<string, Node<T>>;
  /** The `+` level. */
  plus?: Node<T>;
  /** Holders of filters that end here. */
  holders?: Set<T>;
  /** Holders of filters that end with `#` right below here. */
  rest?: Set<T>;
}

const newNode = <T>(): Node<T> => ({ children: new Map() });

/**
 * Filters and who holds them. `match` visits every holder of a filter that matches a
 * topic; a holder with several matching filters is visited once per filter, so callers
 * that must deliver once de-duplicate (fanout.ts does, with a stamp).
 */
export class FilterIndex<T> {
  private readonly exact = new Map<string, Set<T>>();
  private readonly root: Node<T> = newNode();

  add(filter: string, holder: T): void {
    if (matchedExactly(filter)) {
      let set = this.exact.get(filter);
      if (set === undefined) this.exact.set(filter, (set = new Set()));
      set.add(holder);
      return;
    }
    let node = this.root;
    const levels = filter.split('/');
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i];
      if (level === '#') {
        (node.rest ??= new Set()).add(holder);
        return;
      }
      if (level === '+') node = node.plus ??= newNode();
      else {
        let next = node.children.get(level);
        if (next === undefined) node.children.set(level, (next = newNode()));
        node = next;
      }
    }
    (node.holders ??= new Set()).add(holder);
  }

  remove(filter: string, holder: T): void {
    if (matchedExactly(filter)) {
      const set = this.exact.get(filter);
      set?.delete(holder);
      if (set?.size === 0) this.exact.delete(filter);
      return;
    }
    this.removeFrom(this.root, filter.split('/'), 0, holder);
  }

  /** Removes the holder below `node`; true when `node` is left empty. */
  private removeFrom(node: Node<T>, levels: string[], i: number, holder: T): boolean {
    if (i === levels.length) node.holders?.delete(holder);
    else if (levels[i] === '#') node.rest?.delete(holder);
    else {
      const next = levels[i] === '+' ? node.plus : node.children.get(levels[i]);
      if (next !== undefined && this.removeFrom(next, levels, i + 1, holder)) {
        if (levels[i] === '+') node.plus = undefined;
        else node.children.delete(levels[i]);
      }
    }
    if (node.holders?.size === 0) node.holders = undefined;
    if (node.rest?.size === 0) node.rest = undefined;
    return node.children.size === 0 && node.plus === undefined && node.holders === undefined && node.rest === undefined;
  }

  /** Calls `visit` for the holder of each filter that matches `topic`. */
  match(topic: string, visit: (holder: T) => void): void {
    const exact = this.exact.get(topic);
    if (exact !== undefined) for (const h of exact) visit(h);
    if (this.root.children.size > 0 || this.root.plus !== undefined || this.root.rest !== undefined) {
      this.matchBelow(this.root, topic.split('/'), 0, visit);
    }
  }

  private matchBelow(node: Node<T>, levels: string[], i: number, visit: (holder: T) => void): void {
    // `a/#` also matches `a` itself (MQTT 3.1.1 §4.7.1.2).
    if (node.rest !== undefined) for (const h of node.rest) visit(h);
    if (i === levels.length) {
      if (node.holders !== undefined) for (const h of node.holders) visit(h);
      return;
    }
    const next = node.children.get(levels[i]);
    if (next !== undefined) this.matchBelow(next, levels, i + 1, visit);
    if (node.plus !== undefined) this.matchBelow(node.plus, levels, i + 1, visit);
  }
}
