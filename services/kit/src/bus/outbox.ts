// Transactional outbox: an event that must not be lost is written as a row in the same database transaction
// as the business change, and a relay publishes it to a durable stream afterwards. The row id is the
// JetStream msgId, so a relay that dies between publishing and marking the row republishes it next round
// and the stream stores it once (within the stream's duplicate window, two minutes by default).
//
// Order: the events of an aggregate (the entity an event is about, named by its `tt-aggregate-id` header)
// leave in the order they were enqueued, whatever the number of replicas. Only one relay of a schema
// publishes at a time: a round runs inside a transaction that first takes a PostgreSQL advisory lock derived
// from the schema (`pg_try_advisory_xact_lock`); a relay that does not get it skips the round. The lock
// lives and dies with the round's transaction on its own connection, so a relay whose connection is lost
// loses the lock at once (the server ends the transaction), nothing marks rows without holding it, and the
// next round retakes it on a fresh connection. One publisher reading the unpublished rows by `seq` gives a
// total order per schema, which keeps every aggregate's order; a relay that kept publishing after losing its
// connection only repeats rows, in the same order, which the msgId deduplicates.
import { randomUUID } from "node:crypto";
import type { MigrationObject } from "@mikro-orm/core";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { checkSchemaName } from "../db/schema-name.ts";
import { tryAdvisoryXactLock } from "../db/tables.ts";
import type { Bus } from "./bus.ts";
import { defaultBusLogger, type BusLogger } from "./bus-logger.ts";
import { validateSubject } from "./subject.ts";

export const OutboxMessageSchema = defineEntity({
  name: "OutboxMessage",
  properties: {
    // A uuid, not a serial: it is the msgId, and services sharing a stream must never reuse one.
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    // Insertion order: events of one transaction share a timestamp, and uuids are random.
    seq: p.bigint("number").autoincrement().unique(),
    subject: p.string().length(255),
    payload: p.uint8array(),
    headers: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable().index(),
  },
});

export class OutboxMessage extends OutboxMessageSchema.class {}
OutboxMessageSchema.setClass(OutboxMessage);

/** The envelope of every event, in the bus headers (the payload is the event message alone). */
export const EVENT_ID_HEADER = "tt-event-id";
export const OCCURRED_AT_HEADER = "tt-occurred-at";
export const AGGREGATE_ID_HEADER = "tt-aggregate-id";

export interface EnqueueOptions {
  /** Extra headers (the envelope headers are set by `enqueue`). */
  headers?: Record<string, string>;
  /** The entity the event is about; its events keep their order. Default: empty (the schema's order only). */
  aggregateId?: string;
  /** When it happened; default now. */
  occurredAt?: Date;
}

/**
 * Adds an event to the outbox. Call it with the EntityManager of the transaction that makes the business
 * change (inside `em.transactional`), so the event is stored exactly when the change commits. Services call
 * `publishEvent` (typed, protobuf); this is the untyped layer under it.
 */
export function enqueue(
  em: EntityManager,
  subject: string,
  data: Uint8Array,
  opts: EnqueueOptions = {},
): OutboxMessage {
  return em.create(OutboxMessage, outboxRecord(subject, data, opts));
}

/** An outbox row's values (`seq`, `created_at` and `published_at` aside), with its envelope headers. */
export interface OutboxRecord {
  id: string;
  subject: string;
  payload: Uint8Array;
  headers: Record<string, string>;
}

/**
 * The row `enqueue` stores, for a hot path that inserts it with its own SQL in the statement or transaction of
 * the change it announces (`created_at` now, `published_at` null); the relay publishes it like any other.
 */
export function outboxRecord(subject: string, data: Uint8Array, opts: EnqueueOptions = {}): OutboxRecord {
  validateSubject(subject);
  const id = randomUUID();
  const headers: Record<string, string> = {
    ...opts.headers,
    [EVENT_ID_HEADER]: id,
    [OCCURRED_AT_HEADER]: (opts.occurredAt ?? new Date()).toISOString(),
    [AGGREGATE_ID_HEADER]: opts.aggregateId ?? "",
  };
  return { id, subject, payload: data, headers };
}

/**
 * Publishes up to `batchSize` unpublished rows, oldest first, and marks them, while holding the schema's relay
 * lock. Stops at the first failed publish, so events leave in order and the failed one is the first of the
 * next round. Returns how many were published, or -1 when another relay holds the lock (it publishes).
 */
export async function relayOutboxOnce(orm: MikroORM, bus: Bus, batchSize = 100, logger?: BusLogger): Promise<number> {
  const schema = orm.config.get("schema") ?? "public";
  return orm.em.fork().transactional(async (em) => {
    // The schema's relay lock (a bigint, from the schema's name).
    if (!(await tryAdvisoryXactLock(em, `tt-outbox-relay:${schema}`))) return -1;
    const rows = await em.find(OutboxMessage, { publishedAt: null }, { orderBy: { seq: "asc" }, limit: batchSize });
    let published = 0;
    for (const row of rows) {
      try {
        await bus.publishDurable(row.subject, row.payload, { msgId: row.id, headers: row.headers ?? undefined });
      } catch (err) {
        logger?.warn({ err, id: row.id, subject: row.subject }, "outbox publish failed; retrying next round");
        break;
      }
      row.publishedAt = new Date();
      published++;
    }
    return published;
  });
}

export interface OutboxRelayOptions {
  orm: MikroORM;
  bus: Bus;
  /** Aborting stops the relay after the round in progress. */
  signal: AbortSignal;
  /** Rows per round (one transaction); default 100. */
  batchSize?: number;
  /** Pause between rounds that found nothing (or failed); default 500. */
  intervalMs?: number;
  /** Published rows older than this are deleted; default one day. */
  keepPublishedMs?: number;
  logger?: BusLogger;
}

export interface OutboxRelay {
  /** Starts a round now instead of at the end of the pause (call after committing an enqueue). */
  wake(): void;
  /** Settles when the relay has stopped after `signal` aborted. */
  stopped: Promise<void>;
}

export function startOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { orm, bus, signal } = opts;
  const batchSize = opts.batchSize ?? 100;
  const intervalMs = opts.intervalMs ?? 500;
  const keepPublishedMs = opts.keepPublishedMs ?? 86_400_000;
  const logger = opts.logger ?? defaultBusLogger();
  let wake: (() => void) | undefined;
  let woken = false;

  const pause = () =>
    new Promise<void>((resolve) => {
      if (woken || signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, intervalMs);
      signal.addEventListener("abort", done);
      wake = done;
    });

  const stopped = (async () => {
    let lastCleanup = 0;
    while (!signal.aborted) {
      woken = false;
      let published = 0;
      try {
        // -1: another replica holds the lock and publishes; this one tries again after the pause.
        published = await relayOutboxOnce(orm, bus, batchSize, logger);
        if (Date.now() - lastCleanup > Math.min(keepPublishedMs, 3_600_000)) {
          lastCleanup = Date.now();
          await orm.em
            .fork()
            .nativeDelete(OutboxMessage, { publishedAt: { $lt: new Date(Date.now() - keepPublishedMs) } });
        }
      } catch (err) {
        logger.error({ err }, "outbox relay round failed");
      }
      // A full batch means more may be waiting: go again at once.
      if (published < batchSize) await pause();
    }
  })();

  return {
    wake() {
      woken = true;
      wake?.();
    },
    stopped,
  };
}

export const OUTBOX_MIGRATION_NAME = "Migration20261122050000_outbox";

/**
 * The outbox table's migration for a service's schema; every service that publishes events lists it. Its
 * name is the one the user service applied first, so databases that already have the table keep it.
 */
export function outboxMigration(schema: string): MigrationObject {
  checkSchemaName(schema);
  const table = `"${schema}"."outbox_message"`;
  class OutboxMigration extends Migration {
    override name = OUTBOX_MIGRATION_NAME;

    override up(): void {
      this.addSql(
        `create table ${table} ("id" uuid not null, "seq" bigserial, "subject" varchar(255) not null, "payload" bytea not null, "headers" jsonb null, "created_at" timestamptz not null, "published_at" timestamptz null, primary key ("id"));`,
      );
      this.addSql(`alter table ${table} add constraint "outbox_message_seq_unique" unique ("seq");`);
      this.addSql(`create index "outbox_message_published_at_index" on ${table} ("published_at");`);
    }

    override down(): void {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
  return { name: OUTBOX_MIGRATION_NAME, class: OutboxMigration };
}
