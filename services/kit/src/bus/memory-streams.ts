// Durable streams of the in-process bus: JetStream's limits-retention and work-queue streams and durable pull consumers,
// reduced to what the contract promises (dedupe window, per-consumer position, in-order redelivery).
import type { ConsumeOptions, DurableMessage, StreamInfo, StreamOptions, Subscription } from "./bus.ts";
import type { BusLogger } from "./bus-logger.ts";
import { logHandlerThrow, redeliveryDelay } from "./redelivery.ts";
import { subjectMatches, subjectsOverlap, validateSubject } from "./subject.ts";

interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  storedAt: number;
  /** As JetStream counts it for max_bytes. */
  size: number;
}

interface Member {
  handler: (msg: DurableMessage) => Promise<void>;
  /** Settles when the handler call in flight (if any) has finished. */
  busy: Promise<void> | undefined;
}

interface Consumer {
  filter: string | undefined;
  /** The first sequence not yet acknowledged. */
  next: number;
  deliveries: number;
  redeliveryDelayMs: number | undefined;
  members: Member[];
  turn: number;
  running: boolean;
  wake: (() => void) | undefined;
}

interface Stream {
  subjects: string[];
  messages: StoredMessage[];
  lastSeq: number;
  bytes: number;
  /** 0: no limit. */
  maxAgeMs: number;
  /** 0: no limit. */
  maxBytes: number;
  /** Work-queue retention: a message goes once acknowledged. */
  workQueue: boolean;
  /** msgId → [seq, stored at]; JetStream's duplicate window. */
  seen: Map<string, [number, number]>;
  consumers: Map<string, Consumer>;
}

export interface MemoryStreamsOptions {
  logger: BusLogger;
  /** JetStream's default duplicate window is two minutes. */
  duplicateWindowMs: number;
  /** Oldest messages are discarded beyond this, so the embedded default cannot grow without bound. */
  maxMessagesPerStream: number;
}

export class MemoryStreams {
  readonly #streams = new Map<string, Stream>();

  constructor(private readonly opts: MemoryStreamsOptions) {}

  ensure(name: string, subjects: string[], opts: StreamOptions = {}): void {
    if (!/^[-\w]+$/.test(name)) throw new Error(`invalid stream name ${JSON.stringify(name)}`);
    for (const [key, value] of Object.entries({ maxAgeMs: opts.maxAgeMs, maxBytes: opts.maxBytes })) {
      if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
        throw new Error(`stream ${key} must be a whole number ≥ 0, got ${String(value)}`);
      }
    }
    if (subjects.length === 0) throw new Error(`stream ${name} needs at least one subject`);
    for (const s of subjects) validateSubject(s, { wildcards: true });
    for (const [other, stream] of this.#streams) {
      if (other === name) continue;
      const clash = subjects.find((s) => stream.subjects.some((o) => subjectsOverlap(s, o)));
      if (clash) throw new Error(`subject ${clash} of stream ${name} overlaps stream ${other}`);
    }
    const existing = this.#streams.get(name);
    if (existing) {
      if (opts.workQueue !== undefined && opts.workQueue !== existing.workQueue) {
        throw new Error(`stream ${name} exists with another retention`);
      }
      existing.subjects = [...subjects];
      existing.maxAgeMs = opts.maxAgeMs ?? existing.maxAgeMs;
      existing.maxBytes = opts.maxBytes ?? existing.maxBytes;
      this.#prune(existing, Date.now());
      return;
    }
    this.#streams.set(name, {
      subjects: [...subjects],
      messages: [],
      lastSeq: 0,
      bytes: 0,
      maxAgeMs: opts.maxAgeMs ?? 0,
      maxBytes: opts.maxBytes ?? 0,
      workQueue: opts.workQueue ?? false,
      seen: new Map(),
      consumers: new Map(),
    });
  }

  info(name: string): StreamInfo {
    const stream = this.#streams.get(name);
    if (!stream) throw new Error(`stream ${name} not found`);
    this.#prune(stream, Date.now());
    return {
      messages: stream.messages.length,
      bytes: stream.bytes,
      lastSeq: stream.lastSeq,
      consumers: stream.consumers.size,
      ...(stream.maxAgeMs > 0 ? { maxAgeMs: stream.maxAgeMs } : {}),
      ...(stream.maxBytes > 0 ? { maxBytes: stream.maxBytes } : {}),
      ...(stream.workQueue ? { workQueue: true } : {}),
    };
  }

  /** Drops what the stream's limits (and the embedded cap) no longer keep, oldest first. */
  #prune(stream: Stream, now: number): void {
    let drop = 0;
    let bytes = stream.bytes;
    const msgs = stream.messages;
    while (drop < msgs.length) {
      const msg = msgs[drop]!;
      const tooOld = stream.maxAgeMs > 0 && now - msg.storedAt > stream.maxAgeMs;
      const tooBig = stream.maxBytes > 0 && bytes > stream.maxBytes;
      const tooMany = msgs.length - drop > this.opts.maxMessagesPerStream;
      if (!tooOld && !tooBig && !tooMany) break;
      bytes -= msg.size;
      drop++;
    }
    if (drop > 0) msgs.splice(0, drop);
    stream.bytes = bytes;
  }

  /** Stores into the stream that owns the subject; null when no stream does. */
  store(
    subject: string,
    data: Uint8Array,
    headers: Record<string, string>,
    msgId?: string,
  ): { seq: number; duplicate: boolean } | null {
    const stream = [...this.#streams.values()].find((s) => s.subjects.some((p) => subjectMatches(p, subject)));
    if (!stream) return null;
    const now = Date.now();
    // JetStream's duplicate window is never longer than the stream's max age.
    const window =
      stream.maxAgeMs > 0 ? Math.min(stream.maxAgeMs, this.opts.duplicateWindowMs) : this.opts.duplicateWindowMs;
    if (msgId !== undefined) {
      for (const [id, [, at]] of stream.seen) {
        if (now - at <= window) break;
        stream.seen.delete(id);
      }
      const seen = stream.seen.get(msgId);
      if (seen) return { seq: seen[0], duplicate: true };
    }
    const seq = ++stream.lastSeq;
    const size = storedSize(subject, data, headers);
    stream.messages.push({ seq, subject, data, headers, storedAt: now, size });
    stream.bytes += size;
    this.#prune(stream, now);
    if (msgId !== undefined) stream.seen.set(msgId, [seq, now]);
    for (const consumer of stream.consumers.values()) consumer.wake?.();
    return { seq, duplicate: false };
  }

  consume(
    streamName: string,
    durable: string,
    handler: (msg: DurableMessage) => Promise<void>,
    opts: ConsumeOptions = {},
  ): Subscription {
    const stream = this.#streams.get(streamName);
    if (!stream) throw new Error(`stream ${streamName} not found`);
    if (opts.filterSubject !== undefined) validateSubject(opts.filterSubject, { wildcards: true });
    let consumer = stream.consumers.get(durable);
    if (!consumer) {
      consumer = {
        filter: opts.filterSubject,
        next: opts.deliver === "new" ? stream.lastSeq + 1 : 1,
        deliveries: 0,
        redeliveryDelayMs: opts.redeliveryDelayMs,
        members: [],
        turn: 0,
        running: false,
        wake: undefined,
      };
      stream.consumers.set(durable, consumer);
    }
    const member: Member = { handler, busy: undefined };
    consumer.members.push(member);
    if (!consumer.running) void this.#run(stream, consumer);
    const c = consumer;
    return {
      unsubscribe: async () => {
        c.members = c.members.filter((m) => m !== member);
        c.wake?.();
        await member.busy;
      },
    };
  }

  async #run(stream: Stream, consumer: Consumer): Promise<void> {
    consumer.running = true;
    // Never deliver inside the caller's stack.
    await new Promise((resolve) => setImmediate(resolve));
    while (consumer.members.length > 0) {
      const msg = this.#nextFor(stream, consumer);
      if (!msg) {
        await new Promise<void>((resolve) => (consumer.wake = resolve));
        consumer.wake = undefined;
        continue;
      }
      const member = consumer.members[consumer.turn++ % consumer.members.length]!;
      consumer.deliveries++;
      const call = member.handler({
        subject: msg.subject,
        data: msg.data,
        headers: { ...msg.headers },
        seq: msg.seq,
        deliveryCount: consumer.deliveries,
      });
      member.busy = call.then(
        () => undefined,
        () => undefined,
      );
      try {
        await call;
        consumer.next = msg.seq + 1;
        consumer.deliveries = 0;
        if (stream.workQueue) this.#remove(stream, msg);
      } catch (err) {
        logHandlerThrow(this.opts.logger, err, msg.seq, consumer.deliveries);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, redeliveryDelay(consumer.deliveries, consumer.redeliveryDelayMs));
          timer.unref();
          consumer.wake = () => {
            // A publish does not cut the back-off short; losing the last member does.
            if (consumer.members.length > 0) return;
            clearTimeout(timer);
            resolve();
          };
        });
        consumer.wake = undefined;
      } finally {
        member.busy = undefined;
      }
    }
    consumer.running = false;
  }

  /** A work queue's acknowledged message leaves the stream. */
  #remove(stream: Stream, msg: StoredMessage): void {
    const at = stream.messages.indexOf(msg);
    if (at < 0) return;
    stream.messages.splice(at, 1);
    stream.bytes -= msg.size;
  }

  #nextFor(stream: Stream, consumer: Consumer): StoredMessage | undefined {
    this.#prune(stream, Date.now());
    const first = stream.messages[0]?.seq ?? stream.lastSeq + 1;
    if (consumer.next < first) {
      consumer.next = first;
      consumer.deliveries = 0;
    }
    // A work queue's stream has gaps (acknowledged messages left it): the consumer's place is searched for.
    const start = stream.workQueue ? stream.messages.findIndex((m) => m.seq >= consumer.next) : consumer.next - first;
    for (let i = start < 0 ? stream.messages.length : start; i < stream.messages.length; i++) {
      const msg = stream.messages[i]!;
      if (consumer.filter === undefined || subjectMatches(consumer.filter, msg.subject)) return msg;
      consumer.next = msg.seq + 1;
    }
    return undefined;
  }

  clear(): void {
    for (const stream of this.#streams.values()) {
      for (const consumer of stream.consumers.values()) {
        consumer.members = [];
        consumer.wake?.();
      }
    }
  }
}

/** A message's size as JetStream's memory store counts it: subject, headers (as sent on the wire) and data, plus 16. */
function storedSize(subject: string, data: Uint8Array, headers: Record<string, string>): number {
  const entries = Object.entries(headers);
  const headerBytes =
    entries.length === 0
      ? 0
      : Buffer.byteLength("NATS/1.0\r\n\r\n") +
        entries.reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`), 0);
  return Buffer.byteLength(subject) + headerBytes + data.byteLength + 16;
}
