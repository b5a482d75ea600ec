// Durable streams of the in-process bus: JetStream's limits-retention streams and durable pull consumers,
// reduced to what the contract promises (dedupe window, per-consumer position, in-order redelivery).
import type { ConsumeOptions, DurableMessage, Subscription } from "./bus.ts";
import type { BusLogger } from "./bus-logger.ts";
import { redeliveryDelay } from "./redelivery.ts";
import { subjectMatches, subjectsOverlap, validateSubject } from "./subject.ts";

interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
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

  ensure(name: string, subjects: string[]): void {
    if (!/^[-\w]+$/.test(name)) throw new Error(`invalid stream name ${JSON.stringify(name)}`);
    if (subjects.length === 0) throw new Error(`stream ${name} needs at least one subject`);
    for (const s of subjects) validateSubject(s, { wildcards: true });
    for (const [other, stream] of this.#streams) {
      if (other === name) continue;
      const clash = subjects.find((s) => stream.subjects.some((o) => subjectsOverlap(s, o)));
      if (clash) throw new Error(`subject ${clash} of stream ${name} overlaps stream ${other}`);
    }
    const existing = this.#streams.get(name);
    if (existing) {
      existing.subjects = [...subjects];
      return;
    }
    this.#streams.set(name, {
      subjects: [...subjects],
      messages: [],
      lastSeq: 0,
      seen: new Map(),
      consumers: new Map(),
    });
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
    if (msgId !== undefined) {
      for (const [id, [, at]] of stream.seen) {
        if (now - at <= this.opts.duplicateWindowMs) break;
        stream.seen.delete(id);
      }
      const seen = stream.seen.get(msgId);
      if (seen) return { seq: seen[0], duplicate: true };
    }
    const seq = ++stream.lastSeq;
    stream.messages.push({ seq, subject, data, headers });
    if (stream.messages.length > this.opts.maxMessagesPerStream) stream.messages.shift();
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
      } catch (err) {
        this.opts.logger.warn({ err, seq: msg.seq, deliveryCount: consumer.deliveries }, "durable handler failed");
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

  #nextFor(stream: Stream, consumer: Consumer): StoredMessage | undefined {
    const first = stream.messages[0]?.seq ?? stream.lastSeq + 1;
    if (consumer.next < first) {
      consumer.next = first;
      consumer.deliveries = 0;
    }
    for (let i = consumer.next - first; i < stream.messages.length; i++) {
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
