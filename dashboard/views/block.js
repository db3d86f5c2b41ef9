// Explorer: one block — its payload decoded, its metadata (kept current through the event
// API's `block-metadata/{blockId}`), its parents and children.

import { findJson, getBytes, getJson } from '../lib/api.js';
import { milestoneIdOf, outputIdOf, payloadOf, PAYLOAD_NAMES, transactionIdOf } from '../lib/block.js';
import { facts, fill, h } from '../lib/dom.js';
import { formatAmount, formatTime } from '../lib/format.js';
import {
  addressLink,
  blockMetadataFacts,
  errorView,
  hexWithText,
  jsonDetails,
  link,
  OUTPUT_KINDS,
  ownerOf,
  section,
} from './render.js';

export async function blockView(blockId, view) {
  const block = await findJson(`/api/core/v2/blocks/${blockId}`);
  if (block === null) return errorView('Block not found', `This node stores no block with the ID ${blockId}.`);
  const [metadata, children, bytes] = await Promise.all([
    getJson(`/api/core/v2/blocks/${blockId}/metadata`),
    findJson(`/api/core/v2/blocks/${blockId}/children`),
    getBytes(`/api/core/v2/blocks/${blockId}`),
  ]);
  const node = view.node;
  const payloadType = block.payload?.type;

  const metadataBox = h('div', { id: 'block-metadata' }, blockMetadataFacts(metadata));
  view.liveJson(`block-metadata/${blockId}`, (json) => fill(metadataBox, blockMetadataFacts(json)));

  return h(
    'div',
    { dataset: { view: 'block', blockId } },
    h(
      'section',
      { class: 'detail' },
      h('h1', {}, 'Block ', h('span', { class: 'mono' }, blockId)),
      h(
        'p',
        { class: 'lead' },
        payloadType === undefined
          ? 'A block without payload.'
          : `A block with a ${PAYLOAD_NAMES[payloadType] ?? `type ${payloadType}`} payload.`,
      ),
      facts([
        ['Protocol version', String(block.protocolVersion)],
        [
          'Parents',
          h(
            'div',
            {},
            block.parents.map((p) => h('div', {}, link('block', p))),
          ),
        ],
        [
          'Children',
          children === null || children.count === 0
            ? h('span', { class: 'hint' }, 'none yet')
            : h(
                'div',
                { id: 'block-children' },
                children.children.map((c) => h('div', {}, link('block', c))),
                children.count === children.maxResults
                  ? h('div', { class: 'hint' }, `(first ${children.maxResults})`)
                  : null,
              ),
        ],
        ['Size', `${bytes.length} bytes`],
        ['Nonce', block.nonce],
      ]),
    ),
    section('Metadata', metadataBox),
    payloadSection(block.payload, bytes, node),
    section('Raw', jsonDetails(block)),
  );
}

function payloadSection(payload, blockBytes, node) {
  if (payload === undefined) return null;
  const content = h('div', { id: 'block-payload', dataset: { payloadType: String(payload.type) } });
  if (payload.type === 5) {
    fill(content, taggedDataFacts(payload));
  } else if (payload.type === 6) {
    fill(content, transactionFacts(payload, transactionIdOf(blockBytes), node));
  } else if (payload.type === 7) {
    const milestoneId = milestoneIdOf(payloadOf(blockBytes).payload);
    fill(
      content,
      facts([
        ['Milestone', link('milestone', String(payload.index))],
        ['Milestone ID', milestoneId ? link('milestone', milestoneId) : undefined],
        ['Timestamp', formatTime(payload.timestamp)],
        [
          'Previous milestone',
          /^0x0+$/.test(payload.previousMilestoneId) ? 'none' : link('milestone', payload.previousMilestoneId),
        ],
        ['Signatures', String(payload.signatures.length)],
      ]),
    );
  } else {
    fill(content, jsonDetails(payload, 'Payload'));
  }
  return section(`Payload: ${PAYLOAD_NAMES[payload.type] ?? `type ${payload.type}`}`, content);
}

export function taggedDataFacts(payload) {
  return facts([
    ['Tag', h('span', { dataset: { field: 'tag' } }, hexWithText(payload.tag))],
    ['Data', h('span', { dataset: { field: 'data' } }, hexWithText(payload.data))],
  ]);
}

/** A transaction payload: its ID, inputs, outputs (with their IDs) and inner payload. */
export function transactionFacts(payload, transactionId, node) {
  const essence = payload.essence;
  return h(
    'div',
    {},
    facts([
      ['Transaction ID', link('transaction', transactionId)],
      ['Network ID', essence.networkId],
      ['Inputs', String(essence.inputs.length)],
      ['Outputs', String(essence.outputs.length)],
      [
        'Unlocks',
        payload.unlocks
          .map((u) => ({ 0: 'signature', 1: 'reference', 2: 'alias', 3: 'NFT' })[u.type] ?? u.type)
          .join(', '),
      ],
    ]),
    h('h3', {}, 'Inputs'),
    h(
      'ol',
      {},
      essence.inputs.map((i) => h('li', {}, link('output', outputIdOf(i.transactionId, i.transactionOutputIndex)))),
    ),
    h('h3', {}, 'Outputs'),
    outputsTable(essence.outputs, transactionId, node),
    essence.payload?.type === 5 ? [h('h3', {}, 'Tagged data'), taggedDataFacts(essence.payload)] : null,
  );
}

export function outputsTable(outputs, transactionId, node, spent = []) {
  return h(
    'table',
    { class: 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, '#'),
        h('th', {}, 'Output ID'),
        h('th', {}, 'Kind'),
        h('th', {}, 'Amount'),
        h('th', {}, 'Owner'),
        spent.length ? h('th', {}, 'State') : null,
      ),
    ),
    h(
      'tbody',
      {},
      outputs.map((o, i) => {
        const owner = ownerOf(o);
        return h(
          'tr',
          {},
          h('td', {}, String(i)),
          h('td', {}, link('output', outputIdOf(transactionId, i))),
          h('td', {}, OUTPUT_KINDS[o.type] ?? String(o.type)),
          h('td', {}, formatAmount(o.amount, node.info?.baseToken)),
          h('td', {}, owner ? addressLink(owner, node.hrp) : '—'),
          spent.length ? h('td', {}, spent[i]) : null,
        );
      }),
    ),
  );
}
