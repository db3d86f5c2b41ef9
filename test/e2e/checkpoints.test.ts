// The coordinator's checkpoints through a running node (docs/coordinator.md): 30 blocks
// that each approve only the current tips make 30 tips, far more than the 7 a milestone
// block can approve besides the previous milestone. The next milestone confirms all of them,
// through checkpoint blocks (no payload, 8 parents) that the coordinator mined and stored.
// The test issues that milestone itself, as the coordinator's clock would (the coordinator
// waits an hour): it comes after all 30 are stored, however long storing them takes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { milestone, startTestNode, type TestNode } from './node-harness';
import { getJson, minedBlock, submit } from './transactions';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '3600']);
}, 30_000);

afterAll(async () => {
  await node?.stop();
});

describe('more tips than a milestone can approve', () => {
  it('are all confirmed by the next milestone, through checkpoints', async () => {
    const { tips } = (await getJson(node.url, '/api/core/v2/tips')).body as { tips: string[] };
    const blocks = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        minedBlock(tips, {
          type: 5,
          tag: '0x' + Buffer.from('checkpoints').toString('hex'),
          data: '0x' + i.toString(16).padStart(4, '0'),
        }),
      ),
    );
    await Promise.all(blocks.map(async (b) => expect(await submit(node.url, b.bytes)).toBe(b.blockId)));
    const { index } = await milestone(node);

    const referencedBy = await Promise.all(
      blocks.map(
        async (b) =>
          (await getJson(node.url, `/api/core/v2/blocks/${b.blockId}/metadata`)).body.referencedByMilestoneIndex,
      ),
    );
    // Without checkpoints, 30 tips would take 5 milestones (7 each).
    expect(referencedBy).toEqual(blocks.map(() => index));

    const payload = (await getJson(node.url, `/api/core/v2/milestones/by-index/${index}`)).body;
    const parents = await Promise.all(
      (payload.parents as string[]).map(async (id) => ({
        id,
        block: (await getJson(node.url, `/api/core/v2/blocks/${id}`)).body,
      })),
    );
    // The last checkpoint, named by the milestone; it approves the one before it.
    const checkpoints = parents.filter(({ block }) => block.payload === undefined && block.parents.length === 8);
    expect(checkpoints.length).toBe(1);
    const meta = (await getJson(node.url, `/api/core/v2/blocks/${checkpoints[0].id}/metadata`)).body;
    expect(meta.referencedByMilestoneIndex).toBe(index);
    expect(meta.ledgerInclusionState).toBe('noTransaction');
  }, 30_000);
});
