// The ledger over HTTP: spend the genesis output with a transaction signed by the dev
// genesis key (ledger.md §1.1) built with the package's own functions, wait for the next
// milestone, and read the inclusion back in JSON and raw form.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { core, startTestNode, type TestNode } from './node-harness';

const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
const GENESIS_OUTPUT_ID = '0x' + '00'.repeat(34);
const RECIPIENT = '0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b';
let node: TestNode;

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
});
afterAll(async () => {
  await node?.stop();
});

const api = (path: string, init?: RequestInit) => fetch(node.url + path, init);

it('spends the genesis output and reports the including block', async () => {
  const genesis = await (await api(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).json();
  expect(genesis.metadata.isSpent).toBe(false);
  const info = await (await api('/api/core/v2/info')).json();
  const essence = {
    type: 1,
    networkId: core.networkId(info.protocol.networkName),
    inputs: [{ type: 0, transactionId: '0x' + '00'.repeat(32), transactionOutputIndex: 0 }],
    inputsCommitment: core.inputsCommitment([genesis.output]),
    outputs: [{ type: 3, amount: info.protocol.tokenSupply, unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: RECIPIENT } }] }],
  };
  const placeholder = { type: 0, signature: { type: 0, publicKey: core.publicKey(GENESIS_SEED), signature: '0x' + '00'.repeat(64) } };
  const hash = core.essenceHash({ type: 6, essence, unlocks: [placeholder] });
  const payload = { type: 6, essence, unlocks: [{ type: 0, signature: { ...placeholder.signature, signature: core.sign(GENESIS_SEED, hash) } }] };
  const res = await api('/api/core/v2/blocks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ protocolVersion: 2, payload }) });
  expect(res.status).toBe(201);
  const { blockId } = await res.json();
  const transactionId = core.transactionId(payload);

  let included: Response | undefined;
  for (let i = 0; i < 50; i++) {
    included = await api(`/api/core/v2/transactions/${transactionId}/included-block`);
    if (included.status === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(included!.status).toBe(200);
  const block = await included!.json();
  expect(core.blockId(block)).toBe(blockId);
  const raw = await api(`/api/core/v2/transactions/${transactionId}/included-block`, { headers: { Accept: 'application/vnd.iota.serializer-v1' } });
  expect(core.blockId(Buffer.from(await raw.arrayBuffer()))).toBe(blockId);
  const metadata = await (await api(`/api/core/v2/transactions/${transactionId}/included-block/metadata`)).json();
  expect(metadata.blockId).toBe(blockId);
  expect(metadata.ledgerInclusionState).toBe('included');

  const spent = await (await api(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}/metadata`)).json();
  expect(spent.isSpent).toBe(true);
  expect(spent.transactionIdSpent).toBe(transactionId);
  const created = await (await api(`/api/core/v2/outputs/${core.outputId(transactionId, 0)}`)).json();
  expect(created.output.amount).toBe(info.protocol.tokenSupply);
  const changes = await (await api(`/api/core/v2/milestones/by-index/${spent.milestoneIndexSpent}/utxo-changes`)).json();
  expect(changes.consumedOutputs).toEqual([GENESIS_OUTPUT_ID]);
});
