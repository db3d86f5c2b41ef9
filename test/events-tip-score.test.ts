// inx-mqtt's `tip-score-updates` on the node's event API (events.md §3): a block entering the
// tip pool and leaving it is published with inx-mqtt's payload (its blockMetadataPayload:
// `parentBlockIds` only, the tip pools' promote/reattach advice while unreferenced, the
// white-flag facts once referenced), byte for byte as inx-mqtt 1.0.0 writes it. Nothing here
// waits on a milestone's timing: the block leaves the pool when its child arrives or when a
// milestone references it, whichever comes first, and either payload is checked.

import { describe, expect, it } from 'vitest';
import { Recorder, type Received } from './e2e/mqtt';
import { useTestNode } from './e2e/node-harness';
import { getJson, minedBlock, submit, submitPayload, waitForReferenced } from './e2e/transactions';

const TAG = '0x' + Buffer.from('tip score').toString('hex');

const node = useTestNode(['--milestone-interval', '1']);

const about = (messages: Received[], blockId: string) =>
  messages.filter((m) => m.topic === 'tip-score-updates' && JSON.parse(m.payload.toString()).blockId === blockId);

/** inx-mqtt's payload for an unreferenced block: Go's struct order, advice always present. */
const unreferenced = (blockId: string, parents: string[], promote = false, reattach = false) =>
  `{"blockId":"${blockId}","parentBlockIds":${JSON.stringify(parents)},"isSolid":true,` +
  `"shouldPromote":${promote},"shouldReattach":${reattach}}`;

/** inx-mqtt's payload for a referenced block, from the REST metadata. */
const referenced = (rest: Record<string, unknown>) =>
  `{"blockId":"${rest.blockId}","parentBlockIds":${JSON.stringify(rest.parents)},"isSolid":true,` +
  `"referencedByMilestoneIndex":${rest.referencedByMilestoneIndex}` +
  (rest.milestoneIndex !== undefined ? `,"milestoneIndex":${rest.milestoneIndex}` : '') +
  `,"ledgerInclusionState":"${rest.ledgerInclusionState}"` +
  (rest.conflictReason !== undefined ? `,"conflictReason":${rest.conflictReason}` : '') +
  `,"whiteFlagIndex":${rest.whiteFlagIndex}}`;

describe('tip-score-updates', () => {
  it('publishes a block entering the tip pool and leaving it, with inx-mqtt payload', async () => {
    const client = await Recorder.connect(node.url);
    const wildcard = await Recorder.connect(node.url);
    try {
      expect(await client.subscribe(['tip-score-updates'])).toEqual([0]);
      expect(await wildcard.subscribe(['+'])).toEqual([0]);

      const a = await submitPayload(node.url, { type: 5, tag: TAG, data: '0x01' });
      const aParents: string[] = (await getJson(node.url, `/api/core/v2/blocks/${a}`)).body.parents;
      // A is healthy when attached: it enters the pool with no advice to promote or reattach.
      const added = await client.waitFor('A entering the tip pool', (m) => about(m, a)[0]);
      expect(added.payload.toString()).toBe(unreferenced(a, aParents));

      // B approves A and one of A's parents (no longer a tip: A took it out): A leaves the
      // pool as B enters it (or earlier, referenced by a milestone).
      const bParents = [a, aParents[0]].sort();
      const b = await minedBlock(bParents, { type: 5, tag: TAG, data: '0x02' });
      expect(await submit(node.url, b.block)).toBe(b.blockId);
      const bAdded = await client.waitFor('B entering the tip pool', (m) => about(m, b.blockId)[0]);
      expect(bAdded.payload.toString()).toBe(unreferenced(b.blockId, bParents));
      const removed = await client.waitFor('A leaving the tip pool', (m) => about(m, a)[1]);
      const value = JSON.parse(removed.payload.toString());
      if (value.referencedByMilestoneIndex === undefined) {
        // Left for its child, still unreferenced (healthy: no advice), after B entered (one write).
        expect(removed.payload.toString()).toBe(unreferenced(a, aParents));
        expect(client.messages.indexOf(removed)).toBeGreaterThan(client.messages.indexOf(bAdded));
      } else {
        const rest = (await getJson(node.url, `/api/core/v2/blocks/${a}/metadata`)).body;
        expect(removed.payload.toString()).toBe(referenced(rest));
        expect(rest.ledgerInclusionState).toBe('noTransaction');
      }

      // Once B is referenced, it has left the pool too: as referenced, or unreferenced when
      // a child took it out first (the milestone's own block or another tip).
      const bRest = await waitForReferenced(node.url, b.blockId);
      const bRemoved = await client.waitFor('B leaving the tip pool', (m) => about(m, b.blockId)[1]);
      const bValue = JSON.parse(bRemoved.payload.toString());
      expect(bRemoved.payload.toString()).toBe(
        bValue.referencedByMilestoneIndex === undefined ? unreferenced(b.blockId, bParents) : referenced(bRest),
      );

      // Standard MQTT matching: a `+` subscriber gets the same messages (the one-level topic).
      await wildcard.waitFor('the same on +', (m) =>
        about(m, b.blockId).length >= 2 && about(m, a).length >= 2 ? true : undefined,
      );
      for (const id of [a, b.blockId])
        expect(
          about(wildcard.messages, id)
            .slice(0, 2)
            .map((m) => m.payload.toString()),
        ).toEqual(
          about(client.messages, id)
            .slice(0, 2)
            .map((m) => m.payload.toString()),
        );
      // No key of the REST metadata that inx-mqtt does not send.
      for (const m of client.on('tip-score-updates')) expect(JSON.parse(m.payload.toString()).parents).toBeUndefined();
    } finally {
      await Promise.all([client.end(), wildcard.end()]);
    }
  });

  it('is not sent to a client not subscribed to it', async () => {
    const client = await Recorder.connect(node.url);
    try {
      await client.subscribe(['blocks', 'block-metadata/referenced']);
      const id = await submitPayload(node.url, { type: 5, tag: TAG, data: '0x03' });
      await client.waitFor('the block referenced', (m) =>
        m.some((x) => x.topic === 'block-metadata/referenced' && JSON.parse(x.payload.toString()).blockId === id)
          ? true
          : undefined,
      );
      expect(client.on('tip-score-updates')).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
