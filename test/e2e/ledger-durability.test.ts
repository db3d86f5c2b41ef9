// The ledger survives kill -9: a child-process node issuing a milestone every second is
// killed while transfers and tagged data are being submitted; restarted on the same data
// directory (with the same coordinator key) it still has every acknowledged block, every
// transaction it had included is still included, the coordinator continues, and the
// outputs sum to the token supply (the node also checks that itself when it opens the store),
// and the UTXO indexer lists exactly the unspent outputs (it is written in the same batch).

import { expect, it } from 'vitest';
import { exited, spawnNode, startTestNode, tempDataDir } from './node-harness';
import {
  GENESIS_OUTPUT_ID,
  buildTransfer,
  genesisKey,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  postBlock,
  sleep,
  testKey,
  transferAndWait,
  unspentSum,
  waitForReferenced,
  type Spendable,
} from './transactions';

const COORDINATOR = testKey('durability coordinator');
const WORKERS = 6;
const AMOUNT = 10_000_000n;

it('keeps acknowledged blocks, inclusions and the supply across kill -9', async () => {
  const dataDir = tempDataDir();
  const flags = ['--milestone-interval', '1', '--coordinator-key', COORDINATOR.seed];
  const { child, url } = await spawnNode([...flags, '--log-level', 'warn'], dataDir);

  const outputIds = new Set<string>([GENESIS_OUTPUT_ID]);
  const acknowledged: string[] = [];
  /** transaction ID → block ID, for transactions seen included before the kill. */
  const included = new Map<string, string>();
  /** block ID → transaction ID, for every acknowledged transfer. */
  const transferBlocks = new Map<string, string>();
  let supply: bigint;
  let lastMilestoneBeforeKill = 0;
  try {
    const networkId = await networkIdOf(url);
    const genesis = await genesisSpendable(url);
    supply = BigInt(genesis.output.amount);
    const keys = Array.from({ length: WORKERS }, (_, w) => testKey(`durability ${w}`));
    const fanOut = buildTransfer(
      networkId,
      [genesis],
      [...keys.map((to) => ({ to, amount: AMOUNT })), { to: genesisKey, amount: supply - BigInt(WORKERS) * AMOUNT }],
    );
    for (const o of fanOut.outputs) outputIds.add(o.outputId);
    included.set(fanOut.transactionId, (await transferAndWait(url, fanOut)).blockId);

    let stop = false;
    // Each worker moves its coin back and forth between two keys, one transfer per milestone.
    const transfers = async (w: number) => {
      let current: Spendable = fanOut.outputs[w];
      for (let i = 0; i < 100 && !stop; i++) {
        const tx = buildTransfer(networkId, [current], [{ to: testKey(`durability ${w} ${i % 2}`), amount: AMOUNT }]);
        for (const o of tx.outputs) outputIds.add(o.outputId);
        let blockId: string;
        try {
          const res = await postBlock(url, { protocolVersion: 2, payload: tx.payload });
          if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
          blockId = (await res.json()).blockId;
        } catch (err) {
          if (stop) return;
          throw err;
        }
        acknowledged.push(blockId);
        transferBlocks.set(blockId, tx.transactionId);
        // Until it is included (or the node is killed): the next transfer spends its output.
        for (const deadline = Date.now() + 30_000; ; ) {
          if (stop || Date.now() > deadline) return;
          try {
            const res = await fetch(`${url}/api/core/v2/transactions/${tx.transactionId}/included-block/metadata`);
            if (res.status === 200) {
              included.set(tx.transactionId, (await res.json()).blockId);
              break;
            }
          } catch {
            return;
          }
          await sleep(50);
        }
        current = tx.outputs[0];
      }
    };
    const tagged = async (w: number) => {
      for (let i = 0; i < 2000 && !stop; i++) {
        try {
          const res = await postBlock(url, {
            protocolVersion: 2,
            payload: { type: 5, tag: '0x6b696c6c', data: '0x' + Buffer.from(`${w} ${i}`).toString('hex') },
          });
          if (res.status === 201) acknowledged.push((await res.json()).blockId);
        } catch {
          return;
        }
      }
    };
    const running = [...Array.from({ length: WORKERS }, (_, w) => transfers(w)), tagged(0), tagged(1)];
    const watch = (async () => {
      while (!stop) {
        try {
          lastMilestoneBeforeKill = Math.max(
            lastMilestoneBeforeKill,
            (await getJson(url, '/api/core/v2/info')).body.status.latestMilestone.index,
          );
        } catch {
          return;
        }
        await sleep(200);
      }
    })();
    // Submissions for a while, and at least a transfer confirmed and some blocks
    // acknowledged (a loaded machine takes longer to get there), then the kill with the
    // workers still submitting.
    await sleep(4000);
    await poll(
      'a confirmed transfer and acknowledged blocks',
      async () => (included.size > 1 && acknowledged.length > 20 ? true : undefined),
      40_000,
      50,
    );
    child.kill('SIGKILL');
    stop = true;
    await exited(child);
    await Promise.all([...running, watch]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  expect(included.size).toBeGreaterThan(1); // the fan-out and at least one transfer were confirmed while it ran
  expect(acknowledged.length).toBeGreaterThan(20);

  // The index survived with the ledger: restarted without a coordinator (so no milestone
  // moves the ledger meanwhile), the indexer lists exactly the unspent outputs.
  const still = await startTestNode([...flags, '--no-coordinator'], dataDir);
  try {
    const listed: string[] = [];
    let path = '/api/indexer/v1/outputs?pageSize=100';
    const ledgerIndex = (await getJson(still.url, '/api/core/v2/info')).body.status.confirmedMilestone.index;
    for (;;) {
      const { status, body } = await getJson(still.url, path);
      expect(status).toBe(200);
      expect(body.ledgerIndex).toBe(ledgerIndex);
      listed.push(...body.items);
      if (body.cursor === undefined) break;
      path = `/api/indexer/v1/outputs?cursor=${body.cursor}`;
    }
    const unspent: string[] = [];
    for (const id of outputIds) {
      const { status, body } = await getJson(still.url, `/api/core/v2/outputs/${id}/metadata`);
      if (status === 200 && !body.isSpent) unspent.push(id);
    }
    expect(listed.sort()).toEqual(unspent.sort());
  } finally {
    await still.stop();
  }

  const restarted = await startTestNode(flags, dataDir);
  const api = (path: string) => getJson(restarted.url, path);
  try {
    for (const id of acknowledged) {
      expect((await fetch(`${restarted.url}/api/core/v2/blocks/${id}`)).status, id).toBe(200);
    }
    for (const [transactionId, blockId] of included) {
      const { status, body } = await api(`/api/core/v2/transactions/${transactionId}/included-block/metadata`);
      expect(status, transactionId).toBe(200);
      expect(body.blockId).toBe(blockId);
      expect(body.ledgerInclusionState).toBe('included');
    }
    expect(await unspentSum(restarted.url, outputIds)).toBe(supply!);

    // The coordinator continues after the last persisted milestone, with the same key...
    const status = await poll('a milestone after the restart', async () => {
      const s = (await api('/api/core/v2/info')).body.status;
      return s.latestMilestone.index > lastMilestoneBeforeKill ? s : undefined;
    });
    const latest = (await api(`/api/core/v2/milestones/by-index/${status.latestMilestone.index}`)).body;
    expect(latest.signatures.map((s: { publicKey: string }) => s.publicKey)).toEqual([COORDINATOR.publicKey]);
    // ...and confirms the transfers that were acknowledged but not yet confirmed; each
    // worker's chain has at most one pending transfer, so all of them are valid.
    for (const [blockId, transactionId] of transferBlocks) {
      if (included.has(transactionId)) continue;
      const metadata = await waitForReferenced(restarted.url, blockId, 10_000);
      expect(metadata.ledgerInclusionState, transactionId).toBe('included');
    }
    expect(await unspentSum(restarted.url, outputIds)).toBe(supply!);
  } finally {
    await restarted.stop();
  }
}, 120_000);
