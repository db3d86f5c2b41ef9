// The event API's own logic without a node: topic filter syntax, matching (standard MQTT
// rules plus the literal outputs/unlock/+ rule of D35) against a reference matcher over
// random filters and topics, the fanout's grouping, de-duplication and ordering, and the
// D36 metadata object.

import fc from 'fast-check';
import { parser, type IPublishPacket } from 'mqtt-packet';
import { describe, expect, it, vi } from 'vitest';
import * as ws from 'ws';
import { Fanout, type Receiver } from '../src/events/fanout';
import { blockMetadataEventJson, milestoneInfoJson } from '../src/events/publish';
import { binaryFrame } from '../src/events/session';
import { FilterIndex, isLiteralUnlockFilter, isValidFilter, topics } from '../src/events/topics';

// ws's frame parser (exported by ws, not in its type definitions).
const { Receiver: FrameReceiver } = ws as unknown as {
  Receiver: new (options: object) => NodeJS.WritableStream & NodeJS.EventEmitter;
};

describe('topic filters', () => {
  it('follow MQTT 3.1.1 §4.7 syntax', () => {
    for (const ok of ['blocks', '#', '+', 'blocks/#', 'outputs/+/x', '+/+/#', 'a//b', '/'])
      expect(isValidFilter(ok), ok).toBe(true);
    for (const bad of ['', 'blocks#', 'blocks/#/x', 'a/b+', '#/a', 'a/+b/c', 'x\u0000y'])
      expect(isValidFilter(bad), bad).toBe(false);
  });

  it('recognise the literal-+ unlock filters of D35 and nothing else', () => {
    expect(isLiteralUnlockFilter('outputs/unlock/+/tst1qq')).toBe(true);
    expect(isLiteralUnlockFilter('outputs/unlock/+/tst1qq/spent')).toBe(true);
    expect(isLiteralUnlockFilter('outputs/unlock/+/+')).toBe(false);
    expect(isLiteralUnlockFilter('outputs/unlock/+/#')).toBe(false);
    expect(isLiteralUnlockFilter('outputs/unlock/address/tst1qq')).toBe(false);
    expect(isLiteralUnlockFilter('outputs/unlock/+/tst1qq/other')).toBe(false);
  });

  it('topic templates', () => {
    expect(topics.unlock('+', 'tst1x', true)).toBe('outputs/unlock/+/tst1x/spent');
    expect(topics.includedBlock('0xab')).toBe('transactions/0xab/included-block');
    expect(topics.chain('nft', '0x01')).toBe('outputs/nft/0x01');
  });
});

/** Standard MQTT matching, except that a literal-+ unlock filter matches only its own string. */
function reference(filter: string, topic: string): boolean {
  if (isLiteralUnlockFilter(filter)) return filter === topic;
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

const matches = (index: FilterIndex<string>, topic: string) => {
  const found = new Set<string>();
  index.match(topic, (h) => found.add(h));
  return found;
};

describe('FilterIndex', () => {
  it('matches as MQTT does, with the D35 exception', () => {
    const index = new FilterIndex<string>();
    const filters = [
      'blocks',
      'blocks/#',
      '#',
      'blocks/+',
      'outputs/unlock/+/A',
      'outputs/unlock/+/+',
      'outputs/unlock/address/A',
      'outputs/#',
      'outputs/unlock/+/A/spent',
    ];
    for (const f of filters) index.add(f, f);
    expect(matches(index, 'blocks')).toEqual(new Set(['blocks', 'blocks/#', '#']));
    expect(matches(index, 'blocks/transaction')).toEqual(new Set(['blocks/#', '#', 'blocks/+']));
    // Per-condition topic: not for the exact literal filter.
    expect(matches(index, 'outputs/unlock/address/A')).toEqual(
      new Set(['#', 'outputs/unlock/+/+', 'outputs/unlock/address/A', 'outputs/#']),
    );
    // The literal topic: its filter, and the wildcards matching `+` as any level value.
    expect(matches(index, 'outputs/unlock/+/A')).toEqual(
      new Set(['#', 'outputs/unlock/+/A', 'outputs/unlock/+/+', 'outputs/#']),
    );
    expect(matches(index, 'outputs/unlock/+/A/spent')).toEqual(new Set(['#', 'outputs/unlock/+/A/spent', 'outputs/#']));
    for (const f of filters) index.remove(f, f);
    expect(matches(index, 'blocks').size).toBe(0);
    expect(matches(index, 'outputs/unlock/+/A').size).toBe(0);
  });

  it('agrees with the reference matcher on random filters and topics', () => {
    const level = fc.constantFrom('outputs', 'unlock', 'blocks', 'a', 'b', '+', 'spent', '');
    const topicLevel = fc.constantFrom('outputs', 'unlock', 'blocks', 'a', 'b', '+', 'spent', '');
    const filter = fc
      .tuple(fc.array(level, { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([levels, hash]) => (hash ? [...levels.slice(0, -1), '#'] : levels).join('/'))
      .filter(isValidFilter);
    const topic = fc.array(topicLevel, { minLength: 1, maxLength: 6 }).map((l) => l.join('/'));
    fc.assert(
      fc.property(
        fc.uniqueArray(filter, { maxLength: 12 }),
        fc.array(topic, { maxLength: 12 }),
        fc.integer({ min: 0, max: 12 }),
        (filters, topicList, removeCount) => {
          const index = new FilterIndex<string>();
          for (const f of filters) index.add(f, f);
          // Removing some filters must leave exactly the others.
          const removed = new Set(filters.slice(0, removeCount));
          for (const f of removed) index.remove(f, f);
          for (const t of topicList) {
            const expected = new Set(filters.filter((f) => !removed.has(f) && reference(f, t)));
            expect(matches(index, t)).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

class Recorder implements Receiver {
  frames: Buffer[] = [];
  write(bytes: Buffer): void {
    this.frames.push(bytes);
  }
  /** The PUBLISH packets in the frames, decoded with mqtt-packet. */
  messages(): { topic: string; payload: string }[] {
    const out: { topic: string; payload: string }[] = [];
    const p = parser({ protocolVersion: 4 });
    p.on('packet', (packet) =>
      out.push({ topic: (packet as IPublishPacket).topic, payload: String((packet as IPublishPacket).payload) }),
    );
    for (const f of this.frames) p.parse(f);
    return out;
  }
}

describe('Fanout', () => {
  it('delivers once per receiver, in publication order, to groups of equal filter sets', () => {
    const fanout = new Fanout<Recorder>();
    const [a, b, c] = [new Recorder(), new Recorder(), new Recorder()];
    fanout.setFilters(a, ['blocks', '#', 'blocks/+']);
    fanout.setFilters(b, ['#', 'blocks', 'blocks/+']);
    fanout.setFilters(c, ['milestones']);
    expect(fanout.groupCount).toBe(2);
    let built = 0;
    const payload = (text: string) => () => {
      built++;
      return text;
    };
    expect(fanout.publish('blocks', payload('1'))).toBe(true);
    expect(fanout.publish('blocks/transaction', payload('2'))).toBe(true);
    expect(fanout.publish('milestones', payload('3'))).toBe(true);
    expect(fanout.publish('receipts/x', payload('4'))).toBe(true);
    // c leaves without a flush first: what was queued for it goes with its group.
    fanout.setFilters(c, []);
    expect(fanout.publish('milestones-other', payload('5'))).toBe(true);
    // a leaves the group it shares with b: b still gets everything.
    fanout.remove(a);
    fanout.writeAllNow();
    expect(a.frames).toEqual([]);
    expect(b.frames.length).toBe(1);
    expect(b.messages().map((m) => m.topic)).toEqual([
      'blocks',
      'blocks/transaction',
      'milestones',
      'receipts/x',
      'milestones-other',
    ]);
    expect(c.messages()).toEqual([]);
    fanout.setFilters(b, []);
    expect(fanout.publish('blocks', payload('nobody'))).toBe(false);
    expect(built).toBe(5);
    expect(fanout.groupCount).toBe(0);
  });

  it('flushes before a receiver changes filters, so nothing queued is lost', () => {
    const fanout = new Fanout<Recorder>();
    const a = new Recorder();
    fanout.setFilters(a, ['blocks']);
    fanout.publish('blocks', () => 'first');
    fanout.beforeChange();
    fanout.setFilters(a, ['blocks', 'milestones']);
    fanout.publish('milestones', () => 'second');
    fanout.writeAllNow();
    expect(a.messages()).toEqual([
      { topic: 'blocks', payload: 'first' },
      { topic: 'milestones', payload: 'second' },
    ]);
    fanout.stop();
  });

  it('writes a large flush in slices, each receiver in publication order', async () => {
    class Slow extends Recorder {
      write(bytes: Buffer): void {
        const until = performance.now() + 0.01;
        while (performance.now() < until);
        super.write(bytes);
      }
    }
    const fanout = new Fanout<Slow>();
    const receivers = Array.from({ length: 2000 }, () => new Slow());
    for (const r of receivers) fanout.setFilters(r, ['blocks']);
    fanout.publish('blocks', () => 'm1');
    // The event loop gets turns while the first flush is written.
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    while (receivers[receivers.length - 1].frames.length === 0) await new Promise((r) => setImmediate(r));
    fanout.publish('blocks', () => 'm2');
    fanout.publish('blocks', () => 'm3');
    await new Promise((r) => setTimeout(r, 5));
    // A subscription change mid-delivery completes everything queued first.
    fanout.beforeChange();
    clearInterval(counting);
    expect(turns).toBeGreaterThan(2);
    for (const r of receivers) expect(r.messages().map((m) => m.payload)).toEqual(['m1', 'm2', 'm3']);
    fanout.stop();
  });

  it('waits longer between flushes the more writes the last one made, within its bounds', () => {
    // Fake clocks: the flushes' own duration is zero, so only the write budget sets the wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    try {
      const options = { minWaitMs: 20, maxWaitMs: 40, writesPerSecond: 25_000 };
      /** Milliseconds from a first flush to the second one, with `count` receivers. */
      const gap = (count: number): number => {
        const fanout = new Fanout<Recorder>(options);
        const receivers = Array.from({ length: count }, () => new Recorder());
        for (const r of receivers) fanout.setFilters(r, ['blocks']);
        const last = receivers[count - 1];
        fanout.publish('blocks', () => 'first');
        vi.advanceTimersToNextTimer();
        expect(last.frames.length).toBe(1);
        const firstAt = performance.now();
        fanout.publish('blocks', () => 'second');
        while (last.frames.length === 1) vi.advanceTimersByTime(1);
        fanout.stop();
        return Math.round(performance.now() - firstAt);
      };
      expect(gap(10)).toBe(20); // 10 writes: the minimum
      expect(gap(750)).toBe(30); // 750 writes at 25,000 a second
      expect(gap(5000)).toBe(40); // capped: a message never waits longer
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes one frame per flush, split only past 256 KiB', () => {
    const fanout = new Fanout<Recorder>();
    const a = new Recorder();
    fanout.setFilters(a, ['#']);
    for (let i = 0; i < 10; i++) fanout.publish('blocks', () => Buffer.alloc(1000, i));
    fanout.writeAllNow();
    expect(a.frames.length).toBe(1);
    for (let i = 0; i < 10; i++) fanout.publish('blocks', () => Buffer.alloc(100_000, i));
    fanout.writeAllNow();
    expect(a.frames.length).toBe(1 + 5);
    expect(a.messages().length).toBe(20);
    fanout.stop();
  });
});

describe('the fanout over WebSocket frames', () => {
  it("wraps a group's flush once and writes the same frame to every client of the group", () => {
    let wrapped = 0;
    const fanout = new Fanout<Recorder>({
      frame: (packets) => {
        wrapped++;
        return binaryFrame(packets);
      },
    });
    const [a, b, c] = [new Recorder(), new Recorder(), new Recorder()];
    fanout.setFilters(a, ['blocks']);
    fanout.setFilters(b, ['blocks']);
    fanout.setFilters(c, ['blocks', 'milestones']);
    for (let i = 0; i < 3; i++) fanout.publish('blocks', () => `m${i}`);
    fanout.writeAllNow();
    expect(wrapped).toBe(2);
    expect(a.frames.length).toBe(1);
    expect(b.frames[0]).toBe(a.frames[0]);
    expect(c.frames[0]).not.toBe(a.frames[0]);
    expect(c.frames[0].equals(a.frames[0])).toBe(true);
    fanout.stop();
  });

  it('builds binary frames that ws reads back, in each of the three length encodings', async () => {
    for (const size of [0, 125, 126, 65_535, 65_536, 300_000]) {
      const payload = Buffer.alloc(size, size & 0xff);
      const frame = binaryFrame(payload);
      expect(frame.length).toBe(size + (size < 126 ? 2 : size < 65_536 ? 4 : 10));
      // ws's own parser, as a client reads frames from a server.
      const receiver = new FrameReceiver({ isServer: false, maxPayload: 0 });
      const got = new Promise<{ data: Buffer; isBinary: boolean }>((resolve, reject) => {
        receiver.on('message', (data: Buffer, isBinary: boolean) => resolve({ data, isBinary }));
        receiver.on('error', reject);
      });
      receiver.write(frame);
      const { data, isBinary } = await got;
      expect(isBinary).toBe(true);
      expect(data.equals(payload)).toBe(true);
    }
  });
});

describe('payload objects', () => {
  it('block metadata carries the parents twice (D36)', () => {
    const rest = '{"blockId":"0x01","parents":["0x02","0x03"],"isSolid":true,"whiteFlagIndex":2}';
    expect(blockMetadataEventJson(rest)).toBe(
      '{"blockId":"0x01","parents":["0x02","0x03"],"parentBlockIds":["0x02","0x03"],"isSolid":true,"whiteFlagIndex":2}',
    );
  });
  it("a milestone's block has its milestoneIndex once referenced, as inx-mqtt sends it", () => {
    const unreferenced =
      '{"blockId":"0x01","parents":["0x02"],"isSolid":true,"milestoneIndex":7,"shouldPromote":false}';
    expect(blockMetadataEventJson(unreferenced)).toBe(
      '{"blockId":"0x01","parents":["0x02"],"parentBlockIds":["0x02"],"isSolid":true,"shouldPromote":false}',
    );
    const referenced =
      '{"blockId":"0x01","parents":["0x02"],"isSolid":true,"referencedByMilestoneIndex":7,"milestoneIndex":7,"whiteFlagIndex":0}';
    expect(blockMetadataEventJson(referenced)).toBe(
      '{"blockId":"0x01","parents":["0x02"],"parentBlockIds":["0x02"],"isSolid":true,"referencedByMilestoneIndex":7,"milestoneIndex":7,"whiteFlagIndex":0}',
    );
  });
  it('milestone info has the keys of inx-mqtt (§3.1)', () => {
    expect(milestoneInfoJson(2, 1700000010, '0x42')).toBe('{"index":2,"timestamp":1700000010,"milestoneId":"0x42"}');
  });
});
