import { randomBytes } from "node:crypto";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { defineEntity, p } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { UserImageSchema } from "@tt/proto/tt/user/v1/user_pb";
import { UserCreatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { initOrm, migrateUp } from "../db/orm.ts";
import type { Bus } from "./bus.ts";
import {
  consumeEvents,
  eventDeclaration,
  eventStreamOf,
  ProcessedEvent,
  ProcessedEventSchema,
  processedEventsMigration,
  publishEvent,
  type EventContext,
} from "./events.ts";
import { createMemoryBus } from "./memory.ts";
import { createNatsBus } from "./nats.ts";
import { startTestNatsServer, type TestNatsServer } from "./test-nats-server.ts";
import {
  AGGREGATE_ID_HEADER,
  EVENT_ID_HEADER,
  OCCURRED_AT_HEADER,
  OutboxMessageSchema,
  outboxMigration,
  relayOutboxOnce,
} from "./outbox.ts";
import { eventually } from "../testing/eventually.ts";

// What a consuming service writes when it handles an event: one row per handling.
const HandledSchema = defineEntity({
  name: "Handled",
  properties: { id: p.integer().primary().autoincrement(), eventId: p.string(), nickname: p.string() },
});
class Handled extends HandledSchema.class {}
HandledSchema.setClass(Handled);

const logger = pino({ level: "silent" });
const runId = randomBytes(4).toString("hex");
// A schema of its own, migrated by the kit's generic migrations: any service can list them.
// Both buses: NATS (distributed) and the in-process one (all-in-one), each with its own schema.
describe.each([
  ["NATS", "nats"],
  ["in-process", "memory"],
] as const)("protobuf events on the %s bus", (_, kind) => {
  const schema = `tt_events_${kind}_${runId}`;
  let orm: MikroORM;
  let nats: TestNatsServer | undefined;
  let bus: Bus;
  const stream = eventStreamOf("user");
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${runId}${String(++n).padStart(4, "0")}`;

  /** Publishes a UserCreated through the outbox and the relay; returns its event id. */
  const publish = async (nickname: string, aggregate = uuid()) => {
    const row = await orm.em.fork().transactional(async (em) =>
      publishEvent(em, UserCreatedSchema, {
        uuid: aggregate,
        role: "user",
        nickname,
        createdAt: timestampFromDate(new Date()),
      }),
    );
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
    return row;
  };

  /** A consumer that records what it handled (in its own table, in the handler's transaction). */
  const consumer = async (durable: string, opts: { failFirst?: string } = {}) => {
    const waiters = new Map<string, () => void>();
    const failed = new Set<string>();
    const sub = await consumeEvents(
      bus,
      UserCreatedSchema,
      async (event, ctx: EventContext) => {
        ctx.em.create(Handled, { eventId: ctx.eventId, nickname: event.nickname });
        await ctx.em.flush();
        if (event.nickname === opts.failFirst && !failed.has(ctx.eventId)) {
          failed.add(ctx.eventId);
          throw new Error("the handler failed once");
        }
        waiters.get(event.nickname)?.();
      },
      { durable, orm, logger, redeliveryDelayMs: 20 },
    );
    return {
      sub,
      handled: (nickname: string) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${nickname} not handled`)), 10_000);
          waiters.set(nickname, () => (clearTimeout(timer), resolve()));
        }),
    };
  };

  const handledRows = (eventId: string) => orm.em.fork().count(Handled, { eventId });
  // The handler signals from inside its transaction; the rows are visible once it commits.
  const committed = (eventId: string) =>
    eventually(`${eventId} committed`, async () => (await handledRows(eventId)) > 0);

  beforeAll(async () => {
    orm = await initOrm({
      url: inject("databaseUrl"),
      schema,
      entities: [OutboxMessageSchema, ProcessedEventSchema, HandledSchema],
      migrations: [outboxMigration(schema), processedEventsMigration(schema)],
    });
    await migrateUp(orm);
    await orm.em
      .getConnection()
      .execute(
        `create table "${schema}"."handled" ("id" serial primary key, "event_id" varchar(255) not null, "nickname" varchar(255) not null)`,
      );
    // A private server: the user service's stream here holds this file's events only.
    if (kind === "nats") {
      nats = await startTestNatsServer();
      bus = await createNatsBus({ url: nats.url, logger, deployment: "test" });
    } else {
      bus = createMemoryBus({ logger });
    }
    await bus.ensureStream(stream.name, stream.subjects);
  });

  afterAll(async () => {
    await bus?.close();
    await nats?.dispose();
    await orm?.em.getConnection().execute(`drop schema if exists "${schema}" cascade`);
    await orm?.close(true);
  });

  it("the kit's outbox and processed-events migrations give exactly the entities' tables, in any schema", async () => {
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: true });
    expect(diff.trim()).toBe("");
  });

  it("reads the subject and the aggregate field from the message's option", () => {
    expect(eventDeclaration(UserCreatedSchema)).toMatchObject({
      subject: "tt.user.user.created",
      aggregateField: "uuid",
      stream: "TT_USER",
    });
    expect(stream).toEqual({ name: "TT_USER", subjects: ["tt.user.>"] });
    expect(() => eventDeclaration(UserImageSchema)).toThrow(/not an event/);
  });

  it("publishes binary through the outbox with the envelope in the headers; the consumer gets the typed message", async () => {
    const got: { nickname: string; ctx: Omit<EventContext, "em"> }[] = [];
    let arrived!: () => void;
    const done = new Promise<void>((resolve) => (arrived = resolve));
    const sub = await consumeEvents(
      bus,
      UserCreatedSchema,
      async (event, { em: _em, ...ctx }) => {
        got.push({ nickname: event.nickname, ctx });
        arrived();
      },
      { durable: "typed", orm, logger },
    );
    try {
      const aggregate = uuid();
      const row = await publish("dj typed", aggregate);
      expect(fromBinary(UserCreatedSchema, row.payload).nickname).toBe("dj typed");
      expect(row.payload).toEqual(toBinary(UserCreatedSchema, fromBinary(UserCreatedSchema, row.payload)));
      await done;
      expect(got).toHaveLength(1);
      expect(got[0]!.nickname).toBe("dj typed");
      expect(got[0]!.ctx).toMatchObject({ eventId: row.id, aggregateId: aggregate, subject: "tt.user.user.created" });
      expect(got[0]!.ctx.headers[EVENT_ID_HEADER]).toBe(row.id);
      expect(got[0]!.ctx.headers[AGGREGATE_ID_HEADER]).toBe(aggregate);
      expect(got[0]!.ctx.occurredAt?.toISOString()).toBe(row.headers?.[OCCURRED_AT_HEADER]);
    } finally {
      await sub.unsubscribe();
    }
  });

  it("issue 10: a redelivered event is handled once per consumer", async () => {
    const c = await consumer("once");
    try {
      const first = c.handled("dj once");
      const row = await publish("dj once");
      await first;
      // The same event again, as a relay that republished it after the stream's duplicate window would
      // (a new msgId, the same event id), then a sentinel: the consumer works in order, so once the sentinel
      // is handled, the copy was seen before it.
      await bus.publishDurable("tt.user.user.created", row.payload, {
        msgId: `${row.id}-again`,
        headers: row.headers!,
      });
      const sentinel = c.handled("dj sentinel");
      const sentinelRow = await publish("dj sentinel");
      await sentinel;
      await committed(sentinelRow.id);
      expect(await handledRows(row.id)).toBe(1);
      expect(await orm.em.fork().count(ProcessedEvent, { consumer: "once", eventId: row.id })).toBe(1);
    } finally {
      await c.sub.unsubscribe();
    }
  });

  it("a handler that throws rolls its writes back and gets the event again, which is then handled once", async () => {
    const c = await consumer("retry", { failFirst: "dj retry" });
    try {
      const handled = c.handled("dj retry");
      const row = await publish("dj retry");
      await handled;
      await committed(row.id);
      expect(await handledRows(row.id)).toBe(1);
    } finally {
      await c.sub.unsubscribe();
    }
  });

  it("issue 28: afterCommit steps run once the handler's writes are committed, never for an attempt that rolled back", async () => {
    const seen: { attempt: number; rows: number }[] = [];
    let attempts = 0;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const sub = await consumeEvents(
      bus,
      UserCreatedSchema,
      async (event, ctx) => {
        if (event.nickname !== "dj after commit") return;
        attempts += 1;
        const attempt = attempts;
        ctx.em.create(Handled, { eventId: ctx.eventId, nickname: event.nickname });
        await ctx.em.flush();
        // Seen from another connection: the row is there only once the handler's transaction committed.
        ctx.afterCommit(async () => {
          seen.push({ attempt, rows: await handledRows(ctx.eventId) });
          done();
        });
        if (attempt === 1) throw new Error("the first attempt fails");
      },
      { durable: "after-commit", orm, logger, redeliveryDelayMs: 20 },
    );
    try {
      await publish("dj after commit");
      await finished;
      expect(seen).toEqual([{ attempt: 2, rows: 1 }]);
    } finally {
      await sub.unsubscribe();
    }
  });

  it("drops a payload that does not decode (logged) instead of redelivering it forever", async () => {
    const c = await consumer("poison");
    try {
      await bus.publishDurable("tt.user.user.created", new Uint8Array([0xff, 0xff, 0xff]), {
        headers: { [EVENT_ID_HEADER]: "poison-1" },
      });
      const next = c.handled("dj after poison");
      const row = await publish("dj after poison");
      await next;
      await committed(row.id);
      expect(await handledRows(row.id)).toBe(1);
      expect(await handledRows("poison-1")).toBe(0);
    } finally {
      await c.sub.unsubscribe();
    }
  });

  it("consumes a service's events before that service has created its stream", async () => {
    // A server or in-process bus where nobody has created TT_USER yet: the consumer starts first.
    const server = kind === "nats" ? await startTestNatsServer() : undefined;
    const fresh = server
      ? await createNatsBus({ url: server.url, logger, deployment: "test" })
      : createMemoryBus({ logger });
    try {
      let got!: (nickname: string) => void;
      const arrived = new Promise<string>((resolve) => (got = resolve));
      const sub = await consumeEvents(fresh, UserCreatedSchema, async (e) => got(e.nickname), {
        durable: "first",
        orm,
        logger,
      });
      const payload = toBinary(UserCreatedSchema, create(UserCreatedSchema, { nickname: "early" }));
      await fresh.publishDurable("tt.user.user.created", payload, { headers: { [EVENT_ID_HEADER]: `early-${runId}` } });
      await expect(arrived).resolves.toBe("early");
      await sub.unsubscribe();
    } finally {
      await fresh.close();
      await server?.dispose();
    }
  });

  it("deletes processed-event marks older than keepProcessedMs", async () => {
    let handled!: () => void;
    let arrived = new Promise<void>((resolve) => (handled = resolve));
    const sub = await consumeEvents(bus, UserCreatedSchema, async () => handled(), {
      durable: "pruned",
      orm,
      logger,
      keepProcessedMs: 1,
    });
    try {
      const first = await publish("dj pruned 1");
      await arrived;
      arrived = new Promise<void>((resolve) => (handled = resolve));
      await publish("dj pruned 2");
      await arrived;
      await eventually(
        "first mark pruned",
        async () => (await orm.em.fork().count(ProcessedEvent, { consumer: "pruned", eventId: first.id })) === 0,
      );
    } finally {
      await sub.unsubscribe();
    }
  });

  it("publishes an event created by `create` as it is", async () => {
    const message = create(UserCreatedSchema, { uuid: uuid(), nickname: "made" });
    const row = await orm.em.fork().transactional(async (em) => publishEvent(em, UserCreatedSchema, message));
    expect(fromBinary(UserCreatedSchema, row.payload)).toEqual(message);
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
  });
});
