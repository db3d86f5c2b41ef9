// A process-wide cost that no route shows on its own: when code run at start-up makes V8's
// transitions from the empty object's hidden class overflow, every object Node builds per
// request takes V8's slow paths (src/server/schemas/block.ts, docs/performance.md). The
// probe asks V8 itself, in the main thread and in each HTTP worker thread of a real node,
// whether two objects built alike still share a hidden class once the server listens.

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnNode, tempDataDir, type ChildNode } from './node-harness';

const probe = join(__dirname, 'hidden-class-probe.cjs');

describe('hidden classes after start-up', () => {
  let node: ChildNode | undefined;
  afterAll(async () => {
    if (node === undefined) return;
    node.child.kill('SIGTERM');
    await exited(node.child);
  });

  it('objects built alike share one hidden class on every HTTP thread', async () => {
    node = await spawnNode(['--rest-workers', '2', '--log-level', 'warn'], tempDataDir(), [
      '--allow-natives-syntax',
      '--require',
      probe,
    ]);
    const { stderr } = node;
    // spawnNode returns once the node answers; the worker's line may still be on its way.
    const deadline = Date.now() + 30_000;
    const lines = () => stderr().match(/^hidden-classes thread=\d+ shared=\w+$/gm) ?? [];
    while (lines().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(lines().length).toBe(2);
    for (const line of lines()) expect(line).toMatch(/shared=true$/);
  });
});
