// The event API with a client library written for Stardust nodes, unchanged: iota.js's
// `MqttClient` (@iota/mqtt.js 2.0.0-rc.3, the explorer's client). It speaks MQTT over
// WebSocket to /api/mqtt/v1, decodes raw blocks and milestone payloads with iota.js's own
// deserializers and parses the JSON topics; what it hands to its callbacks must equal what
// the REST API answers. (iota-sdk's `listenMqtt` is not in the WebAssembly build the tests
// use: it throws "Client MQTT not supported for WebAssembly bindings".)

import type { IBlock, IBlockMetadata, IMilestonePayload, IOutputResponse } from '@iota/iota.js';
import type { IMqttMilestoneResponse } from '@iota/mqtt.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsUrl } from './mqtt';
import { core, startTestNode, type TestNode } from './node-harness';
import {
  basicOutput,
  buildTransfer,
  genesisSpendable,
  getJson,
  networkIdOf,
  poll,
  submit,
  submitPayload,
  testKey,
} from './transactions';

const { MqttClient } = require('@iota/mqtt.js') as typeof import('@iota/mqtt.js');

const TAG = '0x' + Buffer.from('iota.js mqtt').toString('hex');

let node: TestNode;
let client: InstanceType<typeof MqttClient>;
/** What the client hands to the callback of each subscription recorded in `seen`. */
interface Handed {
  milestonesLatest: IMqttMilestoneResponse;
  milestonesConfirmed: IMqttMilestoneResponse;
  milestone: IMilestonePayload;
  blocksTagged: IBlock;
  blocksReferenced: IBlockMetadata;
}
type Seen<S extends keyof Handed = keyof Handed> = {
  [K in S]: { subscription: K; topic: string; data: Handed[K] };
}[S];
/** Every callback of the client, in arrival order. */
const seen: Seen[] = [];
const record =
  <S extends keyof Handed>(subscription: S) =>
  (topic: string, data: Handed[S]) =>
    seen.push({ subscription, topic, data } as Seen);
/** The first callback of `subscription` that passes `test`. */
const waitFor = <S extends keyof Handed>(subscription: S, test: (e: Seen<S>) => boolean) =>
  poll(
    subscription,
    async () => seen.find((e) => e.subscription === subscription && test(e as Seen<S>)) as Seen<S> | undefined,
    15_000,
    20,
  );
/** The JSON of a value as iota.js hands it over (bigints as strings, typed arrays as hex). */
const plain = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (_, v) =>
      typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? '0x' + Buffer.from(v).toString('hex') : v,
    ),
  );

beforeAll(async () => {
  node = await startTestNode(['--milestone-interval', '1']);
  client = new MqttClient(eventsUrl(node.url));
  const connected = new Promise<void>((resolve) =>
    client.statusChanged((status) => {
      if (status.type === 'connect') resolve();
    }),
  );
  client.milestonesLatest(record('milestonesLatest'));
  client.milestonesConfirmed(record('milestonesConfirmed'));
  client.milestone(record('milestone'));
  client.blocksTagged(TAG, record('blocksTagged'));
  client.blocksReferenced(record('blocksReferenced'));
  await connected;
});

afterAll(async () => {
  client?.statusChanged(() => undefined);
  // The client reconnects on its own; dropping its subscriptions lets it close.
  (client as unknown as { mqttDisconnect?: () => void } | undefined)?.mqttDisconnect?.();
  await node?.stop();
});

describe('iota.js MqttClient against the node', () => {
  it('gets latest and confirmed milestones, and milestone payloads equal to the REST ones', async () => {
    const latest = await waitFor('milestonesLatest', (e) => e.subscription === 'milestonesLatest');
    expect(latest.topic).toBe('milestone-info/latest');
    expect(Object.keys(latest.data).sort()).toEqual(['index', 'milestoneId', 'timestamp']);
    const confirmed = await waitFor(
      'milestonesConfirmed',
      (e) => e.subscription === 'milestonesConfirmed' && e.data.index > 1,
    );
    const rest = (await getJson(node.url, `/api/core/v2/milestones/by-index/${confirmed.data.index}`)).body;
    expect(confirmed.data.milestoneId).toBe(core.milestoneId(rest));
    expect(confirmed.data.timestamp).toBe(rest.timestamp);

    const payload = await waitFor(
      'milestone',
      (e) => e.subscription === 'milestone' && e.data.index === confirmed.data.index,
    );
    expect(payload.topic).toBe('milestones');
    // iota.js's decoder always sets the optional fields, empty ones included.
    expect(payload.data).toMatchObject({ metadata: '0x', options: [] });
    const { metadata: _m, options: _o, ...decoded } = plain(payload.data);
    expect(decoded).toEqual(rest);
  });

  it('decodes a tagged-data block equal to the REST block, and sees it referenced', async () => {
    const blockId = await submitPayload(node.url, { type: 5, tag: TAG, data: '0xc0ffee' });
    const tagged = await waitFor(
      'blocksTagged',
      (e) => e.subscription === 'blocksTagged' && e.data.payload?.type === 5 && e.data.payload.tag === TAG,
    );
    expect(tagged.topic).toBe(`blocks/tagged-data/${TAG}`);
    const rest = (await getJson(node.url, `/api/core/v2/blocks/${blockId}`)).body;
    expect(plain(tagged.data)).toEqual(rest);

    const metadata: { topic: string; data: IBlockMetadata }[] = [];
    client.blocksMetadata(blockId, (topic, data) => metadata.push({ topic, data }));
    const referenced = await poll(
      'referenced metadata',
      async () => metadata.find((m) => m.data.referencedByMilestoneIndex !== undefined),
      15_000,
      20,
    );
    expect(referenced.topic).toBe(`block-metadata/${blockId}`);
    // The event carries the parents twice, as `parents` and `parentBlockIds` (events.md §4).
    const restMetadata = (await getJson(node.url, `/api/core/v2/blocks/${blockId}/metadata`)).body;
    expect(referenced.data).toEqual({ ...restMetadata, parentBlockIds: restMetadata.parents });
  });

  it('follows a transfer: its outputs by id and by address, and its included block', async () => {
    const alice = testKey('iota.js alice');
    const genesis = await genesisSpendable(node.url);
    const total = BigInt(genesis.output.amount);
    const transfer = buildTransfer(
      await networkIdOf(node.url),
      [genesis],
      [
        { to: alice, amount: 1_000_000n },
        { to: genesis.key, amount: total - 1_000_000n },
      ],
    );
    const aliceOutput = transfer.outputs[0].outputId;
    const bech32 = core.bech32Encode('tst', { type: 0, pubKeyHash: alice.address }) as string;
    const byId: IOutputResponse[] = [];
    const byAddress: IOutputResponse[] = [];
    const included: IBlock[] = [];
    client.output(aliceOutput, (_, data) => byId.push(data));
    client.outputByConditionAndAddress('address', bech32, (_, data) => byAddress.push(data));
    client.transactionIncludedBlock(transfer.transactionId, (_, data) => included.push(data));
    // Subscriptions are sent as the client is told of them, in order on one connection, and
    // the node answers a subscription to an output with its current state: once that state
    // of a fourth subscription is here, the node has taken the three before it.
    const taken = await new Promise<string>((resolve) => {
      const id = client.output(genesis.outputId, () => resolve(id));
    });
    client.unsubscribe(taken);

    const blockId = await submit(node.url, { protocolVersion: 2, payload: transfer.payload });
    const [block] = await poll('included block', async () => (included.length > 0 ? included : undefined), 15_000, 20);
    expect(plain(block)).toEqual((await getJson(node.url, `/api/core/v2/blocks/${blockId}`)).body);

    const [output] = await poll('output by id', async () => (byId.length > 0 ? byId : undefined), 15_000, 20);
    const rest = (await getJson(node.url, `/api/core/v2/outputs/${aliceOutput}`)).body;
    expect(output.metadata.ledgerIndex).toBeGreaterThanOrEqual(rest.metadata.milestoneIndexBooked);
    expect(plain({ ...output, metadata: { ...output.metadata, ledgerIndex: 0 } })).toEqual({
      ...rest,
      metadata: { ...rest.metadata, ledgerIndex: 0 },
    });
    expect(output.output).toEqual(basicOutput(alice.address, 1_000_000n));

    const [sameOutput] = await poll(
      'output by address',
      async () => (byAddress.length > 0 ? byAddress : undefined),
      15_000,
      20,
    );
    expect(sameOutput.metadata).toMatchObject({ transactionId: transfer.transactionId, outputIndex: 0 });
    expect(sameOutput.output).toEqual(output.output);
  });
});
