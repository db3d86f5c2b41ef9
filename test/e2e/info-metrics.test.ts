// /info metrics under load (issue 10 item 8): blocksPerSecond, referencedBlocksPerSecond
// and referencedRate are the rates of the last milestone interval as Hornet computes them
// (blocks newly stored / referenced between two milestones, over the difference of their
// timestamps). A node takes many submissions across several milestones while the test
// reads /info for every milestone; afterwards every interval's figures are checked
// against what was submitted and referenced.
//
// The test issues the milestones itself (the node's coordinator waits an hour), as the
// coordinator would, and reads /info right after each: every interval's figures are seen,
// however long a read takes on a loaded machine. A milestone under load comes once at
// least 2 s passed and 30 more blocks were acknowledged since the last one, so every
// interval under load has blocks in it, however fast or slow the machine submits.

import { afterAll, expect, it } from 'vitest';
import { milestone, startTestNode, type TestNode } from './node-harness';
import { getJson, poll, submit } from './transactions';

let node: TestNode | undefined;

afterAll(async () => {
  await node?.stop();
});

interface Metrics {
  blocksPerSecond: number;
  referencedBlocksPerSecond: number;
  referencedRate: number;
}

/** Milestones issued while the load runs. */
const UNDER_LOAD = 5;
/** Blocks acknowledged between two milestones under load, at least. */
const PER_INTERVAL = 30;
/** Submitting clients: blocks acknowledged after a milestone but stored before it, at most. */
const WORKERS = 8;

it('reports the rates of each milestone interval under load', async () => {
  // Milestone 1 at start; the test issues the others.
  node = await startTestNode(['--milestone-interval', '3600']);
  const running = node;
  const url = running.url;
  const info = async () => (await getJson(url, '/api/core/v2/info')).body;

  // The metrics /info shows for each milestone, read before the next one is issued.
  const seen = new Map<number, Metrics>();
  const issue = async (): Promise<number> => {
    const { index } = await milestone(running);
    seen.set(index, (await info()).metrics);
    return index;
  };
  const first = await issue();

  const submitted: string[] = [];
  let loading = true;
  const worker = async (w: number) => {
    for (let i = 0; loading; i++) {
      const payload = {
        type: 5,
        tag: '0x6c6f6164',
        data: '0x' + Buffer.from(`worker ${w} block ${i}`).toString('hex'),
      };
      submitted.push(await submit(url, { protocolVersion: 2, payload }));
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
  const underLoad: number[] = [];
  try {
    for (let k = 0; k < UNDER_LOAD; k++) {
      const from = submitted.length;
      const since = Date.now();
      await poll(
        `${PER_INTERVAL} blocks for milestone ${first + k + 1}`,
        async () => (submitted.length >= from + PER_INTERVAL && Date.now() >= since + 2_000 ? true : undefined),
        60_000,
        20,
      );
      underLoad.push(await issue());
    }
  } finally {
    loading = false;
    await Promise.all(workers);
  }
  // Milestones until every submitted block is referenced (the next one references all of
  // them: checkpoints approve what one milestone block cannot).
  const referencedBy = new Map<string, number>();
  for (let k = 0; referencedBy.size < submitted.length; k++) {
    expect(k, `blocks still unreferenced: ${submitted.length - referencedBy.size}`).toBeLessThan(5);
    await issue();
    for (const id of submitted) {
      if (referencedBy.has(id)) continue;
      const index = (await getJson(url, `/api/core/v2/blocks/${id}/metadata`)).body.referencedByMilestoneIndex;
      if (index !== undefined) referencedBy.set(id, index);
    }
  }
  const last = Math.max(...referencedBy.values());

  expect(submitted.length).toBeGreaterThan(100);
  const timestamp = async (index: number) =>
    (await getJson(url, `/api/core/v2/milestones/by-index/${index}`)).body.timestamp as number;
  // The coordinator's checkpoints before milestone `index` (docs/coordinator.md): blocks
  // without payload behind its parents, which this test did not submit.
  const ours = new Set(submitted);
  const checkpointsOf = async (index: number): Promise<number> => {
    const found = new Set<string>();
    let next: string[] = (await getJson(url, `/api/core/v2/milestones/by-index/${index}`)).body.parents;
    while (next.length > 0) {
      const parents: string[] = [];
      for (const id of next) {
        if (ours.has(id) || found.has(id)) continue;
        const block = (await getJson(url, `/api/core/v2/blocks/${id}`)).body;
        if (block.payload !== undefined) continue;
        if ((await getJson(url, `/api/core/v2/blocks/${id}/metadata`)).body.referencedByMilestoneIndex !== index)
          continue;
        found.add(id);
        parents.push(...block.parents);
      }
      next = parents;
    }
    return found.size;
  };
  let newTotal = 0;
  let checkpointTotal = 0;
  /** Blocks new and referenced in each interval (rate × seconds). */
  const counts = new Map<number, { fresh: number; referenced: number }>();
  for (let index = first + 1; index <= last; index++) {
    const metrics = seen.get(index);
    expect(metrics, `/info was not read while milestone ${index} was the latest`).toBeDefined();
    const seconds = (await timestamp(index)) - (await timestamp(index - 1));
    // Referenced: our blocks that milestone referenced, its checkpoints, and the previous
    // milestone's block.
    const checkpoints = await checkpointsOf(index);
    checkpointTotal += checkpoints;
    const referenced = [...referencedBy.values()].filter((i) => i === index).length + checkpoints + 1;
    expect(Math.round(metrics!.referencedBlocksPerSecond * seconds), `milestone ${index}`).toBe(referenced);
    const fresh = Math.round(metrics!.blocksPerSecond * seconds);
    expect(fresh).toBeGreaterThanOrEqual(1);
    expect(metrics!.referencedRate).toBeCloseTo((referenced / fresh) * 100, 6);
    newTotal += fresh;
    counts.set(index, { fresh, referenced });
  }
  // New blocks over the run: every submitted block, the checkpoints and the milestones' own
  // blocks.
  expect(newTotal).toBe(submitted.length + checkpointTotal + (last - first));
  // While the load ran, every interval had the blocks acknowledged in it as new ones, but for
  // those stored before the milestone before it and acknowledged after (one per client at
  // most), and its milestone referenced some of them besides the previous milestone's block.
  for (const index of underLoad) {
    expect(counts.get(index)!.fresh, `new in ${index}`).toBeGreaterThanOrEqual(PER_INTERVAL - WORKERS);
    expect(counts.get(index)!.referenced, `referenced by ${index}`).toBeGreaterThan(1);
  }
}, 120_000);
