// /info metrics under load (issue 10 item 8): blocksPerSecond, referencedBlocksPerSecond
// and referencedRate are the rates of the last milestone interval as Hornet computes them
// (blocks newly stored / referenced between two milestones, over the difference of their
// timestamps). A child-process node with 2 s milestones takes many submissions across
// several milestones while the test reads /info for every milestone; afterwards every
// interval's figures are checked against what was submitted and referenced.

import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { exited, spawnNode, tempDataDir } from './node-harness';
import { getJson, poll, sleep, submit, waitForReferenced } from './transactions';

let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited(child);
  }
});

interface Metrics {
  blocksPerSecond: number;
  referencedBlocksPerSecond: number;
  referencedRate: number;
}

it('reports the rates of each milestone interval under load', async () => {
  const node = await spawnNode(['--milestone-interval', '2', '--log-level', 'warn'], tempDataDir());
  child = node.child;
  const url = node.url;
  const info = async () => (await getJson(url, '/api/core/v2/info')).body;
  await poll('milestone 2', async () => ((await info()).status.latestMilestone.index >= 2 ? true : undefined), 20_000);

  // The metrics /info shows for each milestone, read every 50 ms.
  const seen = new Map<number, Metrics>();
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const body = await info();
      seen.set(body.status.latestMilestone.index, body.metrics);
      await sleep(50);
    }
  })();

  const first = (await info()).status.latestMilestone.index;
  const submitted: string[] = [];
  const until = Date.now() + 7_000;
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const payload = {
        type: 5,
        tag: '0x6c6f6164',
        data: '0x' + Buffer.from(`worker ${w} block ${i}`).toString('hex'),
      };
      submitted.push(await submit(url, { protocolVersion: 2, payload }));
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  const referencedBy = new Map<string, number>();
  for (const id of submitted)
    referencedBy.set(id, (await waitForReferenced(url, id, 20_000)).referencedByMilestoneIndex);
  const last = Math.max(...referencedBy.values());
  await poll('one more milestone', async () => (seen.has(last + 1) ? true : undefined), 10_000);
  watching = false;
  await watcher;

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
  }
  // New blocks over the run: every submitted block, the checkpoints and the milestones' own
  // blocks.
  expect(newTotal).toBe(submitted.length + checkpointTotal + (last - first));
  // While the load ran, both rates were above zero.
  const underLoad = [...Array(last - first - 1).keys()].map((k) => seen.get(first + 1 + k)!);
  expect(underLoad.every((m) => m.blocksPerSecond > 0 && m.referencedBlocksPerSecond > 0)).toBe(true);
  expect(underLoad.some((m) => m.blocksPerSecond > 5 && m.referencedBlocksPerSecond > 5)).toBe(true);
}, 90_000);
