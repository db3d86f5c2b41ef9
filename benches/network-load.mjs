// bench:network's load: tagged-data blocks and value transfers posted at the submitters,
// round robin, at --rate by the clock, each submission kept as a record (phase, node, sent,
// answered, block id) for the figures; and the fan-out of the genesis output into the
// transfers' pool. A transfer's output is spent again only once the coordinator's milestone
// confirmed it, so that no submission spends an output the network does not know yet.

import { benchKey, core, GENESIS_OUTPUT_ID, genesisKey, sleep, split, transfer } from './ledger-load.mjs';
import { info } from './network-nodes.mjs';
import { MAX_IN_FLIGHT, now, RATE, random, TAG, TRANSFER_SHARE } from './network-options.mjs';

export class Load {
  constructor(coordinator, submitters, networkId, outputs) {
    this.coordinator = coordinator;
    this.submitters = submitters;
    this.networkId = networkId;
    this.spendable = [...outputs];
    /** transaction ID → the output its confirmation frees. */
    this.pending = new Map();
    this.records = [];
    this.confirmedTransfers = [];
    this.phase = 'start';
    this.inFlight = 0;
    this.skipped = 0;
    this.next = 0;
    this.running = false;
  }

  start() {
    this.running = true;
    this.loop = (async () => {
      // By the clock, not by the slices: a late timer (a loaded machine) does not lower the rate.
      const start = now();
      let issued = 0;
      while (this.running) {
        const due = Math.floor(((now() - start) / 1000) * RATE);
        for (; issued < due; issued++) {
          if (this.inFlight >= MAX_IN_FLIGHT) this.skipped++;
          else this.submitOne();
        }
        await sleep(100);
      }
    })();
    this.watch = (async () => {
      let confirmed = (await info(this.coordinator)).confirmedMilestone.index;
      while (this.running) {
        try {
          const latest = (await info(this.coordinator)).confirmedMilestone.index;
          for (let index = confirmed + 1; index <= latest; index++) {
            const changes = await this.coordinator.http.getJson(
              `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
            );
            for (const outputId of changes.createdOutputs) {
              const made = this.pending.get(outputId.slice(0, 66));
              if (made === undefined) continue;
              this.pending.delete(outputId.slice(0, 66));
              this.spendable.push(made);
              this.confirmedTransfers.push(outputId.slice(0, 66));
            }
          }
          confirmed = latest;
        } catch {
          // the coordinator is busy: next round
        }
        await sleep(500);
      }
    })();
  }

  async stop() {
    this.running = false;
    await this.loop;
    await this.watch;
    while (this.inFlight > 0) await sleep(50);
  }

  submitOne() {
    const live = this.submitters.filter((n) => n.up);
    if (live.length === 0) return void this.skipped++;
    const node = live[this.next++ % live.length];
    const record = { node: node.index, phase: this.phase, minority: node.minority === true, sentAt: now() };
    let body;
    if (random() < TRANSFER_SHARE && this.spendable.length > 0) {
      const input = this.spendable.shift();
      const t = transfer(this.networkId, input, benchKey, [BigInt(input.output.amount)]);
      this.pending.set(t.transactionId, t.outputs[0]);
      record.transactionId = t.transactionId;
      body = { protocolVersion: 2, payload: t.payload };
    } else {
      const data = `bench:network ${this.records.length} at ${Date.now()}`;
      body = { protocolVersion: 2, payload: { type: 5, tag: TAG, data: '0x' + Buffer.from(data).toString('hex') } };
    }
    this.records.push(record);
    this.inFlight++;
    node.http
      .http('POST', '/api/core/v2/blocks', Buffer.from(JSON.stringify(body)))
      .then(({ status, text }) => {
        record.status = status;
        record.ackAt = now();
        if (status === 201) record.blockId = JSON.parse(text).blockId;
        else record.error = text.slice(0, 200);
      })
      .catch((err) => {
        record.status = 0;
        record.error = err.message;
      })
      .finally(() => this.inFlight--);
  }
}

/** Genesis → 128 outputs (→ k each when more are needed): the transfers' pool. */
export async function fanOut(coordinator, size) {
  const { protocol } = await coordinator.http.getJson('/api/core/v2/info');
  const networkId = core.networkId(protocol.networkName);
  const genesis = {
    outputId: GENESIS_OUTPUT_ID,
    output: (await coordinator.http.getJson(`/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`)).output,
  };
  const first = transfer(networkId, genesis, genesisKey, split(BigInt(protocol.tokenSupply), 128));
  await coordinator.http.fanOut([first], 'fan-out 1');
  let outputs = first.outputs;
  const each = Math.ceil(size / 128);
  if (each > 1) {
    const second = outputs.map((o) => transfer(networkId, o, benchKey, split(BigInt(o.output.amount), each)));
    await coordinator.http.fanOut(second, 'fan-out 2');
    outputs = second.flatMap((t) => t.outputs);
  }
  return { networkId, outputs };
}
