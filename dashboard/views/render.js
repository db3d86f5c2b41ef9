// Pieces the explorer views share: links to other views, addresses in bech32, outputs,
// unlock conditions and features (wire-format.md §6), metadata, raw JSON.

import { encodeAddress } from '../lib/bech32.js';
import { fromHex } from '../lib/bytes.js';
import { facts, h } from '../lib/dom.js';
import { formatAmount, formatTime, printableText, shortId } from '../lib/format.js';

export const OUTPUT_KINDS = { 3: 'basic', 4: 'alias', 5: 'foundry', 6: 'NFT' };

export const link = (kind, id, text = id) => h('a', { class: 'mono', href: `#/${kind}/${id}` }, text);
export const shortLink = (kind, id) => link(kind, id, shortId(id));

export function addressLink(address, hrp) {
  const bech32 = encodeAddress(hrp, address);
  return h('a', { class: 'mono', href: `#/address/${bech32}` }, bech32);
}

/** Hex bytes, with their text beside them when they are printable UTF-8. */
export function hexWithText(hex) {
  const text = printableText(fromHex(hex));
  return h(
    'span',
    {},
    h('span', { class: 'mono' }, hex === '0x' ? '(empty)' : hex),
    text !== null ? [' ', h('span', { class: 'text' }, text)] : null,
  );
}

export function section(title, ...content) {
  return h('section', { class: 'detail' }, h('h2', {}, title), ...content);
}

export function jsonDetails(value, label = 'JSON as the API returns it') {
  return h('details', {}, h('summary', {}, label), h('pre', { class: 'json' }, JSON.stringify(value, null, 2)));
}

export function errorView(title, message) {
  return h('section', { class: 'detail' }, h('h1', {}, title), h('p', { class: 'error' }, message));
}

const UNLOCK_CONDITIONS = {
  0: ['Address', (c, n) => addressLink(c.address, n.hrp)],
  1: [
    'Storage deposit return',
    (c, n) => h('span', {}, formatAmount(c.amount, n.baseToken), ' to ', addressLink(c.returnAddress, n.hrp)),
  ],
  2: ['Timelock', (c) => `until ${formatTime(c.unixTime)}`],
  3: [
    'Expiration',
    (c, n) => h('span', {}, `at ${formatTime(c.unixTime)}, then `, addressLink(c.returnAddress, n.hrp)),
  ],
  4: ['State controller', (c, n) => addressLink(c.address, n.hrp)],
  5: ['Governor', (c, n) => addressLink(c.address, n.hrp)],
  6: ['Immutable alias', (c, n) => addressLink(c.address, n.hrp)],
};

const FEATURES = {
  0: ['Sender', (f, n) => addressLink(f.address, n.hrp)],
  1: ['Issuer', (f, n) => addressLink(f.address, n.hrp)],
  2: ['Metadata', (f) => hexWithText(f.data)],
  3: ['Tag', (f) => hexWithText(f.tag)],
};

const described = (table, item, node) => {
  const [name, show] = table[item.type] ?? [`type ${item.type}`, () => JSON.stringify(item)];
  return [name, show(item, node)];
};

/** Rows describing an output (wire-format.md §6): kind, amount, chain IDs, conditions, features, tokens. */
export function outputRows(output, node) {
  const rows = [
    ['Kind', `${OUTPUT_KINDS[output.type] ?? output.type} output`],
    ['Amount', formatAmount(output.amount, node.info?.baseToken)],
  ];
  if (output.aliasId) rows.push(['Alias ID', h('span', { class: 'mono' }, output.aliasId)]);
  if (output.nftId) rows.push(['NFT ID', h('span', { class: 'mono' }, output.nftId)]);
  if (output.stateIndex !== undefined) rows.push(['State index', String(output.stateIndex)]);
  if (output.foundryCounter !== undefined) rows.push(['Foundry counter', String(output.foundryCounter)]);
  if (output.serialNumber !== undefined) rows.push(['Serial number', String(output.serialNumber)]);
  if (output.stateMetadata) rows.push(['State metadata', hexWithText(output.stateMetadata)]);
  for (const c of output.unlockConditions ?? []) rows.push(described(UNLOCK_CONDITIONS, c, node));
  for (const f of output.features ?? []) rows.push(described(FEATURES, f, node));
  for (const f of output.immutableFeatures ?? []) {
    const [name, value] = described(FEATURES, f, node);
    rows.push([`${name} (immutable)`, value]);
  }
  for (const t of output.nativeTokens ?? [])
    rows.push(['Native token', h('span', {}, BigInt(t.amount).toString(), ' of ', h('span', { class: 'mono' }, t.id))]);
  return rows;
}

/** The address an output belongs to now: its Address or State Controller unlock condition. */
export function ownerOf(output) {
  const c = (output.unlockConditions ?? []).find((u) => u.type === 0 || u.type === 4 || u.type === 6);
  return c?.address ?? null;
}

/** Output metadata (api.md §2.9) as rows: where it was created, whether it is spent. */
export function outputMetadataRows(metadata) {
  const rows = [
    ['Created in block', metadata.blockId === '0x' + '0'.repeat(64) ? 'genesis' : link('block', metadata.blockId)],
    [
      'Transaction',
      metadata.transactionId === '0x' + '0'.repeat(64) ? 'genesis' : link('transaction', metadata.transactionId),
    ],
    ['Output index', String(metadata.outputIndex)],
    [
      'Booked by milestone',
      h(
        'span',
        {},
        link('milestone', String(metadata.milestoneIndexBooked)),
        metadata.milestoneTimestampBooked ? ` · ${formatTime(metadata.milestoneTimestampBooked)}` : '',
      ),
    ],
    [
      'Spent',
      metadata.isSpent
        ? h('span', { class: 'pill bad', dataset: { spent: 'true' } }, 'spent')
        : h('span', { class: 'pill good', dataset: { spent: 'false' } }, 'unspent'),
    ],
  ];
  if (metadata.isSpent) {
    rows.push(['Spent by transaction', link('transaction', metadata.transactionIdSpent)]);
    rows.push([
      'Spent in milestone',
      h(
        'span',
        {},
        link('milestone', String(metadata.milestoneIndexSpent)),
        ` · ${formatTime(metadata.milestoneTimestampSpent)}`,
      ),
    ]);
  }
  rows.push(['Ledger index', String(metadata.ledgerIndex)]);
  return rows;
}

const INCLUSION = { included: 'good', conflicting: 'bad', noTransaction: '' };

/** Block metadata (api.md §2.7, ledger.md §9) as a table. */
export function blockMetadataFacts(metadata) {
  const referenced = metadata.referencedByMilestoneIndex;
  return facts([
    ['Solid', metadata.isSolid ? 'yes' : 'no'],
    [
      'Referenced by milestone',
      referenced !== undefined
        ? link('milestone', String(referenced))
        : h('span', { class: 'pill warn' }, 'not yet referenced'),
    ],
    [
      'Ledger inclusion',
      metadata.ledgerInclusionState !== undefined
        ? h(
            'span',
            {
              class: `pill ${INCLUSION[metadata.ledgerInclusionState] ?? ''}`,
              dataset: { inclusion: metadata.ledgerInclusionState },
            },
            metadata.ledgerInclusionState,
          )
        : undefined,
    ],
    ['Conflict reason', metadata.conflictReason !== undefined ? String(metadata.conflictReason) : undefined],
    ['White-flag index', metadata.whiteFlagIndex !== undefined ? String(metadata.whiteFlagIndex) : undefined],
    [
      'Milestone in this block',
      metadata.milestoneIndex !== undefined ? link('milestone', String(metadata.milestoneIndex)) : undefined,
    ],
    ['Should promote', metadata.shouldPromote !== undefined ? String(metadata.shouldPromote) : undefined],
    ['Should reattach', metadata.shouldReattach !== undefined ? String(metadata.shouldReattach) : undefined],
  ]);
}
