// createServiceHarness on the kit's example service (docs/new-service.md): a definition started on real
// PostgreSQL and NATS, called in-process, over the network and directly, as every token type.
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { USER_ROLES } from "../auth/claims.ts";
import { exampleServiceDefinition, Note } from "../test-support/example-service.ts";
import { createServiceHarness, type ServiceHarness } from "./service-harness.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(exampleServiceDefinition);
});

afterAll(async () => {
  await h?.close();
});

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (err) {
    const error = ConnectError.from(err);
    return `${Code[error.code]}: ${error.rawMessage}`;
  }
}

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
      expect(await codeOf(client(ExampleService).addNote({ text: "x" }))).toBe("Unauthenticated: missing access token");
      for (const [type, token] of [
        ["guest", await h.tokens.guest()],
        ["bot", await h.tokens.bot()],
        ["service", await h.tokens.service("room")],
      ]) {
        expect(await codeOf(client(ExampleService, { token }).addNote({ text: "x" }))).toBe(
          `Unauthenticated: ${type} tokens may not call this method`,
        );
      }
      const tooLong = client(ExampleService, { token: user }).addNote({ text: "x".repeat(201) });
      expect(await codeOf(tooLong)).toMatch(/^InvalidArgument: text/);
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

  it("drops its database on close", async () => {
    const other = await createServiceHarness(exampleServiceDefinition, { bus: "memory", network: false });
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
