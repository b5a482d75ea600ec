import { randomBytes } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { MikroORM } from "@mikro-orm/postgresql";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { Bus, DurableMessage } from "./bus.ts";
import { createNatsBus } from "./nats.ts";
import { enqueue, OutboxMessage, OutboxMessageSchema, relayOutboxOnce, startOutboxRelay } from "./outbox.ts";
import { eventually, startTestNatsServer, type TestNatsServer } from "./test-nats-server.ts";

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
    bus = await createNatsBus({ url: nats.url, reconnectWaitMs: 100, logger });
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
      enqueue(em, subject, enc("note 1"), { "x-request-id": "r-1" });
    });
    expect(await relayOutboxOnce(orm, bus)).toBe(1);
    const got = await collect(bus, stream);
    const [m] = await got.waitFor(1);
    expect(dec(m!.data)).toBe("note 1");
    expect(m!.headers["x-request-id"]).toBe("r-1");
    const row = await orm.em.fork().findOneOrFail(OutboxMessage, { subject });
    expect(m!.headers["Nats-Msg-Id"]).toBe(row.id);
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
    await eventually(async () => !(await bus.healthy()), "bus unhealthy");
    expect(await relayOutboxOnce(orm, bus)).toBe(0);
    expect(await orm.em.fork().count(OutboxMessage, { subject, publishedAt: null })).toBe(2);

    await nats.start();
    await eventually(() => bus.healthy(), "bus healthy again");
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
});
