// Explorer: one address — its unspent outputs and balance, found through the UTXO indexer
// (indexer.md: GET /api/indexer/v1/outputs?unlockableByAddress=…, following the cursor),
// then each output read from the Core API. Where the node serves no indexer (/api/routes
// lacks indexer/v1), the page says so instead of guessing.

import { ApiError, getJson, mapLimited } from '../lib/api.js';
import { decodeAddress } from '../lib/bech32.js';
import { facts, h } from '../lib/dom.js';
import { formatAmount, shortId } from '../lib/format.js';
import { addressLink, errorView, link, OUTPUT_KINDS, ownerOf, section } from './render.js';

/** Outputs read at most for one page view; the balance says when there are more. */
const MAX_OUTPUTS = 1000;

export async function addressView(text, view) {
  const node = view.node;
  let address;
  try {
    address = decodeAddress(text);
  } catch (err) {
    return errorView('Not an address', `${text} is not a bech32 address: ${err.message}.`);
  }
  if (address.hrp !== node.hrp)
    return errorView(
      'Address of another network',
      `${text} has the prefix "${address.hrp}"; addresses on this network start with "${node.hrp}1".`,
    );
  const bech32 = text.toLowerCase();
  const header = h(
    'section',
    { class: 'detail' },
    h('h1', {}, 'Address ', h('span', { class: 'mono' }, bech32)),
    facts([
      ['Kind', `${address.kind} address`],
      [
        address.type === 0 ? 'Public key hash' : address.type === 8 ? 'Alias ID' : 'NFT ID',
        h('span', { class: 'mono' }, address.hex),
      ],
    ]),
  );
  if (!node.routes.has('indexer/v1')) {
    return h(
      'div',
      { dataset: { view: 'address' } },
      header,
      h(
        'section',
        { class: 'detail', id: 'indexer-unavailable' },
        h('h2', {}, 'Balance and outputs'),
        h(
          'p',
          {},
          h('span', { class: 'pill warn' }, 'indexer not available'),
          ' This node does not serve the UTXO indexer (GET /api/routes does not list indexer/v1), so the outputs and balance of an address cannot be listed. Outputs can still be looked up by their ID.',
        ),
      ),
    );
  }

  const ids = [];
  let cursor;
  let more = false;
  try {
    do {
      const page = await getJson(
        `/api/indexer/v1/outputs?unlockableByAddress=${bech32}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      ids.push(...page.items);
      cursor = page.cursor;
      if (ids.length >= MAX_OUTPUTS && cursor) {
        more = true;
        break;
      }
    } while (cursor);
  } catch (err) {
    const reason = err instanceof ApiError ? err.message : String(err);
    return h(
      'div',
      { dataset: { view: 'address' } },
      header,
      errorView('Balance and outputs', `The indexer did not answer: ${reason}`),
    );
  }
  const outputs = (
    await mapLimited(ids.slice(0, MAX_OUTPUTS), 8, (id) => getJson(`/api/core/v2/outputs/${id}`).catch(() => null))
  ).map((found, i) => ({ id: ids[i], found }));

  // Owned: the address is the output's Address (or State Controller) unlock condition.
  // Listed but not owned: it is only a return address (storage deposit, expiration).
  let balance = 0n;
  const tokens = new Map();
  let owned = 0;
  for (const { found } of outputs) {
    if (!found || !sameAddress(ownerOf(found.output), address)) continue;
    owned++;
    balance += BigInt(found.output.amount);
    for (const t of found.output.nativeTokens ?? []) tokens.set(t.id, (tokens.get(t.id) ?? 0n) + BigInt(t.amount));
  }
  const baseToken = node.info?.baseToken;
  return h(
    'div',
    { dataset: { view: 'address' } },
    header,
    h(
      'section',
      { class: 'detail', id: 'address-balance' },
      h('h2', {}, 'Balance'),
      h('p', { class: 'big', dataset: { balance: balance.toString() } }, formatAmount(balance.toString(), baseToken)),
      h(
        'p',
        { class: 'hint' },
        `${owned} unspent output${owned === 1 ? '' : 's'} owned by this address${outputs.length > owned ? `, ${outputs.length - owned} more where it is a return address` : ''}${more ? `; only the first ${MAX_OUTPUTS} outputs were read` : ''}.`,
      ),
      tokens.size ? facts([...tokens].map(([id, amount]) => [shortId(id), amount.toString()])) : null,
    ),
    section(
      'Unspent outputs',
      outputs.length === 0
        ? h('p', { class: 'hint' }, 'None: this address holds nothing on the confirmed ledger.')
        : h(
            'table',
            { class: 'list' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'Output ID'),
                h('th', {}, 'Kind'),
                h('th', {}, 'Amount'),
                h('th', {}, 'Owner'),
                h('th', {}, 'Booked'),
              ),
            ),
            h(
              'tbody',
              {},
              outputs.map(({ id, found }) =>
                h(
                  'tr',
                  {},
                  h('td', {}, link('output', id)),
                  h('td', {}, found ? (OUTPUT_KINDS[found.output.type] ?? String(found.output.type)) : '—'),
                  h('td', {}, found ? formatAmount(found.output.amount, baseToken) : '—'),
                  h('td', {}, found && ownerOf(found.output) ? addressLink(ownerOf(found.output), node.hrp) : '—'),
                  h('td', {}, found ? link('milestone', String(found.metadata.milestoneIndexBooked)) : '—'),
                ),
              ),
            ),
          ),
    ),
  );
}

function sameAddress(json, address) {
  if (!json || json.type !== address.type) return false;
  const value = json.pubKeyHash ?? json.aliasId ?? json.nftId;
  return typeof value === 'string' && value.toLowerCase() === address.hex;
}
