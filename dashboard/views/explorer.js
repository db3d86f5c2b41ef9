// The explorer: search and the detail views. One view at a time; the event API
// subscriptions and timers a view opens end when the next view replaces it.

import { findJson } from '../lib/api.js';
import { fill, h } from '../lib/dom.js';
import { addressView } from './address.js';
import { blockView } from './block.js';
import { milestoneView } from './milestone.js';
import { outputView } from './output.js';
import { errorView, link, section } from './render.js';
import { transactionView } from './transaction.js';

const ID = /^0x[0-9a-fA-F]{64}$/;
const OUTPUT_ID = /^0x[0-9a-fA-F]{68}$/;
const decoder = new TextDecoder();

const VIEWS = {
  block: [ID, blockView],
  transaction: [ID, transactionView],
  output: [OUTPUT_ID, outputView],
  milestone: [/^(\d{1,10}|0x[0-9a-fA-F]{64})$/, milestoneView],
  address: [/^[a-zA-Z0-9]+$/, addressView],
};

/**
 * Where a search leads: a route (`block/0x…`), or null when nothing matches. A 64-digit ID
 * is tried as a block, an included transaction and a milestone, in that order; if none
 * exists it may be a transaction that is not included yet, and its page waits for it.
 */
export async function resolveSearch(query, node) {
  const q = query.trim();
  if (/^\d{1,10}$/.test(q)) return `milestone/${Number(q)}`;
  if (OUTPUT_ID.test(q)) return `output/${q.toLowerCase()}`;
  if (ID.test(q)) {
    const id = q.toLowerCase();
    if (await findJson(`/api/core/v2/blocks/${id}/metadata`)) return `block/${id}`;
    if (await findJson(`/api/core/v2/transactions/${id}/included-block/metadata`)) return `transaction/${id}`;
    if (await findJson(`/api/core/v2/milestones/${id}`)) return `milestone/${id}`;
    return `transaction/${id}`;
  }
  if (q.toLowerCase().startsWith(`${node.hrp}1`)) return `address/${q.toLowerCase()}`;
  return null;
}

export class Explorer {
  constructor(node, root) {
    this.node = node;
    this.root = root;
    this.disposers = [];
    this.generation = 0;
  }

  /** Show `kind`/`arg` (from the location hash); `kind` empty for the explorer's start page. */
  async show(kind, arg) {
    this.dispose();
    const generation = ++this.generation;
    const view = this.viewContext(generation);
    fill(this.root, h('p', { class: 'hint' }, 'Loading…'));
    let content;
    try {
      if (kind === 'search') {
        const route = await resolveSearch(arg, this.node);
        if (generation !== this.generation) return;
        if (route !== null) {
          history.replaceState(null, '', `#/${route}`);
          return this.show(...splitRoute(route));
        }
        content = errorView(
          'Nothing found',
          `"${arg}" is not a block, transaction, output or milestone ID, a milestone index or an address of this network (prefix ${this.node.hrp}1).`,
        );
      } else if (kind in VIEWS) {
        const [pattern, render] = VIEWS[kind];
        content = pattern.test(arg)
          ? await render(kind === 'address' || /^\d+$/.test(arg) ? arg : arg.toLowerCase(), view)
          : errorView('Not a valid ID', `"${arg}" is not a valid ${kind} ID.`);
      } else {
        content = this.startPage();
      }
    } catch (err) {
      content = errorView('The node could not answer', err.message);
    }
    if (generation === this.generation) fill(this.root, content);
  }

  /** What a view may use: the node, event subscriptions and timers that end with the view. */
  viewContext(generation) {
    const alive = () => generation === this.generation;
    return {
      node: this.node,
      live: (topic, handler) => {
        if (!this.node.mqtt) return;
        this.disposers.push(this.node.mqtt.subscribe(topic, (_, payload) => alive() && handler(payload)));
      },
      liveJson: (topic, handler) => {
        if (!this.node.mqtt) return;
        this.disposers.push(
          this.node.mqtt.subscribe(topic, (_, payload) => alive() && handler(JSON.parse(decoder.decode(payload)))),
        );
      },
      every: (ms, work) => {
        const timer = setInterval(() => alive() && work().catch((err) => this.fail(err)), ms);
        this.disposers.push(() => clearInterval(timer));
      },
      fail: (err) => alive() && this.fail(err),
    };
  }

  fail(err) {
    fill(this.root, errorView('The node could not answer', err.message));
  }

  dispose() {
    for (const d of this.disposers.splice(0)) d();
  }

  startPage() {
    const latest = this.node.info?.status.latestMilestone.index;
    return section(
      'Explorer',
      h('p', {}, 'Search with the box above for:'),
      h(
        'ul',
        {},
        h('li', {}, 'a block ID, transaction ID or milestone ID (0x + 64 hex digits)'),
        h('li', {}, 'an output ID (0x + 68 hex digits: transaction ID and output index)'),
        h('li', {}, 'a milestone index (a number)'),
        h('li', {}, `an address (bech32, starting with ${this.node.hrp}1)`),
      ),
      latest
        ? h(
            'p',
            {},
            'Or start at the latest milestone: ',
            link('milestone', String(latest), `milestone ${latest}`),
            '.',
          )
        : null,
    );
  }
}

/** `block/0x…` → ['block', '0x…']. */
export function splitRoute(route) {
  const at = route.indexOf('/');
  return at < 0 ? [route, ''] : [route.slice(0, at), decodeURIComponent(route.slice(at + 1))];
}
