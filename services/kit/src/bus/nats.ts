// The NATS adapter: core NATS for publish/subscribe/request/reply, JetStream for durable streams and
// key-value buckets. One connection per bus; it reconnects forever, and `healthy()` follows its state.
import {
  JetStreamApiCodes,
  JetStreamApiError,
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  jetstream,
  jetstreamManager,
} from "@nats-io/jetstream";
import type { JetStreamManager, JsMsg, StreamInfo as StreamInfoNats } from "@nats-io/jetstream";
import { Kvm, KvWatchInclude } from "@nats-io/kv";
import type { KV } from "@nats-io/kv";
import {
  connect,
  headers as natsHeaders,
  nanos,
  NoRespondersError,
  RequestError as NatsRequestError,
  TimeoutError,
} from "@nats-io/transport-node";
import type { Msg, MsgHdrs, Subscription as NatsSubscription } from "@nats-io/transport-node";
import { BusUnavailableError, KvConflictError } from "./bus.ts";
import type {
  Bus,
  BusMessage,
  ConsumeOptions,
  DurableMessage,
  KvBucket,
  KvBucketOptions,
  KvEntry,
  KvWatchOptions,
  PublishOptions,
  StreamOptions,
  SubscribeOptions,
  Subscription,
} from "./bus.ts";
import { defaultBusLogger, type BusLogger } from "./bus-logger.ts";
import { namespacedBus, validateDeploymentName } from "./deployment.ts";
import { logHandlerThrow, redeliveryDelay } from "./redelivery.ts";
import { RequestError, errorCodeHeader, errorHeader } from "./request-error.ts";
import { validateSubject } from "./subject.ts";

export interface NatsBusOptions {
  /** One server or a comma-separated list (`nats://a:4222,nats://b:4222`). */
  url: string;
  /**
   * The deployment's name (DEPLOYMENT_NAME): every subject, stream, consumer and key-value bucket the services name
   * is handed to NATS within it (deployment.ts), so deployments sharing a NATS never see each other's. A DNS label.
   */
  deployment: string;
  /** Connection name shown by the server's monitoring (use the service name). */
  name?: string;
  logger?: BusLogger;
  /**
   * Wait between reconnect attempts; default 1000 (plus jitter), so a restarted NATS has the live room's listeners
   * back within 3 s (issue 14). Attempts never stop.
   */
  reconnectWaitMs?: number;
  /**
   * Keep retrying when the server is not reachable at start (default false: reject, so a misconfigured
   * URL fails the start at once and the orchestrator's restart policy takes over).
   */
  waitOnFirstConnect?: boolean;
}

/** StreamOptions in JetStream's terms: 0 (no limit) is max_age 0 and max_bytes -1. */
function streamLimits(o: StreamOptions): { max_age?: number; max_bytes?: number } {
  for (const [key, value] of Object.entries({ maxAgeMs: o.maxAgeMs, maxBytes: o.maxBytes })) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new Error(`stream ${key} must be a whole number ≥ 0, got ${String(value)}`);
    }
  }
  return {
    ...(o.maxAgeMs !== undefined ? { max_age: nanos(o.maxAgeMs) } : {}),
    ...(o.maxBytes !== undefined ? { max_bytes: o.maxBytes === 0 ? -1 : o.maxBytes } : {}),
  };
}

/** A new stream's duplicate window: JetStream's two minutes, or the max age when that is shorter. */
function duplicateWindowWithin(maxAge: number): { duplicate_window?: number } {
  return maxAge > 0 && maxAge < nanos(120_000) ? { duplicate_window: maxAge } : {};
}

// Long handlers keep their message: the server redelivers only after ackWait without a sign of progress.
const DEFAULT_ACK_WAIT_MS = 30_000;

export async function createNatsBus(opts: NatsBusOptions): Promise<Bus> {
  // Refused before connecting: a bad name fails the start with a clear message.
  validateDeploymentName(opts.deployment);
  const logger = opts.logger ?? defaultBusLogger();
  const nc = await connect({
    servers: opts.url.split(",").map((s) => s.trim()),
    name: opts.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: opts.reconnectWaitMs ?? 1000,
    waitOnFirstConnect: opts.waitOnFirstConnect ?? false,
  });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  const kvm = new Kvm(js);
  const open = new Set<Subscription>();
  let connected = true;
  /** The key-value operations in flight: a dropped connection fails them at once (see `whileConnected`). */
  const inFlight = new Set<(err: BusUnavailableError) => void>();
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect") {
        connected = false;
        const err = new BusUnavailableError("the connection to NATS dropped: the operation's outcome is unknown");
        for (const fail of inFlight) fail(err);
        inFlight.clear();
        logger.warn({ server: s.server }, "nats disconnected");
      } else if (s.type === "reconnect") {
        connected = true;
        logger.info({ server: s.server }, "nats reconnected");
      } else if (s.type === "error") {
        logger.error({ err: s.error }, "nats error");
      }
    }
  })().catch((err: unknown) => {
    // The status iterator only ends with the connection; should it throw instead, readiness says so.
    connected = false;
    logger.error({ err }, "nats status watch failed");
  });

  /**
   * Runs a request of the connection (a key-value operation) only while connected (issue 28). The client drops what
   * is sent while it reconnects, so a request made then would only end with its timeout (5 s), however soon NATS is
   * back; it fails at once instead. A request in flight when the connection drops fails then too: its reply cannot
   * come, and the caller, told its outcome is unknown, reads again when NATS is back.
   */
  function whileConnected<T>(op: () => Promise<T>): Promise<T> {
    if (!connected || nc.isClosed()) {
      return Promise.reject(new BusUnavailableError("NATS cannot be reached: the operation was not sent"));
    }
    return new Promise<T>((resolve, reject) => {
      inFlight.add(reject);
      op().then(
        (value) => (inFlight.delete(reject), resolve(value)),
        (err: unknown) => (inFlight.delete(reject), reject(err)),
      );
    });
  }

  function track(stop: () => Promise<void>): Subscription {
    let done: Promise<void> | undefined;
    const handle: Subscription = {
      unsubscribe: () => {
        open.delete(handle);
        done ??= stop();
        return done;
      },
    };
    open.add(handle);
    return handle;
  }

  const bus: Bus = {
    async publish(subject, data, o: PublishOptions = {}) {
      validateSubject(subject);
      nc.publish(subject, data, { headers: toNatsHeaders(o.headers) });
    },

    async subscribe(subject, handler, o: SubscribeOptions = {}) {
      validateSubject(subject, { wildcards: true });
      const sub = nc.subscribe(subject, { queue: o.queue });
      let stopped = false;
      // One message at a time, so a subscriber applies (say) versioned room patches in publish order.
      const loop = (async () => {
        for await (const m of sub) {
          if (stopped) break;
          try {
            await handler(toBusMessage(m));
          } catch (err) {
            logger.error({ err, subject: m.subject }, "subscriber failed");
          }
        }
      })().catch((err: unknown) => logger.error({ err, subject }, "subscription ended with an error"));
      // Resolve once the server knows the subscription, so a publish from another connection is not missed.
      await nc.flush();
      return track(async () => {
        stopped = true;
        unsubscribeQuietly(sub);
        await loop;
      });
    },

    async request(subject, data, o: PublishOptions & { timeoutMs?: number } = {}) {
      validateSubject(subject);
      const timeoutMs = o.timeoutMs ?? 5000;
      let m: Msg;
      try {
        m = await nc.request(subject, data, { timeout: timeoutMs, headers: toNatsHeaders(o.headers) });
      } catch (err) {
        throw toRequestError(subject, timeoutMs, err);
      }
      const error = m.headers?.get(errorHeader);
      if (error) throw new RequestError(subject, "handler", error);
      return toBusMessage(m);
    },

    async reply(subject, handler, o: SubscribeOptions = {}) {
      validateSubject(subject, { wildcards: true });
      // Requests are answered concurrently, like independent RPCs; unsubscribe waits for those in flight.
      const inFlight = new Set<Promise<void>>();
      const answer = async (m: Msg) => {
        try {
          m.respond(await handler(toBusMessage(m)));
        } catch (err) {
          logger.warn({ err, subject: m.subject }, "reply handler failed");
          const h = natsHeaders();
          h.set(errorHeader, err instanceof Error ? err.message : String(err));
          h.set(errorCodeHeader, "500");
          m.respond(new Uint8Array(), { headers: h });
        }
      };
      const sub = nc.subscribe(subject, {
        queue: o.queue,
        callback: (err, m) => {
          if (err) {
            logger.error({ err, subject }, "reply subscription failed");
            return;
          }
          if (!m.reply) return;
          const p = answer(m).finally(() => inFlight.delete(p));
          inFlight.add(p);
        },
      });
      await nc.flush();
      return track(async () => {
        unsubscribeQuietly(sub);
        await Promise.all(inFlight);
      });
    },

    async ensureStream(name, subjects, o: StreamOptions = {}) {
      for (const s of subjects) validateSubject(s, { wildcards: true });
      const limits = streamLimits(o);
      let info: StreamInfoNats;
      try {
        info = await jsm.streams.info(name);
      } catch (err) {
        if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
        await jsm.streams.add({
          name,
          subjects,
          ...limits,
          ...duplicateWindowWithin(limits.max_age ?? 0),
          ...(o.workQueue ? { retention: RetentionPolicy.Workqueue } : {}),
        });
        return;
      }
      if (o.workQueue !== undefined && o.workQueue !== (info.config.retention === RetentionPolicy.Workqueue)) {
        throw new Error(`stream ${name} exists with another retention (NATS cannot change it)`);
      }
      const have = [...(info.config.subjects ?? [])].sort();
      const changed =
        have.join(" ") !== [...subjects].sort().join(" ") ||
        (limits.max_age !== undefined && limits.max_age !== info.config.max_age) ||
        (limits.max_bytes !== undefined && limits.max_bytes !== info.config.max_bytes);
      if (!changed) return;
      const config = { ...info.config, subjects, ...limits };
      // JetStream refuses a duplicate window longer than the max age.
      if (config.max_age > 0 && config.duplicate_window > config.max_age) config.duplicate_window = config.max_age;
      await jsm.streams.update(name, config);
    },

    async streamInfo(name) {
      const { config, state } = await jsm.streams.info(name);
      return {
        messages: state.messages,
        bytes: state.bytes,
        lastSeq: state.last_seq,
        consumers: state.consumer_count,
        ...(config.max_age > 0 ? { maxAgeMs: Math.round(config.max_age / 1_000_000) } : {}),
        ...(config.max_bytes > 0 ? { maxBytes: config.max_bytes } : {}),
        ...(config.retention === RetentionPolicy.Workqueue ? { workQueue: true } : {}),
      };
    },

    async publishDurable(subject, data, o = {}) {
      validateSubject(subject);
      const ack = await js.publish(subject, data, { msgID: o.msgId, headers: toNatsHeaders(o.headers) });
      return { seq: ack.seq, duplicate: ack.duplicate };
    },

    async consume(stream, durable, handler, o: ConsumeOptions = {}) {
      if (o.filterSubject !== undefined) validateSubject(o.filterSubject, { wildcards: true });
      await ensureConsumer(jsm, stream, durable, o);
      const consumer = await js.consumers.get(stream, durable);
      const messages = await consumer.consume({ max_messages: 1, expires: 5000 });
      let stopped = false;
      const loop = (async () => {
        for await (const m of messages) {
          if (stopped) {
            // Hand it back now rather than after ackWait, so the next subscriber gets it at once.
            m.nak();
            continue;
          }
          await handleDurable(m, handler, o, logger);
        }
      })().catch((err: unknown) => logger.error({ err, stream, durable }, "consumer ended with an error"));
      return track(async () => {
        stopped = true;
        await messages.close();
        await loop;
      });
    },

    async kv(bucket, o: KvBucketOptions = {}) {
      const kv = await kvm.create(bucket, { history: 1, ...(o.ttlMs ? { ttl: o.ttlMs } : {}) });
      return natsBucket(kv, track, whileConnected, logger);
    },

    async healthy() {
      return connected && !nc.isClosed() && !nc.isDraining();
    },

    async close() {
      if (nc.isClosed()) return;
      await Promise.all([...open].map((s) => s.unsubscribe()));
      if (!nc.isDraining()) await nc.drain();
      await nc.closed();
    },
  };
  return namespacedBus(bus, opts.deployment);
}

async function ensureConsumer(jsm: JetStreamManager, stream: string, durable: string, o: ConsumeOptions) {
  try {
    // An existing durable keeps its position and configuration, as the contract says it resumes.
    await jsm.consumers.info(stream, durable);
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: o.deliver === "new" ? DeliverPolicy.New : DeliverPolicy.All,
      ...(o.filterSubject ? { filter_subject: o.filterSubject } : {}),
      // One unacknowledged message at a time: the only way a redelivery cannot overtake later messages.
      max_ack_pending: 1,
      ack_wait: nanos(o.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
    });
  }
}

async function handleDurable(
  m: JsMsg,
  handler: (msg: DurableMessage) => Promise<void>,
  o: ConsumeOptions,
  logger: BusLogger,
): Promise<void> {
  const progress = setInterval(() => m.working(), (o.ackWaitMs ?? DEFAULT_ACK_WAIT_MS) / 3);
  try {
    await handler({
      subject: m.subject,
      data: m.data,
      headers: fromNatsHeaders(m.headers),
      seq: m.seq,
      deliveryCount: m.info.deliveryCount,
    });
    m.ack();
  } catch (err) {
    logHandlerThrow(logger, err, m.seq, m.info.deliveryCount);
    m.nak(redeliveryDelay(m.info.deliveryCount, o.redeliveryDelayMs));
  } finally {
    clearInterval(progress);
  }
}

function natsBucket(
  kv: KV,
  track: (stop: () => Promise<void>) => Subscription,
  whileConnected: <T>(op: () => Promise<T>) => Promise<T>,
  logger: BusLogger,
): KvBucket {
  return {
    async get(key) {
      const e = await whileConnected(() => kv.get(key));
      return e && e.operation === "PUT" ? toKvEntry(e) : null;
    },
    put: (key, value) => whileConnected(() => kv.put(key, value)),
    async create(key, value) {
      try {
        return await whileConnected(() => kv.create(key, value));
      } catch (err) {
        throw toConflict(key, err);
      }
    },
    async update(key, value, revision) {
      try {
        return await whileConnected(() => kv.update(key, value, revision));
      } catch (err) {
        throw toConflict(key, err);
      }
    },
    delete: (key) => whileConnected(() => kv.delete(key)),
    keys: (pattern) =>
      whileConnected(async () => {
        // The library's scan reads each key's last value and then every write made until it catches up, so a key
        // written during the scan (a playing room's stage, several times a second) comes more than once: the live
        // directory listed the Lobby three times.
        const out = new Set<string>();
        for await (const k of await kv.keys(pattern)) out.add(k);
        return [...out];
      }),
    async watch(handler, o: KvWatchOptions = {}) {
      const includeCurrent = o.includeCurrent ?? true;
      // The snapshot lists deleted keys as markers, but "current values" means live keys only. Anything at
      // or below the bucket's last revision before the watch started can only be part of the snapshot
      // (the library's own `isUpdate` already flags the snapshot's last entry as an update).
      const before = includeCurrent ? (await kv.status()).streamInfo.state.last_seq : 0;
      const iter = await kv.watch({
        key: o.key,
        include: includeCurrent ? KvWatchInclude.LastValue : KvWatchInclude.UpdatesOnly,
      });
      const loop = (async () => {
        for await (const e of iter) {
          if (e.revision <= before && e.operation !== "PUT") continue;
          try {
            handler(toKvEntry(e));
          } catch (err) {
            logger.error({ err, key: e.key }, "kv watch handler failed");
          }
        }
      })().catch((err: unknown) => logger.error({ err }, "kv watch ended with an error"));
      return track(async () => {
        iter.stop();
        await loop;
      });
    },
  };
}

function toKvEntry(e: { key: string; value: Uint8Array; revision: number; operation: KvEntry["operation"] }): KvEntry {
  return { key: e.key, value: e.value, revision: e.revision, operation: e.operation };
}

function toConflict(key: string, err: unknown): unknown {
  if (
    isApiError(err, JetStreamApiCodes.StreamWrongLastSequence) ||
    isApiError(err, JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  ) {
    return new KvConflictError(key, `key-value conflict on ${key}: ${(err as Error).message}`);
  }
  return err;
}

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

function toRequestError(subject: string, timeoutMs: number, err: unknown): unknown {
  const cause = err instanceof NatsRequestError && err.cause ? err.cause : err;
  if (cause instanceof NoRespondersError || (err instanceof NatsRequestError && err.isNoResponders())) {
    return new RequestError(subject, "no-responders", `no responders on ${subject}`, { cause: err });
  }
  if (cause instanceof TimeoutError) {
    return new RequestError(subject, "timeout", `no reply on ${subject} within ${timeoutMs} ms`, { cause: err });
  }
  return err;
}

function unsubscribeQuietly(sub: NatsSubscription): void {
  // Already closed when the connection drained first; nothing left to stop then.
  if (!sub.isClosed()) sub.unsubscribe();
}

function toNatsHeaders(h: Record<string, string> | undefined): MsgHdrs | undefined {
  if (!h || Object.keys(h).length === 0) return undefined;
  const out = natsHeaders();
  for (const [k, v] of Object.entries(h)) out.set(k, v);
  return out;
}

function fromNatsHeaders(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const k of h.keys()) out[k] = h.get(k);
  return out;
}

function toBusMessage(m: Msg): BusMessage {
  return { subject: m.subject, data: m.data, headers: fromNatsHeaders(m.headers) };
}
