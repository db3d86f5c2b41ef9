// Persistence: a restart keeps the data, and a node SIGKILLed while it acknowledges
// concurrent submissions has every acknowledged (201) block after restart.

import { expect, it } from 'vitest';
import { exited, spawnNode, startTestNode, tempDataDir } from './node-harness';
import { poll, sleep } from './transactions';

const submit = (url: string, text: string) =>
  fetch(`${url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, data: '0x' + Buffer.from(text).toString('hex') } }),
  });

it('keeps blocks across a clean restart', async () => {
  const dataDir = tempDataDir();
  const first = await startTestNode([], dataDir);
  const { blockId } = await (await submit(first.url, 'restart')).json();
  await first.stop();
  const second = await startTestNode([], dataDir);
  try {
    expect((await fetch(`${second.url}/api/core/v2/blocks/${blockId}`)).status).toBe(200);
  } finally {
    await second.stop();
  }
});

it('refuses to start when the persisted protocol differs', async () => {
  const dataDir = tempDataDir();
  const first = await startTestNode([], dataDir);
  await first.stop();
  await expect(startTestNode(['--min-pow-score', '7'], dataDir)).rejects.toThrow(/protocol/);
});

it('every block acknowledged before kill -9 is readable after restart', async () => {
  const dataDir = tempDataDir();
  const { child, url } = await spawnNode(['--log-level', 'warn'], dataDir);
  const acknowledged: string[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await submit(url, `kill ${w} ${i}`);
        if (res.status === 201) acknowledged.push((await res.json()).blockId);
      } catch {
        return; // connection refused or reset once the process is gone
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  // Submissions for a while, and at least some acknowledged (a loaded machine takes longer
  // to get there), then the kill with the workers still submitting.
  await sleep(1500);
  await poll('acknowledged blocks', async () => (acknowledged.length > 10 ? true : undefined), 30_000, 20);
  child.kill('SIGKILL');
  stop = true;
  await exited(child);
  await Promise.all(workers);
  expect(acknowledged.length).toBeGreaterThan(10);

  const restarted = await startTestNode([], dataDir);
  try {
    for (const id of acknowledged) {
      expect((await fetch(`${restarted.url}/api/core/v2/blocks/${id}`)).status, id).toBe(200);
    }
  } finally {
    await restarted.stop();
  }
}, 60_000);

it('stops cleanly on SIGTERM', async () => {
  const { child } = await spawnNode(['--log-level', 'warn'], tempDataDir());
  child.kill('SIGTERM');
  expect(await exited(child)).toBe(0);
});
