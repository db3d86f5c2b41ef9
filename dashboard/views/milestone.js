// Explorer: one milestone, by index or by ID — its payload, its ID (computed from the
// binary payload: the hash of its essence), and the ledger changes it applied.

import { findJson, getBytes } from '../lib/api.js';
import { milestoneIdOf } from '../lib/block.js';
import { facts, h } from '../lib/dom.js';
import { formatTime } from '../lib/format.js';
import { errorView, hexWithText, jsonDetails, link, section } from './render.js';

export async function milestoneView(arg, view) {
  const path = /^\d+$/.test(arg) ? `/api/core/v2/milestones/by-index/${arg}` : `/api/core/v2/milestones/${arg}`;
  const milestone = await findJson(path);
  if (milestone === null)
    return errorView(
      'Milestone not found',
      `This node has no milestone ${/^\d+$/.test(arg) ? 'with index' : 'with the ID'} ${arg}.`,
    );
  const index = milestone.index;
  const [bytes, changes] = await Promise.all([
    getBytes(`/api/core/v2/milestones/by-index/${index}`),
    findJson(`/api/core/v2/milestones/by-index/${index}/utxo-changes`),
  ]);
  const milestoneId = milestoneIdOf(bytes);
  const latest = view.node.info?.status.latestMilestone.index ?? index;
  const zero = /^0x0+$/.test(milestone.previousMilestoneId);
  return h(
    'div',
    { dataset: { view: 'milestone', index: String(index) } },
    h(
      'section',
      { class: 'detail' },
      h('h1', {}, `Milestone ${index}`),
      h(
        'p',
        { class: 'lead' },
        index > 1 ? link('milestone', String(index - 1), '← previous') : null,
        ' ',
        index < latest ? link('milestone', String(index + 1), 'next →') : null,
      ),
      facts([
        ['Milestone ID', milestoneId ? h('span', { class: 'mono' }, milestoneId) : undefined],
        ['Timestamp', `${formatTime(milestone.timestamp)} (${milestone.timestamp})`],
        ['Previous milestone', zero ? 'none' : link('milestone', milestone.previousMilestoneId)],
        [
          'Parents',
          h(
            'div',
            {},
            milestone.parents.map((p) =>
              h(
                'div',
                {},
                /^0x0+1?$/.test(p) ? h('span', { class: 'mono hint' }, `${p} (entry point)`) : link('block', p),
              ),
            ),
          ),
        ],
        ['Inclusion Merkle root', h('span', { class: 'mono' }, milestone.inclusionMerkleRoot)],
        ['Applied Merkle root', h('span', { class: 'mono' }, milestone.appliedMerkleRoot)],
        ['Metadata', milestone.metadata ? hexWithText(milestone.metadata) : undefined],
        [
          'Signatures',
          h(
            'div',
            {},
            milestone.signatures.map((s) => h('div', { class: 'mono' }, s.publicKey)),
          ),
        ],
      ]),
    ),
    changes
      ? section(
          'Ledger changes',
          facts([
            [
              'Created outputs',
              changes.createdOutputs.length
                ? h(
                    'div',
                    {},
                    changes.createdOutputs.map((id) => h('div', {}, link('output', id))),
                  )
                : 'none',
            ],
            [
              'Consumed outputs',
              changes.consumedOutputs.length
                ? h(
                    'div',
                    {},
                    changes.consumedOutputs.map((id) => h('div', {}, link('output', id))),
                  )
                : 'none',
            ],
          ]),
        )
      : null,
    section('Raw', jsonDetails(milestone)),
  );
}
