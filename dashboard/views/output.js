// Explorer: one output — what it holds, where it was created, whether it is spent (kept
// current through the event API's `outputs/{outputId}`, published on creation and spend).

import { findJson } from '../lib/api.js';
import { blake2b } from '../lib/blake2b.js';
import { fromHex, toHex } from '../lib/bytes.js';
import { facts, fill, h } from '../lib/dom.js';
import { errorView, jsonDetails, outputMetadataRows, outputRows, section } from './render.js';

const ZERO_ID = '0x' + '0'.repeat(64);

export async function outputView(outputId, view) {
  const found = await findJson(`/api/core/v2/outputs/${outputId}`);
  if (found === null)
    return errorView(
      'Output not found',
      `No confirmed transaction created an output with the ID ${outputId} (outputs of transactions that no milestone has included do not exist yet).`,
    );
  const metadataBox = h('div', { id: 'output-metadata' }, facts(outputMetadataRows(found.metadata)));
  view.liveJson(`outputs/${outputId}`, (body) => fill(metadataBox, facts(outputMetadataRows(body.metadata))));
  const rows = outputRows(found.output, view.node);
  // The first output of an alias or NFT chain carries an all-zero ID; its real ID is derived
  // from the output ID (wire-format.md §4).
  if (found.output.aliasId === ZERO_ID || found.output.nftId === ZERO_ID) {
    rows.push(['Chain ID (derived)', h('span', { class: 'mono' }, '0x' + toHex(blake2b(fromHex(outputId))))]);
  }
  return h(
    'div',
    { dataset: { view: 'output', outputId } },
    h('section', { class: 'detail' }, h('h1', {}, 'Output ', h('span', { class: 'mono' }, outputId)), facts(rows)),
    section('Metadata', metadataBox),
    section('Raw', jsonDetails(found)),
  );
}
