import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Migration } from "@mikro-orm/migrations";
import pg from "pg";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ConfigError } from "./config.ts";
import { runServiceMain } from "./main.ts";
import type { ServiceDefinition } from "./service.ts";
import { exampleServiceDefinition, noteRoutes } from "./test-support/example-service.ts";
import { createTestDatabase, createTestTokenIssuer, type TestDatabase, type TestTokenIssuer } from "./testing/index.ts";

const DAVE = "7b0f3c52-5d8e-4a53-9d84-3f1f7c0e2a11";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
});
afterAll(async () => {
  await db?.drop();
});

// The kit's example service standing in for the user service: the host takes its verification keys from the
// instance, as in production.
async function userStandIn(issuer?: TestTokenIssuer): Promise<ServiceDefinition> {
  issuer ??= await createTestTokenIssuer();
  // Under its own name, so its outbox (schema, stream, event subject) is the example's; without its call to
  // the user service, which this process does not run.
  return {
    ...exampleServiceDefinition,
    async create() {
      return {
        verificationKeys: issuer!.keys,
        routes: (router) => router.service(ExampleService, noteRoutes()),
      };
    },
  };
}

describe("runServiceMain", () => {
  it("serves until its signal aborts, then shuts down and returns", async () => {
    const controller = new AbortController();
    let listening!: (url: string, metricsUrl?: string) => void;
    let metricsUrl: string | undefined;
    const url = new Promise<string>((resolve) => {
      listening = (u, m) => {
        metricsUrl = m;
        resolve(u);
      };
    });
    const issuer = await createTestTokenIssuer();
    const done = runServiceMain([await userStandIn(issuer)], {
      env: {
        DATABASE_URL: db.url,
        NATS_URL: inject("natsUrl"),
        DEPLOYMENT_NAME: "kit-main-test",
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
        SHUTDOWN_TIMEOUT_MS: "2000",
      },
      signal: controller.signal,
      onListening: listening,
    });
    const baseUrl = await Promise.race([url, done.then(() => Promise.reject(new Error("returned early")))]);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    const client = createClient(ExampleService, createGrpcTransport({ baseUrl }));
    await expect(client.addNote({ text: "hi" })).rejects.toThrow(/missing access token/);
    const headers = { authorization: `Bearer ${await issuer.sign({ typ: "user", sub: DAVE })}` };
    expect((await client.addNote({ text: "hi" }, { headers })).note).toMatchObject({ author: DAVE, text: "hi" });
    // Issue 9 defect 10: metrics on a port of their own (a free one, as PORT is 0), none on the public port.
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsUrl).not.toBe(baseUrl);
    const metrics = await fetch(`${metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^rpc_server_requests_total\{.*method="AddNote".*\} \d+/m);
    // Issue 9 defect 1: the process guard is installed and its counter exposed with the others.
    expect(text).toMatch(/^tt_unhandled_rejections_total \d+$/m);
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(404);
    controller.abort(new Error("test over"));
    await done;
    await expect(fetch(`${baseUrl}/healthz`)).rejects.toThrow();
  });

  it("requires NATS_URL when a service runs on its own", async () => {
    const run = runServiceMain([await userStandIn()], { env: { DATABASE_URL: db.url }, signal: AbortSignal.abort() });
    await expect(run).rejects.toBeInstanceOf(ConfigError);
    await expect(run).rejects.toThrow(/NATS_URL: is required/);
  });

  it("with MIGRATE_ONLY=true applies the migrations and returns, without a bus, once per schema change", async () => {
    class CreateThings extends Migration {
      override async up() {
        this.addSql("create table thing (id int primary key)");
      }
    }
    const definition: ServiceDefinition = {
      ...(await userStandIn()),
      name: "migrate_only",
      entities: [],
      migrations: [{ name: "20261122000000-things", class: CreateThings }],
    };
    const env = { DATABASE_URL: db.url, MIGRATE_ONLY: "true", LOG_LEVEL: "silent" };
    // Two at once, as two replicas would: the advisory lock lets one migrate and the other find nothing to do.
    await Promise.all([runServiceMain([definition], { env }), runServiceMain([definition], { env })]);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const tables = await client.query(
        "select table_name from information_schema.tables where table_schema = 'migrate_only'",
      );
      expect(tables.rows.map((r: { table_name: string }) => r.table_name).sort()).toEqual([
        "mikro_orm_migrations",
        "thing",
      ]);
      const applied = await client.query("select name from migrate_only.mikro_orm_migrations");
      expect(applied.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });
});
