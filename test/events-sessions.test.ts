// Event API connections against a real node (events.md §1–§2): the WebSocket handshake
// and its subprotocol, routing of other upgrade requests, sessions (CONNECT rules, client
// ID take-over, keep-alive, clean session forced), client PUBLISH acknowledged and never
// delivered (D38), and malformed input: every violation closes that connection, never
// the node.

import { generate } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { RawClient, Recorder, upgradeAnswer } from './e2e/mqtt';
import { useTestNode } from './e2e/node-harness';
import { sleep, submitPayload } from './e2e/transactions';

const node = useTestNode(['--milestone-interval', '1']);

/** The node still serves HTTP and new event clients. */
async function nodeIsFine(): Promise<void> {
  expect((await fetch(`${node.url}/health`)).status).toBe(200);
  const client = await RawClient.open(node.url);
  await client.connect();
  client.close();
}

describe('handshake and routing (§1)', () => {
  it('selects mqtt, else mqttv3.1, never a protocol the client did not offer', async () => {
    expect(await upgradeAnswer(node.url, '/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'mqttv3.1, mqtt' })).toMatchObject(
      {
        status: 101,
        protocol: 'mqtt',
      },
    );
    expect(
      await upgradeAnswer(node.url, '/api/mqtt/v1?client=x', { 'Sec-WebSocket-Protocol': 'mqttv3.1' }),
    ).toMatchObject({
      status: 101,
      protocol: 'mqttv3.1',
    });
    expect(await upgradeAnswer(node.url, '/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'graphql-ws' })).toMatchObject({
      status: 101,
      protocol: undefined,
    });
    expect(await upgradeAnswer(node.url, '/api/mqtt/v1')).toMatchObject({ status: 101, protocol: undefined });
  });

  it('answers other paths as plain requests, without upgrading', async () => {
    const info = await upgradeAnswer(node.url, '/api/core/v2/info');
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body).protocol.bech32Hrp).toBe('tst');
    const unknown = await upgradeAnswer(node.url, '/api/mqtt/v2');
    expect(unknown.status).toBe(403);
    expect(JSON.parse(unknown.body)).toEqual({ error: { code: '403', message: 'not available for public use' } });
  });

  it('is a route: 400 without the upgrade, 405 for other methods, listed in /api/routes', async () => {
    const res = await fetch(`${node.url}/api/mqtt/v1`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: '400', message: 'invalid data provided: WebSocket upgrade expected' },
    });
    expect((await fetch(`${node.url}/api/mqtt/v1`, { method: 'POST' })).status).toBe(405);
    expect(await (await fetch(`${node.url}/api/routes`)).json()).toEqual({
      routes: ['core/v2', 'indexer/v1', 'mqtt/v1', 'dashboard-metrics/v1', 'faucet/v1'],
    });
  });
});

describe('sessions (§2)', () => {
  it('accepts any client ID and forces a clean session', async () => {
    const anonymous = await RawClient.open(node.url);
    anonymous.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: '', keepalive: 0 });
    expect(await anonymous.waitFor('CONNACK', (p) => p.cmd === 'connack')).toMatchObject({
      returnCode: 0,
      sessionPresent: false,
    });
    anonymous.close();
    // A persistent session asked for, with will and credentials: none of it is kept.
    for (let round = 0; round < 2; round++) {
      const raw = await RawClient.open(node.url);
      raw.send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: false,
        clientId: 'persistent',
        keepalive: 0,
        username: 'ignored',
        password: Buffer.from('ignored'),
        will: { topic: 'blocks', payload: Buffer.from('x'), qos: 1, retain: true },
      });
      expect(await raw.waitFor('CONNACK', (p) => p.cmd === 'connack')).toMatchObject({
        returnCode: 0,
        sessionPresent: false,
      });
      if (round === 0) {
        raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'milestone-info/latest', qos: 1 }] });
        await raw.waitFor('a milestone', (p) => p.cmd === 'publish');
      } else {
        // The first connection's subscription did not survive it (a milestone comes every second).
        await sleep(1_500);
        expect(raw.packets.filter((p) => p.cmd === 'publish')).toEqual([]);
      }
      raw.close();
    }
  });

  it('accepts MQTT 3.1 (MQIsdp, level 3)', async () => {
    const raw = await RawClient.open(node.url, ['mqttv3.1']);
    raw.send({
      cmd: 'connect',
      protocolId: 'MQIsdp',
      protocolVersion: 3,
      clean: true,
      clientId: 'old-client',
      keepalive: 0,
    });
    expect(await raw.waitFor('CONNACK', (p) => p.cmd === 'connack')).toMatchObject({ returnCode: 0 });
    raw.close();
  });

  it('refuses other protocol levels and names with CONNACK 1, then closes', async () => {
    const v5 = await RawClient.open(node.url);
    v5.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clean: true, clientId: 'v5', keepalive: 0 });
    await v5.expectClosed();
    expect(v5.packets).toMatchObject([{ cmd: 'connack', returnCode: 1 }]);
    const mixed = await RawClient.open(node.url);
    mixed.send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 3,
      clean: true,
      clientId: 'mixed',
      keepalive: 0,
    });
    await mixed.expectClosed();
    expect(mixed.packets).toMatchObject([{ cmd: 'connack', returnCode: 1 }]);
    // A protocol name mqtt-packet refuses while parsing: the same answer.
    const named = await RawClient.open(node.url);
    const packet = generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: 'named',
      keepalive: 0,
    });
    packet.write('MQTX', 4);
    named.sendBytes(packet);
    await named.expectClosed();
    expect(named.packets).toMatchObject([{ cmd: 'connack', returnCode: 1 }]);
    await nodeIsFine();
  });

  it('lets a new connection take over a client ID; the old one closing leaves the new one alone', async () => {
    // The iota-sdk's probe-then-keep pattern (events.md §8).
    const probe = await Recorder.connect(node.url, { clientId: 'iotasdk0123456789abcdef' });
    const probeClosed = new Promise<void>((r) => probe.client.once('close', () => r()));
    const kept = await Recorder.connect(node.url, { clientId: 'iotasdk0123456789abcdef' });
    await probeClosed;
    await kept.subscribe(['blocks/tagged-data']);
    await sleep(100);
    await submitPayload(node.url, { type: 5, tag: '0x01', data: '0x' });
    await kept.waitFor('a block after the take-over', (m) => (m.length > 0 ? true : undefined));
    await kept.end();
  });

  it('unsubscribing stops delivery', async () => {
    const client = await Recorder.connect(node.url);
    await client.subscribe(['milestone-info/latest']);
    await client.waitFor('a milestone', (m) => (m.length >= 2 ? true : undefined));
    await client.unsubscribe(['milestone-info/latest']);
    const count = client.messages.length;
    await sleep(2_200);
    expect(client.messages.length).toBe(count);
    await client.end();
  });

  it('closes after 1.5 × keep-alive without a packet; PINGREQ keeps it open', async () => {
    const quiet = await RawClient.open(node.url);
    // Taken before the CONNECT leaves: the node's keep-alive clock starts when it arrives,
    // however long the steps after it take.
    const start = Date.now();
    await quiet.connect('quiet', 1);
    const pinging = await RawClient.open(node.url);
    await pinging.connect('pinging', 1);
    const pings = setInterval(() => pinging.send({ cmd: 'pingreq' }), 400);
    try {
      const { at } = await quiet.expectClosed(10_000);
      expect(at - start).toBeGreaterThanOrEqual(1_400);
      // Four PINGREQs answered: 1.6 s of pings, more than a silent client is kept.
      const deadline = Date.now() + 10_000;
      while (pinging.packets.filter((p) => p.cmd === 'pingresp').length < 4 && Date.now() < deadline) await sleep(50);
      expect(pinging.packets.filter((p) => p.cmd === 'pingresp').length).toBeGreaterThan(3);
      expect(pinging.ws.readyState).toBe(pinging.ws.OPEN);
    } finally {
      clearInterval(pings);
      pinging.close();
    }
  });

  it('closes a connection that sends no CONNECT within 10 s', async () => {
    const idle = await RawClient.open(node.url);
    const { at } = await idle.expectClosed(25_000);
    expect(at).toBeGreaterThan(Date.now() - 3_000);
  }, 40_000);
});

describe('client PUBLISH (D38)', () => {
  it('is acknowledged per QoS and never delivered', async () => {
    const listener = await Recorder.connect(node.url);
    await listener.subscribe(['fake/#', 'blocks']);
    const raw = await RawClient.open(node.url);
    await raw.connect('publisher');
    raw.send({ cmd: 'publish', topic: 'fake/topic', payload: Buffer.from('0'), qos: 0, dup: false, retain: true });
    raw.send({
      cmd: 'publish',
      topic: 'blocks',
      payload: Buffer.from('1'),
      qos: 1,
      messageId: 7,
      dup: false,
      retain: false,
    });
    raw.send({
      cmd: 'publish',
      topic: 'fake/topic',
      payload: Buffer.from('2'),
      qos: 2,
      messageId: 8,
      dup: false,
      retain: false,
    });
    await raw.waitFor('PUBACK', (p) => p.cmd === 'puback' && p.messageId === 7);
    await raw.waitFor('PUBREC', (p) => p.cmd === 'pubrec' && p.messageId === 8);
    raw.send({ cmd: 'pubrel', messageId: 8 });
    await raw.waitFor('PUBCOMP', (p) => p.cmd === 'pubcomp' && p.messageId === 8);
    await sleep(200);
    expect(listener.messages.filter((m) => m.topic.startsWith('fake') || m.payload.length === 1)).toEqual([]);
    // A retained message would reach a new subscriber: nothing is retained.
    const late = await Recorder.connect(node.url);
    await late.subscribe(['fake/#']);
    await sleep(200);
    expect(late.messages).toEqual([]);
    raw.close();
    await Promise.all([listener.end(), late.end()]);
  });
});

describe('malformed input closes the connection, never the node', () => {
  const cases: [string, (c: RawClient) => void][] = [
    [
      'a first packet other than CONNECT',
      (c) => c.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'blocks', qos: 0 }] }),
    ],
    ['bytes that are no MQTT packet', (c) => c.sendBytes(Buffer.from([0xf0, 0x00]))],
    [
      'a reserved flag set in CONNECT',
      (c) => {
        const p = generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          clientId: 'x',
          keepalive: 0,
        });
        p[9] |= 1;
        c.sendBytes(p);
      },
    ],
    ['a text frame', (c) => c.sendBytes('{"cmd":"connect"}')],
  ];
  for (const [what, send] of cases) {
    it(what, async () => {
      const client = await RawClient.open(node.url);
      send(client);
      await client.expectClosed();
      expect(client.packets.filter((p) => p.cmd !== 'connack')).toEqual([]);
    });
  }

  const afterConnect: [string, (c: RawClient) => void][] = [
    [
      'a second CONNECT',
      (c) =>
        c.send({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          clientId: 'again',
          keepalive: 0,
        }),
    ],
    ['a packet only servers send', (c) => c.send({ cmd: 'suback', messageId: 1, granted: [0] })],
    [
      'a PUBLISH to a topic with a wildcard',
      (c) => c.send({ cmd: 'publish', topic: 'blocks/#', payload: Buffer.alloc(0), qos: 0, dup: false, retain: false }),
    ],
    [
      'a SUBSCRIBE with QoS 3',
      (c) => {
        const p = generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'blocks', qos: 0 }] });
        p[p.length - 1] = 3;
        c.sendBytes(p);
      },
    ],
    [
      'a packet larger than 128 KiB',
      (c) =>
        c.send({ cmd: 'publish', topic: 'big', payload: Buffer.alloc(140_000), qos: 0, dup: false, retain: false }),
    ],
    [
      'a declared length larger than 128 KiB sent in pieces',
      (c) => {
        const p = generate({
          cmd: 'publish',
          topic: 'big',
          payload: Buffer.alloc(200_000),
          qos: 0,
          dup: false,
          retain: false,
        });
        for (let at = 0; at < p.length; at += 16_384) c.sendBytes(p.subarray(at, at + 16_384));
      },
    ],
  ];
  for (const [what, send] of afterConnect) {
    it(`after CONNECT: ${what}`, async () => {
      const client = await RawClient.open(node.url);
      await client.connect();
      send(client);
      await client.expectClosed();
    });
  }

  it('an invalid filter is refused alone (0x80), the others granted', async () => {
    const client = await RawClient.open(node.url);
    await client.connect();
    client.send({
      cmd: 'subscribe',
      messageId: 3,
      subscriptions: [
        { topic: 'blocks', qos: 1 },
        { topic: 'blocks/#/x', qos: 0 },
        { topic: 'a+', qos: 2 },
        { topic: 'receipts', qos: 2 },
      ],
    });
    expect(await client.waitFor('SUBACK', (p) => p.cmd === 'suback')).toMatchObject({
      messageId: 3,
      granted: [1, 128, 128, 2],
    });
    client.close();
    await nodeIsFine();
  });
});

describe('shutdown', () => {
  it('closes event connections and stops', async () => {
    const client = await RawClient.open(node.url);
    await client.connect('until-shutdown');
    await node.stop();
    await client.expectClosed();
  });
});
