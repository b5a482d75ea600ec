// The one small messaging interface every service uses. Two adapters implement it: NATS (core NATS for
// ephemeral subjects, JetStream for durable streams and key-value) and an in-process adapter for the
// embedded default. One contract suite (bus.contract.ts) runs against both.

/** A message as a handler sees it. */
export interface BusMessage {
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

/** A durable message; `ack` is implied when the handler resolves, a throw makes it redeliver. */
export interface DurableMessage extends BusMessage {
  /** Position in its stream, starting at 1. */
  seq: number;
  /** How many times it has been delivered, 1 on the first delivery. */
  deliveryCount: number;
}

export interface Subscription {
  /** Stops delivery; resolves once no handler of this subscription runs any more. */
  unsubscribe(): Promise<void>;
}

export interface PublishOptions {
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /** Queue group: each message goes to one member of the group only. */
  queue?: string;
}

export interface DurablePublishOptions extends PublishOptions {
  /** Deduplication id: a second publish with the same id within the window is stored once. */
  msgId?: string;
}

/**
 * A durable stream's limits (JetStream's limits retention: the oldest messages are discarded, whether or not a
 * consumer has read them). A limit left out keeps what the stream has (none for a new stream); 0 removes it.
 */
export interface StreamOptions {
  /** Messages older than this are discarded (JetStream `max_age`). */
  maxAgeMs?: number;
  /**
   * The oldest messages are discarded while the stream holds more than this (JetStream `max_bytes`; a message
   * counts its subject, headers and data plus 16 bytes).
   */
  maxBytes?: number;
  /**
   * A work queue (JetStream's WorkQueue retention): a message is removed once a consumer has acknowledged it, and
   * one consumer at most may read each subject. Fixed when the stream is created: NATS cannot change a stream's
   * retention, so asking an existing stream for another one rejects.
   */
  workQueue?: boolean;
}

/** What a durable stream holds now, and its limits (absent: none). */
export interface StreamInfo {
  messages: number;
  bytes: number;
  /** The sequence of the newest message ever stored (0 before the first). */
  lastSeq: number;
  /** Durable consumers defined on the stream (kept while nobody consumes: a work queue without one holds its jobs). */
  consumers: number;
  maxAgeMs?: number;
  maxBytes?: number;
  /** True for a work queue (`StreamOptions.workQueue`). */
  workQueue?: boolean;
}

export interface ConsumeOptions {
  /** Only subjects matching this filter (wildcards allowed). Default: the whole stream. */
  filterSubject?: string;
  /** Where a new durable consumer starts: "all" (default) or "new". */
  deliver?: "all" | "new";
  /**
   * Wait before redelivering a message whose handler threw; doubles with each failed delivery, capped at
   * 30 s (or at this value when larger). Default 1000.
   */
  redeliveryDelayMs?: number;
  /**
   * How long a delivered message stays with a subscriber that shows no sign of progress (one that died) before it
   * goes to another; a running handler signals progress every third of it. Default 30 000. NATS keeps the value a
   * durable consumer was created with; the in-process bus has no use for it (its subscribers die with it).
   */
  ackWaitMs?: number;
}

/** One stored value of a key-value bucket. */
export interface KvEntry {
  key: string;
  value: Uint8Array;
  /** The bucket-wide revision of this write; compare-and-set takes it. */
  revision: number;
  operation: "PUT" | "DEL" | "PURGE";
}

export interface KvWatchOptions {
  /** Key or wildcard pattern (`room.*`, `>`); default every key. */
  key?: string;
  /** Deliver the current value of each matching key first, then changes. Default true. */
  includeCurrent?: boolean;
}

/** Raised by `create` when the key exists and by `update` when the revision is no longer current. */
export class KvConflictError extends Error {
  constructor(
    readonly key: string,
    message = `key-value conflict on ${key}`,
  ) {
    super(message);
    this.name = "KvConflictError";
  }
}

/**
 * Raised by a key-value operation while the bus cannot reach its server (issue 28): at once when the connection is
 * down (the operation was not sent), or when the connection drops while it is in flight (its outcome is unknown: read
 * again before acting on it). Retryable: the caller tries again when the bus is back.
 */
export class BusUnavailableError extends Error {
  constructor(message = "the message bus cannot be reached, try again") {
    super(message);
    this.name = "BusUnavailableError";
  }
}

/** A key-value bucket. The NATS bucket's operations fail with BusUnavailableError while NATS cannot be reached. */
export interface KvBucket {
  get(key: string): Promise<KvEntry | null>;
  /** Unconditional write; returns the new revision. */
  put(key: string, value: Uint8Array): Promise<number>;
  /** Writes only when the key does not exist (or was deleted); else KvConflictError. */
  create(key: string, value: Uint8Array): Promise<number>;
  /** Compare-and-set: writes only when the key's current revision is `revision`; else KvConflictError. */
  update(key: string, value: Uint8Array, revision: number): Promise<number>;
  delete(key: string): Promise<void>;
  keys(pattern?: string): Promise<string[]>;
  watch(handler: (entry: KvEntry) => void, opts?: KvWatchOptions): Promise<Subscription>;
}

export interface KvBucketOptions {
  /** Values older than this disappear by themselves. Default: kept. */
  ttlMs?: number;
}

export interface Bus {
  /** Ephemeral publish (core NATS): delivered to whoever listens now, else dropped. */
  publish(subject: string, data: Uint8Array, opts?: PublishOptions): Promise<void>;
  /**
   * `*` matches one token, `>` the rest. Resolves once the subscription is in place: a message published
   * afterwards (from any connection) reaches it. Each subscription handles one message at a time, in order.
   */
  subscribe(
    subject: string,
    handler: (msg: BusMessage) => void | Promise<void>,
    opts?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Request/reply; rejects when nobody answers within timeoutMs (default 5000). */
  request(subject: string, data: Uint8Array, opts?: PublishOptions & { timeoutMs?: number }): Promise<BusMessage>;
  /** Answers requests on a subject; a throw answers with an error the requester sees as a rejection. */
  reply(
    subject: string,
    handler: (msg: BusMessage) => Promise<Uint8Array>,
    opts?: SubscribeOptions,
  ): Promise<Subscription>;

  /** Creates or updates a durable stream over these subjects, with its limits (idempotent). */
  ensureStream(name: string, subjects: string[], opts?: StreamOptions): Promise<void>;
  /** A durable stream's state and limits; rejects when there is no such stream. */
  streamInfo(name: string): Promise<StreamInfo>;
  /** Durable publish; resolves once stored. */
  publishDurable(
    subject: string,
    data: Uint8Array,
    opts?: DurablePublishOptions,
  ): Promise<{ seq: number; duplicate: boolean }>;
  /** A named durable consumer: resumes where it left off, at-least-once, in order. */
  consume(
    stream: string,
    durable: string,
    handler: (msg: DurableMessage) => Promise<void>,
    opts?: ConsumeOptions,
  ): Promise<Subscription>;

  /** Opens (creating when absent) a key-value bucket. */
  kv(bucket: string, opts?: KvBucketOptions): Promise<KvBucket>;

  /** True while the bus can carry messages (readiness). */
  healthy(): Promise<boolean>;
  /** Drains subscriptions and closes the connection. */
  close(): Promise<void>;
}
