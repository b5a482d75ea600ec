// The in-process bus for the all-in-one default when no NATS is configured. It keeps NATS's semantics
// wherever the contract suite looks (bus.contract.ts), so a service cannot come to depend on something
// only this adapter does: handlers run later, never inside publish; a message on a stream's subject is
// stored even when sent with `publish`, and core subscribers see durable publishes too.
import { randomUUID } from "node:crypto";
import type {
  Bus,
  BusMessage,
  ConsumeOptions,
  DurableMessage,
  DurablePublishOptions,
  KvBucket,
  KvBucketOptions,
  PublishOptions,
  SubscribeOptions,
  Subscription,
} from "./bus.ts";
import { defaultBusLogger, type BusLogger } from "./bus-logger.ts";
import { namespacedBus } from "./deployment.ts";
import { MemoryKv } from "./memory-kv.ts";
import { MemoryStreams } from "./memory-streams.ts";
import { RequestError, errorCodeHeader, errorHeader } from "./request-error.ts";
import { SerialQueue } from "./serial-queue.ts";
import { subjectMatches, validateSubject } from "./subject.ts";

export interface MemoryBusOptions {
  logger?: BusLogger;
  /**
   * The deployment's name, as the NATS adapter takes it (deployment.ts): names are namespaced the same way, so the
   * contract suite checks one behaviour for both. Nothing else shares this bus; default: names as given.
   */
  deployment?: string;
  /** Default 120000, JetStream's default duplicate window. */
  duplicateWindowMs?: number;
  /** Default 100000; the oldest messages of a stream are discarded beyond it. */
  maxMessagesPerStream?: number;
}

interface CoreMessage {
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  reply?: string;
}

interface CoreSubscription {
  pattern: string;
  queue: string | undefined;
  deliver(msg: CoreMessage): void;
}

export function createMemoryBus(opts: MemoryBusOptions = {}): Bus {
  const logger = opts.logger ?? defaultBusLogger();
  const subscriptions = new Set<CoreSubscription>();
  const open = new Set<Subscription>();
  let closed = false;
  const assertOpen = () => {
    if (closed) throw new Error("bus closed");
  };
  const streams = new MemoryStreams({
    logger,
    duplicateWindowMs: opts.duplicateWindowMs ?? 120_000,
    maxMessagesPerStream: opts.maxMessagesPerStream ?? 100_000,
  });
  const kv = new MemoryKv(logger, assertOpen);

  /** Delivers to every plain subscriber and to one member of each queue group; returns how many got it. */
  function route(msg: CoreMessage): number {
    const groups = new Map<string, CoreSubscription[]>();
    let delivered = 0;
    for (const sub of subscriptions) {
      if (!subjectMatches(sub.pattern, msg.subject)) continue;
      if (sub.queue === undefined) {
        sub.deliver(copy(msg));
        delivered++;
        continue;
      }
      // NATS groups queue subscribers by subscription subject and queue name.
      const key = `${sub.pattern} ${sub.queue}`;
      groups.set(key, [...(groups.get(key) ?? []), sub]);
    }
    for (const members of groups.values()) {
      members[Math.floor(Math.random() * members.length)]!.deliver(copy(msg));
      delivered++;
    }
    return delivered;
  }

  function track(sub: CoreSubscription, stop: () => Promise<void>): Subscription {
    subscriptions.add(sub);
    const handle: Subscription = {
      unsubscribe: async () => {
        subscriptions.delete(sub);
        open.delete(handle);
        await stop();
      },
    };
    open.add(handle);
    return handle;
  }

  function publishCore(subject: string, data: Uint8Array, headers: Record<string, string>, reply?: string): number {
    streams.store(subject, data.slice(), { ...headers });
    return route({ subject, data, headers, reply });
  }

  const bus: Bus = {
    async publish(subject: string, data: Uint8Array, o: PublishOptions = {}) {
      assertOpen();
      validateSubject(subject);
      publishCore(subject, data, o.headers ?? {});
    },

    async subscribe(subject, handler, o: SubscribeOptions = {}) {
      assertOpen();
      validateSubject(subject, { wildcards: true });
      const queue = new SerialQueue((err) => logger.error({ err, subject }, "subscriber failed"));
      const sub: CoreSubscription = {
        pattern: subject,
        queue: o.queue,
        deliver: (msg) => queue.push(() => handler(toBusMessage(msg))),
      };
      return track(sub, () => queue.close());
    },

    async request(subject, data, o: PublishOptions & { timeoutMs?: number } = {}) {
      assertOpen();
      validateSubject(subject);
      const inbox = `_INBOX.${randomUUID().replaceAll("-", "")}`;
      const timeoutMs = o.timeoutMs ?? 5000;
      return new Promise<BusMessage>((resolve, reject) => {
        const settle = (fn: () => void) => {
          clearTimeout(timer);
          subscriptions.delete(sub);
          fn();
        };
        const timer = setTimeout(
          () =>
            settle(() => reject(new RequestError(subject, "timeout", `no reply on ${subject} within ${timeoutMs} ms`))),
          timeoutMs,
        );
        const sub: CoreSubscription = {
          pattern: inbox,
          queue: undefined,
          deliver: (msg) =>
            settle(() => {
              const error = msg.headers[errorHeader];
              if (error === undefined) resolve(toBusMessage(msg));
              else reject(new RequestError(subject, "handler", error));
            }),
        };
        subscriptions.add(sub);
        if (publishCore(subject, data, o.headers ?? {}, inbox) === 0) {
          settle(() => reject(new RequestError(subject, "no-responders", `no responders on ${subject}`)));
        }
      });
    },

    async reply(subject, handler, o: SubscribeOptions = {}) {
      assertOpen();
      validateSubject(subject, { wildcards: true });
      // Requests are answered concurrently, like independent RPCs; unsubscribe waits for those in flight.
      const inFlight = new Set<Promise<void>>();
      const answer = async (msg: CoreMessage) => {
        await new Promise((resolve) => setImmediate(resolve));
        let response: CoreMessage;
        try {
          const out = await handler(toBusMessage(msg));
          response = { subject: msg.reply!, data: out, headers: {} };
        } catch (err) {
          logger.warn({ err, subject: msg.subject }, "reply handler failed");
          const message = err instanceof Error ? err.message : String(err);
          response = {
            subject: msg.reply!,
            data: new Uint8Array(),
            headers: { [errorHeader]: message, [errorCodeHeader]: "500" },
          };
        }
        if (!closed) route(response);
      };
      const sub: CoreSubscription = {
        pattern: subject,
        queue: o.queue,
        deliver: (msg) => {
          if (msg.reply === undefined) return;
          const p = answer(msg).finally(() => inFlight.delete(p));
          inFlight.add(p);
        },
      };
      return track(sub, async () => {
        await Promise.all(inFlight);
      });
    },

    async ensureStream(name, subjects, o) {
      assertOpen();
      streams.ensure(name, subjects, o);
    },

    async streamInfo(name) {
      assertOpen();
      return streams.info(name);
    },

    async publishDurable(subject, data, o: DurablePublishOptions = {}) {
      assertOpen();
      validateSubject(subject);
      const headers = o.headers ?? {};
      const ack = streams.store(subject, data.slice(), { ...headers }, o.msgId);
      if (!ack) throw new Error(`no stream stores subject ${subject}`);
      if (!ack.duplicate) route({ subject, data, headers });
      return ack;
    },

    async consume(stream, durable, handler: (msg: DurableMessage) => Promise<void>, o?: ConsumeOptions) {
      assertOpen();
      const sub = streams.consume(stream, durable, handler, o);
      const handle: Subscription = {
        unsubscribe: async () => {
          open.delete(handle);
          await sub.unsubscribe();
        },
      };
      open.add(handle);
      return handle;
    },

    async kv(bucket: string, o?: KvBucketOptions): Promise<KvBucket> {
      assertOpen();
      return kv.open(bucket, o);
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...open].map((s) => s.unsubscribe()));
      streams.clear();
      await kv.close();
    },
  };
  return opts.deployment === undefined ? bus : namespacedBus(bus, opts.deployment);
}

function copy(msg: CoreMessage): CoreMessage {
  return { ...msg, data: msg.data.slice(), headers: { ...msg.headers } };
}

function toBusMessage(msg: CoreMessage): BusMessage {
  return { subject: msg.subject, data: msg.data, headers: msg.headers };
}
