// Explorer: one transaction — the block that included it (ledger.md §11), its inputs with
// the outputs they consumed, its outputs and whether each is spent. A transaction that no
// milestone has included yet is waited for: the event API's
// `transactions/{transactionId}/included-block` delivers the block when a milestone does
// (and at once when it already has), so the page updates itself.

import { findJson, mapLimited } from '../lib/api.js';
import { outputIdOf } from '../lib/block.js';
import { facts, fill, h } from '../lib/dom.js';
import { formatAmount, formatTime } from '../lib/format.js';
import { outputsTable, taggedDataFacts } from './block.js';
import { addressLink, blockMetadataFacts, jsonDetails, link, ownerOf, section } from './render.js';

export async function transactionView(transactionId, view) {
  const root = h('div', { dataset: { view: 'transaction', transactionId } });
  let shown = false;
  const load = async () => {
    if (shown) return;
    const metadata = await findJson(`/api/core/v2/transactions/${transactionId}/included-block/metadata`);
    if (metadata === null) {
      fill(root, pending(transactionId, view.node));
      return;
    }
    shown = true;
    fill(root, await included(transactionId, metadata, view.node));
  };
  await load();
  if (!shown) {
    if (view.node.mqtt) view.live(`transactions/${transactionId}/included-block`, () => load().catch(view.fail));
    else view.every(2000, load);
  }
  return root;
}

function pending(transactionId, node) {
  return h(
    'section',
    { class: 'detail', id: 'transaction-pending' },
    h('h1', {}, 'Transaction ', h('span', { class: 'mono' }, transactionId)),
    h(
      'p',
      {},
      h('span', { class: 'pill warn' }, 'not included'),
      ' No milestone has included a transaction with this ID (yet).',
    ),
    h(
      'p',
      { class: 'hint' },
      node.mqtt
        ? 'This page is listening on the event API and shows the including block as soon as a milestone includes the transaction.'
        : 'This page asks the node again every 2 seconds.',
      ' A transaction is found through the block that a milestone applied (GET /api/core/v2/transactions/{id}/included-block); an unknown ID, or a conflicting transaction, stays here.',
    ),
  );
}

async function included(transactionId, metadata, node) {
  const block = await findJson(`/api/core/v2/blocks/${metadata.blockId}`);
  const essence = block.payload.essence;
  const inputIds = essence.inputs.map((i) => outputIdOf(i.transactionId, i.transactionOutputIndex));
  const [inputs, outputStates] = await Promise.all([
    mapLimited(inputIds, 8, (id) => findJson(`/api/core/v2/outputs/${id}`)),
    mapLimited(essence.outputs, 8, (_, i) => findJson(`/api/core/v2/outputs/${outputIdOf(transactionId, i)}/metadata`)),
  ]);
  const spent = outputStates.map((m) =>
    m === null
      ? '—'
      : m.isSpent
        ? h(
            'span',
            {},
            h('span', { class: 'pill bad' }, 'spent'),
            ' by ',
            link('transaction', m.transactionIdSpent, 'transaction'),
          )
        : h('span', { class: 'pill good' }, 'unspent'),
  );
  const total = essence.outputs.reduce((sum, o) => sum + BigInt(o.amount), 0n);
  return h(
    'div',
    {},
    h(
      'section',
      { class: 'detail' },
      h('h1', {}, 'Transaction ', h('span', { class: 'mono' }, transactionId)),
      facts([
        ['Included in block', h('span', { id: 'included-block' }, link('block', metadata.blockId))],
        ['Milestone', h('span', {}, link('milestone', String(metadata.referencedByMilestoneIndex)))],
        ['Amount moved', formatAmount(total.toString(), node.info?.baseToken)],
        ['Inputs', String(essence.inputs.length)],
        ['Outputs', String(essence.outputs.length)],
      ]),
    ),
    section('Including block', blockMetadataFacts(metadata)),
    section(
      'Inputs (outputs consumed)',
      h(
        'table',
        { class: 'list' },
        h(
          'thead',
          {},
          h('tr', {}, h('th', {}, 'Output ID'), h('th', {}, 'Amount'), h('th', {}, 'Owner'), h('th', {}, 'Created')),
        ),
        h(
          'tbody',
          {},
          inputIds.map((id, i) => {
            const found = inputs[i];
            const owner = found && ownerOf(found.output);
            return h(
              'tr',
              {},
              h('td', {}, link('output', id)),
              h('td', {}, found ? formatAmount(found.output.amount, node.info?.baseToken) : '—'),
              h('td', {}, owner ? addressLink(owner, node.hrp) : '—'),
              h(
                'td',
                {},
                found
                  ? found.metadata.milestoneIndexBooked === 0
                    ? 'genesis'
                    : formatTime(found.metadata.milestoneTimestampBooked)
                  : '—',
              ),
            );
          }),
        ),
      ),
    ),
    section('Outputs', outputsTable(essence.outputs, transactionId, node, spent)),
    essence.payload?.type === 5 ? section('Tagged data', taggedDataFacts(essence.payload)) : null,
    section('Raw', jsonDetails(block.payload, 'Transaction payload JSON')),
  );
}
