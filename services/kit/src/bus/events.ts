// Events are protobuf messages that declare their subject (and the field naming their aggregate) with the
// `tt.options.v1.event` option, so the subject is written once, next to its message. `publishEvent` writes
// one into the transactional outbox of the caller's transaction; `consumeEvents` decodes them from a durable
// stream and hands each to its handler once per consumer. Binary on the wire (`toBinary`/`fromBinary`).
//
// The envelope travels in the bus headers, not in a wrapper message: `tt-event-id` (the outbox row id, also
// the JetStream msgId), `tt-occurred-at` (RFC 3339) and `tt-aggregate-id`. The payload is the event alone.
import {
  create,
  fromBinary,
  getOption,
  hasOption,
  ScalarType,
  toBinary,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import type { MigrationObject } from "@mikro-orm/core";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { checkSchemaName } from "../db/schema-name.ts";
import { sql, typedSql, type Tables } from "../db/tables.ts";
import { event as eventOption } from "@tt/proto/tt/options/v1/event_pb";
import type { Bus, ConsumeOptions, DurableMessage, Subscription } from "./bus.ts";
import { defaultBusLogger, type BusLogger } from "./bus-logger.ts";
import {
  AGGREGATE_ID_HEADER,
  enqueue,
  EVENT_ID_HEADER,
  OCCURRED_AT_HEADER,
  outboxRecord,
  type EnqueueOptions,
  type OutboxMessage,
  type OutboxRecord,
} from "./outbox.ts";
import { validateSubject } from "./subject.ts";

/** What the `tt.options.v1.event` option of a message declares. */
export interface EventDeclaration {
  /** `tt.<service>.<entity>.<verb>`. */
  subject: string;
  /** The message field (its proto name) holding the aggregate id. */
  aggregateField: string;
  /** That field's name in the generated TypeScript. */
  aggregateLocalName: string;
  /** The durable stream of the publishing service: `TT_<SERVICE>` (its subjects are `tt.<service>.>`). */
  stream: string;
}

const eventSubjectPattern = /^tt\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;
const declarations = new WeakMap<DescMessage, EventDeclaration>();

/** The stream a service's events are stored in (the user service's is `TT_USER` over `tt.user.>`). */
export function eventStreamOf(service: string): { name: string; subjects: string[] } {
  return { name: `TT_${service.toUpperCase().replace(/-/g, "_")}`, subjects: [`tt.${service}.>`] };
}

/** Reads and checks a message's event option; throws when the message is not a well-declared event. */
export function eventDeclaration(schema: DescMessage): EventDeclaration {
  const known = declarations.get(schema);
  if (known) return known;
  if (!hasOption(schema, eventOption)) {
    throw new Error(`${schema.typeName} is not an event: it has no (tt.options.v1.event) option`);
  }
  const { subject, aggregateField } = getOption(schema, eventOption);
  if (!eventSubjectPattern.test(subject)) {
    throw new Error(`${schema.typeName}: event subject ${JSON.stringify(subject)} is not tt.<service>.<entity>.<verb>`);
  }
  validateSubject(subject);
  const field = schema.fields.find((f) => f.name === aggregateField);
  if (!field || field.fieldKind !== "scalar" || field.scalar !== ScalarType.STRING) {
    throw new Error(`${schema.typeName}: aggregate_field ${JSON.stringify(aggregateField)} is not a string field`);
  }
  const declaration: EventDeclaration = {
    subject,
    aggregateField,
    aggregateLocalName: field.localName,
    stream: eventStreamOf(subject.split(".")[1]!).name,
  };
  declarations.set(schema, declaration);
  return declaration;
}

/**
 * Writes an event into the outbox of `em`: it is stored with the caller's next flush, in the same transaction
 * as the change it announces, and the relay publishes it on the subject its message declares.
 */
export function publishEvent<Desc extends DescMessage>(
  em: EntityManager,
  schema: Desc,
  message: MessageInitShape<Desc>,
  opts: Pick<EnqueueOptions, "headers" | "occurredAt"> = {},
): OutboxMessage {
  const declaration = eventDeclaration(schema);
  const event = create(schema, message);
  const aggregateId = (event as Record<string, unknown>)[declaration.aggregateLocalName];
  return enqueue(em, declaration.subject, toBinary(schema, event), {
    ...opts,
    aggregateId: typeof aggregateId === "string" ? aggregateId : "",
  });
}

/**
 * The outbox row `publishEvent` would write, for a hot path that inserts it with its own SQL in the same
 * statement or transaction as the change it announces (see `outboxRecord`).
 */
export function eventRecord<Desc extends DescMessage>(
  schema: Desc,
  message: MessageInitShape<Desc>,
  opts: Pick<EnqueueOptions, "headers" | "occurredAt"> = {},
): OutboxRecord {
  const declaration = eventDeclaration(schema);
  const event = create(schema, message);
  const aggregateId = (event as Record<string, unknown>)[declaration.aggregateLocalName];
  return outboxRecord(declaration.subject, toBinary(schema, event), {
    ...opts,
    aggregateId: typeof aggregateId === "string" ? aggregateId : "",
  });
}

/** A decoded event's envelope, and the transaction its handler's writes belong to. */
export interface EventContext {
  eventId: string;
  /** Absent when the publisher did not say. */
  occurredAt?: Date;
  aggregateId: string;
  subject: string;
  headers: Record<string, string>;
  deliveryCount: number;
  /** The consumer's transaction: the handler's writes commit together with the "processed" mark. */
  em: EntityManager;
  /**
   * Runs `then` once the transaction has committed (in the order given; never when it rolls back): an ephemeral
   * announcement of what the handler wrote goes out only when it is stored. A `then` that fails is logged.
   */
  afterCommit(then: () => void | Promise<void>): void;
}

export interface ConsumeEventsOptions {
  /** The durable consumer's name; also the key of the processed-events rows (one per consuming purpose). */
  durable: string;
  /** The consuming service's ORM; its schema holds the `processed_event` table (`processedEventsMigration`). */
  orm: MikroORM;
  /** Default: the publishing service's stream (`eventStreamOf`), created when it does not exist yet. */
  stream?: string;
  deliver?: ConsumeOptions["deliver"];
  redeliveryDelayMs?: ConsumeOptions["redeliveryDelayMs"];
  /** Processed-event marks older than this are deleted; default seven days (far beyond any redelivery). */
  keepProcessedMs?: number;
  logger?: BusLogger;
}

export const ProcessedEventSchema = defineEntity({
  name: "ProcessedEvent",
  properties: {
    consumer: p.string().length(255).primary(),
    eventId: p.string().length(255).primary(),
    processedAt: p.datetime().index(),
  },
});

export class ProcessedEvent extends ProcessedEventSchema.class {}
ProcessedEventSchema.setClass(ProcessedEvent);

/**
 * Marks `eventId` as handled by `consumer` in the consuming service's `processed_event` table, in `em`'s
 * transaction: true the first time, false when it was marked before. `at` defaults to the database's now().
 */
export async function markProcessed(em: EntityManager, consumer: string, eventId: string, at?: Date): Promise<boolean> {
  const marked = await typedSql<Tables<[typeof ProcessedEventSchema]>>(em)
    .insertInto("processed_event")
    .values({ consumer, event_id: eventId, processed_at: at ?? sql<Date>`now()` })
    .onConflict((oc) => oc.doNothing())
    .returning("event_id")
    .execute();
  return marked.length > 0;
}

/**
 * Hands each event of `schema` to `handler`, decoded, once per durable consumer. Idempotent by event id: the
 * handler runs in a transaction that also records (consumer, event id) in the consumer's `processed_event`
 * table, so a redelivery (the process died after its commit, before the ack) finds the mark and is acked
 * without running the handler again; a handler that throws rolls its writes and the mark back and the event
 * comes again (JetStream's backoff). A payload that does not decode, or a message without an event id, can
 * never succeed: it is logged and acked, not redelivered forever.
 */
export async function consumeEvents<Desc extends DescMessage>(
  bus: Bus,
  schema: Desc,
  handler: (event: MessageShape<Desc>, ctx: EventContext) => Promise<void>,
  opts: ConsumeEventsOptions,
): Promise<Subscription> {
  const declaration = eventDeclaration(schema);
  const logger = opts.logger ?? defaultBusLogger();
  const keepProcessedMs = opts.keepProcessedMs ?? 7 * 86_400_000;
  let lastPrune = 0;

  const handle = async (m: DurableMessage) => {
    const eventId = m.headers[EVENT_ID_HEADER] ?? m.headers["Nats-Msg-Id"];
    if (!eventId) {
      logger.error({ subject: m.subject, seq: m.seq, durable: opts.durable }, "event without an id dropped");
      return;
    }
    let event: MessageShape<Desc>;
    try {
      event = fromBinary(schema, m.data);
    } catch (err) {
      logger.error({ err, subject: m.subject, eventId, durable: opts.durable }, "undecodable event dropped");
      return;
    }
    const at = m.headers[OCCURRED_AT_HEADER] ? new Date(m.headers[OCCURRED_AT_HEADER]) : undefined;
    const committed: (() => void | Promise<void>)[] = [];
    await opts.orm.em.fork().transactional(async (em) => {
      if (!(await markProcessed(em, opts.durable, eventId, new Date()))) return; // handled before: a redelivery
      await handler(event, {
        eventId,
        ...(at && !Number.isNaN(at.getTime()) ? { occurredAt: at } : {}),
        aggregateId: m.headers[AGGREGATE_ID_HEADER] ?? "",
        subject: m.subject,
        headers: m.headers,
        deliveryCount: m.deliveryCount,
        em,
        afterCommit: (then) => void committed.push(then),
      });
    });
    for (const then of committed) {
      try {
        await then();
      } catch (err) {
        logger.warn({ err, subject: m.subject, eventId, durable: opts.durable }, "an after-commit step failed");
      }
    }
    if (Date.now() - lastPrune > Math.min(keepProcessedMs, 3_600_000)) {
      lastPrune = Date.now();
      // Typed by the entity, like the mark; it runs on the table (the consumer's migration), whether or not the
      // consuming service lists the entity.
      await typedSql<Tables<[typeof ProcessedEventSchema]>>(opts.orm.em.fork())
        .deleteFrom("processed_event")
        .where("processed_at", "<", new Date(Date.now() - keepProcessedMs))
        .execute()
        .catch((err: unknown) => logger.warn({ err }, "pruning processed events failed"));
    }
  };

  if (opts.stream === undefined) {
    // The publishing service creates its stream at start; so does a consumer, so neither has to start first.
    const stream = eventStreamOf(declaration.subject.split(".")[1]!);
    await bus.ensureStream(stream.name, stream.subjects);
  }
  return bus.consume(opts.stream ?? declaration.stream, opts.durable, handle, {
    filterSubject: declaration.subject,
    ...(opts.deliver ? { deliver: opts.deliver } : {}),
    ...(opts.redeliveryDelayMs !== undefined ? { redeliveryDelayMs: opts.redeliveryDelayMs } : {}),
  });
}

export const PROCESSED_EVENTS_MIGRATION_NAME = "Migration20261124140000_processed_events";

/** The `processed_event` table of a service that consumes events (`consumeEvents`), in its schema. */
export function processedEventsMigration(schema: string): MigrationObject {
  checkSchemaName(schema);
  const table = `"${schema}"."processed_event"`;
  class ProcessedEventsMigration extends Migration {
    override name = PROCESSED_EVENTS_MIGRATION_NAME;

    override up(): void {
      this.addSql(
        `create table ${table} ("consumer" varchar(255) not null, "event_id" varchar(255) not null, "processed_at" timestamptz not null, primary key ("consumer", "event_id"));`,
      );
      this.addSql(`create index "processed_event_processed_at_index" on ${table} ("processed_at");`);
    }

    override down(): void {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
  return { name: PROCESSED_EVENTS_MIGRATION_NAME, class: ProcessedEventsMigration };
}
