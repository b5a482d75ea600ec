// Key-value buckets of the in-process bus, with JetStream KV's rules: one revision counter per bucket,
// deletes are markers with their own revision, compare-and-set against a key's last revision, and a ttl
// that removes values (and markers) older than it without telling watchers.
import { KvConflictError } from "./bus.ts";
import type { KvBucket, KvBucketOptions, KvEntry, KvWatchOptions, Subscription } from "./bus.ts";
import type { BusLogger } from "./bus-logger.ts";
import { SerialQueue } from "./serial-queue.ts";
import { subjectMatches, validateSubject } from "./subject.ts";

interface Stored extends KvEntry {
  at: number;
}

interface Watcher {
  pattern: string;
  queue: SerialQueue;
  handler: (entry: KvEntry) => void;
}

// The same rules as @nats-io/kv, so a key that works in-process also works against NATS.
const validKey = /^[-/_=.a-zA-Z0-9]+$/;
const validBucket = /^[-\w]+$/;

export function validateKvKey(key: string): void {
  if (!validKey.test(key) || key.startsWith(".") || key.endsWith(".") || key.includes("..")) {
    throw new Error(`invalid key: ${key}`);
  }
}

export function validateBucketName(name: string): void {
  if (!validBucket.test(name)) throw new Error(`invalid bucket name: ${name}`);
}

class MemoryBucket implements KvBucket {
  #revision = 0;
  readonly #entries = new Map<string, Stored>();
  readonly #watchers = new Set<Watcher>();

  constructor(
    private readonly ttlMs: number | undefined,
    private readonly logger: BusLogger,
    private readonly assertOpen: () => void,
  ) {}

  #last(key: string): Stored | undefined {
    const entry = this.#entries.get(key);
    if (entry && this.ttlMs !== undefined && Date.now() - entry.at >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key: string, value: Uint8Array, operation: KvEntry["operation"]): number {
    const revision = ++this.#revision;
    const stored: Stored = { key, value, revision, operation, at: Date.now() };
    this.#entries.set(key, stored);
    for (const w of this.#watchers) {
      if (subjectMatches(w.pattern, key)) w.queue.push(() => w.handler(copy(stored)));
    }
    return revision;
  }

  async get(key: string): Promise<KvEntry | null> {
    this.assertOpen();
    validateKvKey(key);
    const entry = this.#last(key);
    return entry?.operation === "PUT" ? copy(entry) : null;
  }

  async put(key: string, value: Uint8Array): Promise<number> {
    this.assertOpen();
    validateKvKey(key);
    return this.#write(key, value.slice(), "PUT");
  }

  async create(key: string, value: Uint8Array): Promise<number> {
    this.assertOpen();
    validateKvKey(key);
    if (this.#last(key)?.operation === "PUT") throw new KvConflictError(key, `key ${key} already exists`);
    return this.#write(key, value.slice(), "PUT");
  }

  async update(key: string, value: Uint8Array, revision: number): Promise<number> {
    this.assertOpen();
    validateKvKey(key);
    const current = this.#last(key)?.revision ?? 0;
    if (current !== revision) {
      throw new KvConflictError(key, `key ${key} is at revision ${current}, not ${revision}`);
    }
    return this.#write(key, value.slice(), "PUT");
  }

  async delete(key: string): Promise<void> {
    this.assertOpen();
    validateKvKey(key);
    this.#write(key, new Uint8Array(), "DEL");
  }

  async keys(pattern = ">"): Promise<string[]> {
    this.assertOpen();
    validateSubject(pattern, { wildcards: true });
    return [...this.#entries.keys()].filter((k) => this.#last(k)?.operation === "PUT" && subjectMatches(pattern, k));
  }

  async watch(handler: (entry: KvEntry) => void, opts: KvWatchOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const pattern = opts.key ?? ">";
    validateSubject(pattern, { wildcards: true });
    const watcher: Watcher = {
      pattern,
      handler,
      queue: new SerialQueue((err) => this.logger.error({ err }, "kv watch handler failed")),
    };
    if (opts.includeCurrent ?? true) {
      const current = [...this.#entries.keys()]
        .map((k) => this.#last(k))
        .filter((e): e is Stored => e?.operation === "PUT" && subjectMatches(pattern, e.key))
        .sort((a, b) => a.revision - b.revision);
      for (const entry of current) watcher.queue.push(() => handler(copy(entry)));
    }
    this.#watchers.add(watcher);
    return {
      unsubscribe: async () => {
        this.#watchers.delete(watcher);
        await watcher.queue.close();
      },
    };
  }

  async closeWatchers(): Promise<void> {
    const watchers = [...this.#watchers];
    this.#watchers.clear();
    await Promise.all(watchers.map((w) => w.queue.close()));
  }
}

function copy(entry: Stored): KvEntry {
  return { key: entry.key, value: entry.value.slice(), revision: entry.revision, operation: entry.operation };
}

export class MemoryKv {
  readonly #buckets = new Map<string, MemoryBucket>();

  constructor(
    private readonly logger: BusLogger,
    private readonly assertOpen: () => void,
  ) {}

  /** Options apply when the bucket is created; opening it again keeps them (as with an existing NATS bucket). */
  open(name: string, opts: KvBucketOptions = {}): KvBucket {
    validateBucketName(name);
    let bucket = this.#buckets.get(name);
    if (!bucket) {
      bucket = new MemoryBucket(opts.ttlMs, this.logger, this.assertOpen);
      this.#buckets.set(name, bucket);
    }
    return bucket;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#buckets.values()].map((b) => b.closeWatchers()));
  }
}
