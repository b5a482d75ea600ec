// The host gives every service that lists the outbox migration its stream and its relay (issue 10): a service
// only writes events; none has to remember to start the relay or create the stream in its create().
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { DurableMessage } from "./bus/bus.ts";
import { eventStreamOf, ProcessedEventSchema, processedEventsMigration } from "./bus/events.ts";
import { enqueue, OutboxMessageSchema, outboxMigration } from "./bus/outbox.ts";
import type { ServiceDefinition } from "./service.ts";
import { createServiceHarness } from "./testing/service-harness.ts";

/** A service with events and nothing else: no RPCs, no relay or stream of its own. */
const outboxed: ServiceDefinition = {
  name: "outboxed",
  services: [],
  entities: [OutboxMessageSchema],
  migrations: [outboxMigration("outboxed")],
  async create() {
    return { routes() {} };
  },
};

/** A logger whose warnings and errors the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: "warn" }, sink), lines };
}

describe("the host runs the outbox of a service that lists its migration", () => {
  it("issue 10: creates the service's stream and relays what the service writes to its outbox", async () => {
    const { logger, lines } = capturedLogger();
    const h = await createServiceHarness(outboxed, { bus: "memory", network: false, logger });
    try {
      const received = new Promise<DurableMessage>((resolve) => {
        void h.bus.consume(eventStreamOf("outboxed").name, "probe", async (m) => resolve(m));
      });
      const row = await h.orm.em
        .fork()
        .transactional(async (em) => enqueue(em, "tt.outboxed.thing.done", new TextEncoder().encode("hello")));
      const message = await received;
      expect(message.subject).toBe("tt.outboxed.thing.done");
      expect(new TextDecoder().decode(message.data)).toBe("hello");
      expect(message.headers["tt-event-id"]).toBe(row.id);
      // A backlog of full batches keeps the relay in a round (it goes again at once) while the host closes.
      await h.orm.em.fork().transactional(async (em) => {
        for (let i = 0; i < 500; i++) enqueue(em, "tt.outboxed.thing.done", new Uint8Array([i % 256]));
      });
    } finally {
      await h.close();
    }
    // close() stopped the relay before closing the ORM it reads: no round failed on a closed pool.
    expect(lines.join("")).not.toMatch(/outbox relay round failed/);
  });

  it("issue 10: the outbox and processed-events tables, listed as docs/new-service.md says, match their entities", async () => {
    const h = await createServiceHarness(
      {
        ...outboxed,
        entities: [OutboxMessageSchema, ProcessedEventSchema],
        migrations: [outboxMigration("outboxed"), processedEventsMigration("outboxed")],
      },
      { bus: "memory", network: false },
    );
    try {
      expect(await h.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe("");
    } finally {
      await h.close();
    }
  });

  it("issue 10: refuses to start a service that lists the outbox migration without its entity, or the reverse", async () => {
    await expect(
      createServiceHarness({ ...outboxed, entities: [] }, { bus: "memory", network: false }),
    ).rejects.toThrow("outboxed lists outboxMigration but not the OutboxMessageSchema entity");
    await expect(
      createServiceHarness({ ...outboxed, migrations: [] }, { bus: "memory", network: false }),
    ).rejects.toThrow('outboxed lists the OutboxMessageSchema entity but not outboxMigration("outboxed")');
  });
});
