// The kit's own test service (proto/tt/testing/v1/echo_service.proto): a real ServiceDefinition with an
// entity and a migration, so the host, the interceptors and the ORM bootstrap run exactly as for a
// platform service.
import { setTimeout as delay } from "node:timers/promises";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { Registry } from "prom-client";
import type { Bus } from "../bus/bus.ts";
import { createMemoryBus } from "../bus/memory.ts";
import { kEm, kIdentity, kRequestId } from "../context.ts";
import { startServiceHost, type ServiceHost } from "../host.ts";
import { createLogger } from "../logger.ts";
import { createServer, type RunningServer } from "../transport/server.ts";
import type { ServiceDefinition } from "../service.ts";
import {
  createTestDatabase,
  createTestTokenIssuer,
  type TestDatabase,
  type TestTokenIssuer,
} from "../testing/index.ts";

export const EchoRecordSchema = defineEntity({
  name: "EchoRecord",
  tableName: "echo_record",
  properties: {
    id: p.integer().primary().autoincrement(),
    text: p.string(),
  },
});
export class EchoRecord extends EchoRecordSchema.class {}
EchoRecordSchema.setClass(EchoRecord);

class Migration20261122000000 extends Migration {
  override up(): void {
    this.addSql(`create table "echo_record" ("id" serial primary key, "text" varchar(255) not null)`);
  }
}

/** Tests can hold an Echo call open (graceful shutdown) and see when it started. */
export interface EchoProbe {
  onEchoStarted?: () => void;
}

export function echoImplementation(probe: EchoProbe = {}): ServiceImpl<typeof EchoService> {
  return {
    async echo(req, ctx) {
      probe.onEchoStarted?.();
      if (req.delayMs > 0) await delay(req.delayMs, undefined, { signal: ctx.signal });
      if (req.text === "boom") throw new Error("secret internal detail");
      const identity = ctx.values.get(kIdentity);
      return {
        text: req.text,
        subject: identity?.subject ?? "",
        tokenType: identity?.tokenType ?? "",
        requestId: ctx.values.get(kRequestId),
      };
    },
    async *echoStream(req, ctx) {
      for (let index = 0; index < req.count; index++) {
        if (index > 0 && req.intervalMs > 0) await delay(req.intervalMs, undefined, { signal: ctx.signal });
        if (req.text === "boom" && index === 1) throw new ConnectError("stream broke", Code.Aborted);
        yield { text: req.text, index };
      }
    },
    adminEcho(req, ctx) {
      return { text: req.text, role: ctx.values.get(kIdentity)?.role ?? "" };
    },
    guestEcho(req) {
      return { text: req.text };
    },
    serviceEcho(req) {
      return { text: req.text };
    },
    unguarded() {
      return {};
    },
    async record(req, ctx) {
      const em = ctx.values.get(kEm);
      if (!em) throw new ConnectError("no entity manager", Code.Internal);
      em.create(EchoRecord, { text: req.text });
      await em.flush();
      return { count: await em.count(EchoRecord) };
    },
  };
}

export function echoDefinition(probe: EchoProbe = {}): ServiceDefinition {
  return {
    name: "echo",
    services: [EchoService],
    entities: [EchoRecordSchema],
    migrations: [{ name: "Migration20261122000000", class: Migration20261122000000 }],
    async create() {
      return { routes: (router) => router.service(EchoService, echoImplementation(probe)) };
    },
  };
}

/** The echo service on a real host (its own database, the in-memory bus, a test token issuer) behind `createServer`. */
export interface EchoServer {
  db: TestDatabase;
  bus: Bus;
  host: ServiceHost;
  server: RunningServer;
  issuer: TestTokenIssuer;
  registry: Registry;
  close(): Promise<void>;
}

export async function startEchoServer(databaseUrl: string): Promise<EchoServer> {
  const logger = createLogger({ service: "kit-test", level: "silent" });
  const db = await createTestDatabase(databaseUrl);
  const bus = createMemoryBus();
  const issuer = await createTestTokenIssuer();
  const registry = new Registry();
  const host = await startServiceHost({
    definitions: [echoDefinition()],
    databaseUrl: db.url,
    bus,
    logger,
    env: {},
    keys: issuer.keys,
    registry,
    // EchoService keeps one method without an access option to prove it is refused at call time.
    allowMissingAccess: true,
  });
  const server = await createServer({
    handler: host.handler,
    port: 0,
    host: "127.0.0.1",
    ready: host.ready,
    logger,
    registry,
  });
  return {
    db,
    bus,
    host,
    server,
    issuer,
    registry,
    async close() {
      await server.close();
      await host.close();
      await bus.close();
      await db.drop();
    },
  };
}
