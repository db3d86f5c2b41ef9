// Who receives a published message, and when it is written (events.md §2, §5, §6).
//
// Sessions with the same set of topic filters receive exactly the same messages, so they
// form one group: a topic is matched once per group, not once per session, and a group's
// messages are concatenated once, wrapped once for the transport (`frame`: one WebSocket
// frame), and the same bytes are written to each of its sessions (many clients of the
// same topics — dashboards, explorers, the benchmark's thousand — cost one match, one
// PUBLISH encoding and one buffer). Messages queue in their groups and are written
// together, so that a busy node writes each client one frame per flush instead of one
// per message: a socket write has a fixed cost (a system call, a TCP segment) beyond
// copying its bytes, and with few writes what remains is the bytes themselves — the floor
// that bench:events measures as its loopback reference.
//
// Writing to every client of a flush is cut into slices of at most SLICE_MS, with the
// event loop free in between, so that the connections' own packets (PINGREQ, SUBSCRIBE)
// and new connections are not held up by a long flush. After a flush whose slices took
// d ms together, the next one waits pauseFactor·d, at least minWaitMs and at most
// maxWaitMs: the longer a flush takes, the more messages the next one gathers per write
// (writes per client and second stay few), and a message waits at most about maxWaitMs
// plus a flush. With many clients the writes themselves are most of the cost (a system
// call and a TCP segment each, whatever they carry), so the wait also grows with the
// number of writes the last flush made, to keep them under writesPerSecond — within the
// same bounds, so latency stays bounded.
//
// Order per connection (D37) holds because a group's queue keeps publication order, one
// flush is delivered completely before the next starts, and a session's subscriptions only
// change right after everything queued so far was written (`beforeChange`).

import { generate } from 'mqtt-packet';
import { FilterIndex } from './topics';

/** What the fanout needs of a connection. */
export interface Receiver {
  /** Queue a frame for the connection: whole MQTT packets, wrapped by the fanout's `frame`. */
  write(frame: Buffer): void;
}

export interface FanoutOptions {
  /** Wraps a run of packets for the transport, once per group and flush (default: as is). */
  frame?: (packets: Buffer) => Buffer;
  /** The next flush waits this many times the duration of the last one (default 9: delivery ≤ ~10 % of the loop). */
  pauseFactor?: number;
  /** …and at least this long, so that each write carries what this much time gathered (default 0). */
  minWaitMs?: number;
  /** …but never longer than this, which bounds how long a message waits (events.md §6; default 60). */
  maxWaitMs?: number;
  /** …and long enough that the last flush's writes stay under this rate (default: no such bound). */
  writesPerSecond?: number;
}

/** The longest the event loop is held by writing one flush before it yields. */
const SLICE_MS = 2;
/** A flush writes at most this much per WebSocket frame (whole packets, at least one). */
const FRAME_BYTES = 256 * 1024;

class Group<R extends Receiver> {
  readonly receivers = new Set<R>();
  pending: Buffer[] = [];
  pendingBytes = 0;
  /** The publication that last reached this group (several filters may match one topic). */
  stamp = 0;
  constructor(
    readonly key: string,
    readonly filters: string[],
  ) {}
}

export type Payload = Buffer | string;

export class Fanout<R extends Receiver> {
  private readonly groups = new Map<string, Group<R>>();
  private readonly groupOf = new Map<R, Group<R>>();
  private readonly index = new FilterIndex<Group<R>>();
  private readonly dirty = new Set<Group<R>>();
  private stamp = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** The flush being written, slice by slice. */
  private delivery: Delivery<R> | undefined;
  private nextFlushAt = 0;
  private readonly frame: (packets: Buffer) => Buffer;
  private readonly pauseFactor: number;
  private readonly minWaitMs: number;
  private readonly maxWaitMs: number;
  private readonly writesPerSecond: number;

  constructor(options: FanoutOptions = {}) {
    this.frame = options.frame ?? ((packets) => packets);
    this.pauseFactor = options.pauseFactor ?? 9;
    this.minWaitMs = options.minWaitMs ?? 0;
    this.maxWaitMs = options.maxWaitMs ?? 60;
    this.writesPerSecond = options.writesPerSecond ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Queue a PUBLISH (QoS 0, retain 0, dup 0) of `topic` for every group with a matching
   * filter, once per group. The payload is built only if some group matches. Returns
   * whether it was queued.
   */
  publish(topic: string, payload: () => Payload): boolean {
    const stamp = ++this.stamp;
    let packet: Buffer | undefined;
    this.index.match(topic, (group) => {
      if (group.stamp === stamp) return;
      group.stamp = stamp;
      packet ??= generate({ cmd: 'publish', topic, payload: payload(), qos: 0, dup: false, retain: false });
      group.pending.push(packet);
      group.pendingBytes += packet.length;
      this.dirty.add(group);
    });
    if (packet === undefined) return false;
    this.schedule();
    return true;
  }

  /** Call before a receiver's filters change: what was published so far reaches it first. */
  beforeChange(): void {
    this.writeAllNow();
  }

  /** Write everything queued, at once (the delivery in progress first). */
  writeAllNow(): void {
    this.cancel();
    if (this.delivery !== undefined) this.deliver(false);
    if (this.dirty.size > 0) {
      this.startDelivery();
      this.deliver(false);
    }
  }

  /** Set the receiver's filters (an empty set removes it from every group). */
  setFilters(receiver: R, filters: Iterable<string>): void {
    const sorted = [...filters].sort();
    const key = sorted.join('\u0000');
    const current = this.groupOf.get(receiver);
    if (current?.key === key && sorted.length > 0) return;
    if (current !== undefined) this.leave(receiver, current);
    if (sorted.length === 0) return;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = new Group<R>(key, sorted);
      this.groups.set(key, group);
      for (const f of sorted) this.index.add(f, group);
    }
    group.receivers.add(receiver);
    this.groupOf.set(receiver, group);
  }

  /** Forget a closed receiver (its queued messages are dropped with it). */
  remove(receiver: R): void {
    const group = this.groupOf.get(receiver);
    if (group !== undefined) this.leave(receiver, group);
  }

  private leave(receiver: R, group: Group<R>): void {
    group.receivers.delete(receiver);
    this.groupOf.delete(receiver);
    if (group.receivers.size > 0) return;
    for (const f of group.filters) this.index.remove(f, group);
    this.groups.delete(group.key);
    this.dirty.delete(group);
  }

  /** Distinct filter sets in use (for metrics). */
  get groupCount(): number {
    return this.groups.size;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.immediate !== undefined) return;
    const wait = this.nextFlushAt - performance.now();
    if (wait <= 0) this.immediate = setImmediate(() => this.flush());
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  /** Start writing every group's queued messages (timer callback). */
  private flush(): void {
    this.cancel();
    if (this.delivery !== undefined || this.dirty.size === 0) return;
    this.startDelivery();
    this.deliver(true);
  }

  /** Freeze what is queued into the next delivery: frames per group and who gets them. */
  private startDelivery(): void {
    const jobs: Job<R>[] = [];
    let writes = 0;
    for (const group of this.dirty) {
      const frames = framesOf(group.pending, group.pendingBytes).map(this.frame);
      jobs.push({ receivers: [...group.receivers], frames });
      writes += group.receivers.size * frames.length;
      group.pending = [];
      group.pendingBytes = 0;
    }
    this.dirty.clear();
    this.delivery = { jobs, job: 0, next: 0, busyMs: 0, writes };
  }

  /** Write the current delivery; `sliced`: yield to the event loop every SLICE_MS. */
  private deliver(sliced: boolean): void {
    const d = this.delivery!;
    const started = performance.now();
    for (; d.job < d.jobs.length; d.job++, d.next = 0) {
      const { receivers, frames } = d.jobs[d.job];
      while (d.next < receivers.length) {
        const receiver = receivers[d.next++];
        for (const frame of frames) receiver.write(frame);
        if (sliced && (d.next & 7) === 0 && performance.now() - started > SLICE_MS) {
          d.busyMs += performance.now() - started;
          this.immediate = setImmediate(() => {
            this.immediate = undefined;
            if (this.delivery === d) this.deliver(true);
          });
          return;
        }
      }
    }
    const ended = performance.now();
    d.busyMs += ended - started;
    this.delivery = undefined;
    const wait = Math.max(this.minWaitMs, d.busyMs * this.pauseFactor, (d.writes * 1000) / this.writesPerSecond);
    this.nextFlushAt = ended + Math.min(this.maxWaitMs, wait);
    if (this.dirty.size > 0) this.schedule();
  }

  /** Stop writing (the node is shutting down). */
  stop(): void {
    this.dirty.clear();
    this.delivery = undefined;
    this.cancel();
  }
}

/** One group's frames of a delivery and the receivers they go to. */
interface Job<R> {
  receivers: R[];
  frames: Buffer[];
}

interface Delivery<R> {
  jobs: Job<R>[];
  /** Position: job index and next receiver in it. */
  job: number;
  next: number;
  /** Time spent writing so far. */
  busyMs: number;
  /** Socket writes the delivery makes in all (receivers × frames). */
  writes: number;
}

/** Packets concatenated into frames of at most FRAME_BYTES (a larger packet is a frame alone). */
function framesOf(packets: Buffer[], total: number): Buffer[] {
  if (packets.length === 1) return packets;
  if (total <= FRAME_BYTES) return [Buffer.concat(packets, total)];
  const frames: Buffer[] = [];
  let run: Buffer[] = [];
  let runBytes = 0;
  for (const p of packets) {
    if (runBytes > 0 && runBytes + p.length > FRAME_BYTES) {
      frames.push(Buffer.concat(run, runBytes));
      run = [];
      runBytes = 0;
    }
    run.push(p);
    runBytes += p.length;
  }
  if (run.length > 0) frames.push(Buffer.concat(run, runBytes));
  return frames;
}
