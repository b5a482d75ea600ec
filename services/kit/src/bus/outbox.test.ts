import { randomBytes } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { Bus, DurableMessage } from "./bus.ts";
import { createNatsBus } from "./nats.ts";
import {
  AGGREGATE_ID_HEADER,
  enqueue,
  EVENT_ID_HEADER,
  OCCURRED_AT_HEADER,
  OutboxMessage,
  OutboxMessageSchema,
  relayOutboxOnce,
  startOutboxRelay,
} from "./outbox.ts";
import { startTestNatsServer, type TestNatsServer } from "./test-nats-server.ts";
import { eventually } from "../testing/eventually.ts";

// The business table the outbox row shares its transaction with.
const NoteSchema = defineEntity({
  name: "Note",
  properties: { id: p.integer().primary(), text: p.string() },
});
class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);

const logger = pino({ level: "silent" });
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const runId = randomBytes(4).toString("hex");
const dbName = `tt_bus_outbox_${runId}`;

async function admin(sql: string): Promise<void> {
  const orm = await MikroORM.init({
    clientUrl: inject("databaseUrl"),
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
  });
  try {
    await orm.em.getConnection().execute(sql);
  } finally {
    await orm.close(true);
  }
}

/** Collects a durable consumer's messages; `waitFor(n)` resolves once n arrived or rejects after a bound. */
async function collect(bus: Bus, stream: string) {
  const items: DurableMessage[] = [];
  let waiter: { n: number; resolve: () => void } | undefined;
  await bus.consume(stream, "check", async (m) => {
    items.push(m);
    if (waiter && items.length >= waiter.n) waiter.resolve();
  });
  return {
    items,
    waitFor: (n: number, timeoutMs = 10_000) =>
      new Promise<DurableMessage[]>((resolve, reject) => {
        if (items.length >= n) return resolve(items);
        const timer = setTimeout(() => reject(new Error(`expected ${n}, got ${items.length}`)), timeoutMs);
        waiter = { n, resolve: () => (clearTimeout(timer), resolve(items)) };
      }),
  };
}

describe("transactional outbox", () => {
  let orm: MikroORM;
  let nats: TestNatsServer;
  let bus: Bus;
  let n = 0;
  // A stream per test, so each test sees only its own events.
  const freshStream = async () => {
    const id = `${runId}_${++n}`;
    await bus.ensureStream(`OUTBOX_${id}`, [`tt.outbox${id}.>`]);
    return { stream: `OUTBOX_${id}`, subject: `tt.outbox${id}.note.created` };
  };

  beforeAll(async () => {
    await admin(`create database "${dbName}"`);
    const url = new URL(inject("databaseUrl"));
    url.pathname = `/${dbName}`;
    orm = await MikroORM.init({ clientUrl: url.toString(), entities: [OutboxMessageSchema, NoteSchema] });
    await orm.schema.create();
    // A private server: one test takes it away, which the shared one must never be.
    nats = await startTestNatsServer();
    bus = await createNatsBus({ url: nats.url, reconnectWaitMs: 100, logger, deployment: "test" });
  });

  afterAll(async () => {
    await bus?.close();
    await nats?.dispose();
    await orm?.close(true);
    await admin(`drop database if exists "${dbName}" with (force)`);
  });

  it("publishes an event committed with the business write, with the row id as msgId, and marks it", async () => {
    const { stream, subject } = await freshStream();
    await orm.em.fork().transactional(async (em) => {
      em.create(Note, { id: 1, text: "hello" });
      enqueue(em, subject, enc("note 1"), { headers: { "x-request-id": "r-1" }, aggregateId: "1" });
    });
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
    const got = await collect(bus, stream);
    const [m] = await got.waitFor(1);
    expect(dec(m!.data)).toBe("note 1");
    expect(m!.headers["x-request-id"]).toBe("r-1");
    const row = await orm.em.fork().findOneOrFail(OutboxMessage, { subject });
    expect(m!.headers["Nats-Msg-Id"]).toBe(row.id);
    // The envelope: event id (the msgId), when it happened, what it is about.
    expect(m!.headers[EVENT_ID_HEADER]).toBe(row.id);
    expect(m!.headers[AGGREGATE_ID_HEADER]).toBe("1");
    expect(Date.parse(m!.headers[OCCURRED_AT_HEADER]!)).toBeLessThanOrEqual(Date.now());
    expect(row.publishedAt).toBeInstanceOf(Date);
    expect(await relayOutboxOnce(orm, bus)).toBe(0);
  });

  it("stores no event when the business transaction rolls back", async () => {
    const { subject } = await freshStream();
    await expect(
      orm.em.fork().transactional(async (em) => {
        em.create(Note, { id: 2, text: "doomed" });
        enqueue(em, subject, enc("note 2"));
        await em.flush();
        throw new Error("business rule failed");
      }),
    ).rejects.toThrow("business rule failed");
    expect(await orm.em.fork().count(OutboxMessage, { subject })).toBe(0);
    expect(await orm.em.fork().count(Note, { id: 2 })).toBe(0);
  });

  it("never duplicates an event published before a crash kept the row unmarked", async () => {
    const { stream, subject } = await freshStream();
    const em = orm.em.fork();
    const row = enqueue(em, subject, enc("once"));
    await em.flush();
    // The earlier relay got as far as publishing, then died before its transaction committed.
    await bus.publishDurable(subject, enc("once"), { msgId: row.id });
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
    await bus.publishDurable(subject, enc("sentinel"));
    const got = await collect(bus, stream);
    expect((await got.waitFor(2)).map((m) => dec(m.data))).toEqual(["once", "sentinel"]);
  });

  it("keeps the row while NATS is away and publishes it in the next round", async () => {
    const { stream, subject } = await freshStream();
    await orm.em.fork().transactional(async (em) => {
      enqueue(em, subject, enc("first"));
    });
    await orm.em.fork().transactional(async (em) => {
      enqueue(em, subject, enc("second"));
    });
    await nats.stop();
    await eventually("bus unhealthy", async () => !(await bus.healthy()));
    expect(await relayOutboxOnce(orm, bus)).toBe(0);
    expect(await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })).toBe(2);

    await nats.start();
    await eventually("bus healthy again", () => bus.healthy());
    expect(await relayOutboxOnce(orm, bus)).toBe(2);
    expect(await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })).toBe(0);
    // The attempt made while away may still reach the server after reconnecting; msgId keeps it single.
    await bus.publishDurable(subject, enc("sentinel"));
    const got = await collect(bus, stream);
    expect((await got.waitFor(3)).map((m) => dec(m.data))).toEqual(["first", "second", "sentinel"]);
  });

  it("relays in the background until its signal aborts", async () => {
    const { stream, subject } = await freshStream();
    const got = await collect(bus, stream);
    const stop = new AbortController();
    const relay = startOutboxRelay({ orm, bus, signal: stop.signal, batchSize: 10, logger });
    await orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < 25; i++) enqueue(em, subject, enc(`e${i}`));
    });
    relay.wake();
    const all = await got.waitFor(25);
    expect(all.map((m) => dec(m.data))).toEqual(Array.from({ length: 25 }, (_, i) => `e${i}`));
    stop.abort();
    await relay.stopped;
    expect(await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })).toBe(0);
  });

  it("issue 10: two relays on one schema keep each aggregate's order, publish none twice and lose none", async () => {
    const { stream, subject } = await freshStream();
    const got = await collect(bus, stream);
    // A second service instance on the same schema: its own connection pool, NATS connection and relay.
    const url = new URL(inject("databaseUrl"));
    url.pathname = `/${dbName}`;
    const orm2 = await MikroORM.init({ clientUrl: url.toString(), entities: [OutboxMessageSchema, NoteSchema] });
    const bus2 = await createNatsBus({ url: nats.url, logger, deployment: "test" });
    const stop = new AbortController();
    // Small batches and short pauses make the two relays contend as often as possible.
    const relays = [
      startOutboxRelay({ orm, bus, signal: stop.signal, batchSize: 3, intervalMs: 5, logger }),
      startOutboxRelay({ orm: orm2, bus: bus2, signal: stop.signal, batchSize: 3, intervalMs: 5, logger }),
    ];
    const instances = [orm, orm2];
    const aggregates = ["a", "b", "c", "d"];
    const perAggregate = 40;
    try {
      // Each aggregate's events are enqueued one transaction after the other, alternating instances, while
      // the aggregates run concurrently: a burst that both relays see at once.
      await Promise.all(
        aggregates.map(async (aggregate, a) => {
          for (let i = 0; i < perAggregate; i++) {
            const k = (a + i) % 2;
            await instances[k]!.em.fork().transactional(async (em) => {
              enqueue(em, subject, enc(`${aggregate}:${i}`), { aggregateId: aggregate });
            });
            relays[k]!.wake();
          }
        }),
      );
      const total = aggregates.length * perAggregate;
      await got.waitFor(total);
      // A sentinel after everything: whatever arrived twice would be before it.
      await eventually(
        "outbox drained",
        async () => (await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })) === 0,
      );
      await bus.publishDurable(subject, enc("sentinel"));
      const all = (await got.waitFor(total + 1)).map((m) => dec(m.data));
      expect(all.at(-1)).toBe("sentinel");
      expect(all).toHaveLength(total + 1);
      for (const aggregate of aggregates) {
        const seen = all.filter((d) => d.startsWith(`${aggregate}:`)).map((d) => Number(d.split(":")[1]));
        expect(seen, `order of aggregate ${aggregate}`).toEqual(Array.from({ length: perAggregate }, (_, i) => i));
      }
    } finally {
      stop.abort();
      await Promise.all(relays.map((r) => r.stopped));
      await bus2.close();
      await orm2.close(true);
    }
  });

  it("skips a round while another relay of the schema holds the lock", async () => {
    const { subject } = await freshStream();
    await orm.em.fork().transactional(async (em) => {
      enqueue(em, subject, enc("waits"));
    });
    // Another instance is in the middle of a round: it holds the schema's relay lock.
    const held = orm.em.fork();
    await held.begin();
    try {
      const [r] = await held.execute<{ locked: boolean }[]>("select pg_try_advisory_xact_lock(hashtext(?)) as locked", [
        "tt-outbox-relay:public",
      ]);
      expect(r!.locked).toBe(true);
      expect(await relayOutboxOnce(orm, bus)).toBe(-1);
      expect(await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })).toBe(1);
    } finally {
      await held.rollback();
    }
    // Its transaction ended: the lock is free again.
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
  });

  it("frees the lock when the relay holding it loses its connection, and the other relay takes over", async () => {
    const { subject } = await freshStream();
    await orm.em.fork().transactional(async (em) => {
      enqueue(em, subject, enc("after the loss"));
    });
    // Another instance's relay, in the middle of a round on a connection of its own.
    const url = new URL(inject("databaseUrl"));
    url.pathname = `/${dbName}`;
    const other = new pg.Client({ connectionString: url.toString() });
    other.on("error", () => undefined);
    await other.connect();
    try {
      await other.query("begin");
      const { rows } = await other.query<{ locked: boolean; pid: number }>(
        "select pg_try_advisory_xact_lock(hashtext($1)) as locked, pg_backend_pid() as pid",
        ["tt-outbox-relay:public"],
      );
      expect(rows[0]!.locked).toBe(true);
      expect(await relayOutboxOnce(orm, bus)).toBe(-1);
      // Its connection is cut (the server process ends, as on a network loss the server notices).
      await orm.em.fork().execute("select pg_terminate_backend(?)", [rows[0]!.pid]);
      await expect(other.query("commit")).rejects.toThrow();
      // The ended backend gives its lock back as it exits, which may be just after its socket closed: the next
      // round that gets the lock relays the message (until then a round answers -1, never 0).
      await expect.poll(() => relayOutboxOnce(orm, bus), { timeout: 10_000, interval: 20 }).toBe(1);
    } finally {
      await other.end().catch(() => undefined);
    }
  });
});
