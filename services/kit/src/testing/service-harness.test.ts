// createServiceHarness on the kit's example service (docs/new-service.md): a definition started on real
// PostgreSQL and NATS, called in-process, over the network and directly, as every token type. The example
// calls the user service, which the kit cannot run: here it is configured at an address where nothing listens
// (tests/service-calls runs the two together).
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { NoteAddedSchema } from "@tt/proto/tt/example/v1/events_pb";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { USER_ROLES } from "../auth/claims.ts";
import type { DurableMessage } from "../bus/bus.ts";
import { eventStreamOf } from "../bus/events.ts";
import { exampleServiceDefinition, Note } from "../test-support/example-service.ts";
import { createServiceHarness, type ServiceHarness } from "./service-harness.ts";
import { outcomeOf } from "./refusals.ts";
import { freePort } from "../net.ts";

let h: ServiceHarness;
let env: Record<string, string>;

beforeAll(async () => {
  env = {
    // Nothing listens there: a port the system gave out and took back.
    USER_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
    SERVICE_TOKEN_PRIVATE_KEY: generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  };
  h = await createServiceHarness(exampleServiceDefinition, { env });
});

afterAll(async () => {
  await h?.close();
});

describe("createServiceHarness", () => {
  it("serves the definition in process, through the host's interceptors, for a user of any role", async () => {
    for (const role of USER_ROLES.filter((r) => r !== "bot")) {
      const author = randomUUID();
      const client = h.client(ExampleService, { token: await h.tokens.user(role, author) });
      const res = await client.addNote({ text: `by a ${role}` });
      expect(res.note).toMatchObject({ author, text: `by a ${role}` });
      expect(res.count).toBe(1);
    }
  });

  it("refuses what the access option and the field rules refuse, in process and over the network", async () => {
    const user = await h.tokens.user();
    for (const client of [h.client, h.networkClient]) {
      expect(await outcomeOf(client(ExampleService).addNote({ text: "x" }))).toBe(
        "Unauthenticated: missing access token",
      );
      for (const [type, token] of [
        ["guest", await h.tokens.guest()],
        ["bot", await h.tokens.bot()],
        ["service", await h.tokens.service("room")],
      ]) {
        expect(await outcomeOf(client(ExampleService, { token }).addNote({ text: "x" }))).toBe(
          `Unauthenticated: ${type} tokens may not call this method`,
        );
      }
      const tooLong = client(ExampleService, { token: user }).addNote({ text: "x".repeat(201) });
      expect(await outcomeOf(tooLong)).toMatch(/^InvalidArgument: text/);
    }
  });

  it("serves the same calls over the network on port 0 and stores them in the service's database", async () => {
    const author = randomUUID();
    const client = h.networkClient(ExampleService, { token: await h.tokens.user("user", author) });
    await client.addNote({ text: "one" });
    const res = await client.addNote({ text: "two" });
    expect(res.count).toBe(2);
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await h.orm.em.fork().count(Note, { author })).toBe(2);
  });

  it("calls the implementation directly with a context as the interceptors leave it", async () => {
    const identity = await h.identityOf(await h.tokens.user("admin"));
    expect(identity).toMatchObject({ tokenType: "user", role: "admin" });
    const ctx = h.context(ExampleService.method.addNote, { identity });
    const res = await h.direct(ExampleService).addNote({ text: "direct" }, ctx);
    expect(res.note?.author).toBe(identity.subject);
  });

  it("migrates the service's schema to exactly what its entities describe", async () => {
    expect(await h.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe("");
  });

  it("issue 10: publishes its event through the outbox: the host made its stream and runs its relay", async () => {
    const author = randomUUID();
    let seen!: (m: DurableMessage) => void;
    const received = new Promise<DurableMessage>((resolve) => (seen = resolve));
    const sub = await h.bus.consume(
      eventStreamOf("example").name,
      `harness-${randomUUID()}`,
      async (m) => {
        if (fromBinary(NoteAddedSchema, m.data).author === author) seen(m);
      },
      { deliver: "new", filterSubject: "tt.example.note.added" },
    );
    try {
      const { note } = await h.client(ExampleService, { token: await h.tokens.user("user", author) }).addNote({
        text: "announced",
      });
      const message = await received;
      expect(fromBinary(NoteAddedSchema, message.data)).toMatchObject({ id: note!.id, author });
      expect(message.headers["tt-aggregate-id"]).toBe(note!.id);
    } finally {
      await sub.unsubscribe();
    }
  });

  it("issue 10: a call to a service that is away is its answer, Unavailable, not a 500 or a hang", async () => {
    const token = await h.tokens.user();
    const { note } = await h.client(ExampleService, { token }).addNote({ text: "whose?" });
    for (const client of [h.client, h.networkClient]) {
      expect(await outcomeOf(client(ExampleService, { token }).getNote({ id: note!.id }))).toMatch(/^Unavailable: /);
      expect(await outcomeOf(client(ExampleService, { token }).getNote({ id: randomUUID() }))).toBe(
        "NotFound: note not found",
      );
      expect(await outcomeOf(client(ExampleService, { token }).getNote({ id: "nope" }))).toMatch(
        /^InvalidArgument: id/,
      );
    }
  });

  it("drops its database on close", async () => {
    const other = await createServiceHarness(exampleServiceDefinition, { bus: "memory", network: false, env });
    const dbName = other.orm.config.get("dbName");
    await other.close();
    const admin = await MikroORM.init({
      clientUrl: inject("databaseUrl"),
      entities: [],
      discovery: { warnWhenNoEntities: false },
    });
    try {
      const rows = await admin.em.getConnection().execute("select 1 from pg_database where datname = ?", [dbName]);
      expect(rows).toEqual([]);
    } finally {
      await admin.close(true);
    }
  });
});
