// Service-to-service calls through `deps.clients`: in process when the host serves the target, over HTTP/2 at
// <NAME>_SERVICE_URL otherwise, each call with the caller's `service` token and a deadline; a missing URL or
// identity key fails the start with the variable named.
import { generateKeyPairSync } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { Bus } from "../bus/bus.ts";
import { createMemoryBus } from "../bus/memory.ts";
import { ConfigError } from "../config.ts";
import { startServiceHost, type ServiceHost } from "../host.ts";
import { createLogger } from "../logger.ts";
import { freePort } from "../net.ts";
import { runWithRequestId } from "../process-guards.ts";
import { createServer, type RunningServer } from "../transport/server.ts";
import type { ServiceDefinition, ServiceDeps } from "../service.ts";
import { echoDefinition } from "../test-support/echo-service.ts";
import {
  createTestDatabase,
  createTestTokenIssuer,
  type TestDatabase,
  type TestTokenIssuer,
} from "../testing/index.ts";
import { serviceNameOf, serviceUrlVariable } from "./service-clients.ts";
import { codeOf } from "../testing/refusals.ts";

const logger = createLogger({ service: "kit-test", level: "silent" });
const pem = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** A service that serves nothing and hands its `create` dependencies to the test. */
function callerDefinition(seen: { deps?: ServiceDeps }, uses: { echo?: boolean } = { echo: true }): ServiceDefinition {
  return {
    name: "caller",
    services: [],
    entities: [],
    migrations: [],
    async create(deps) {
      seen.deps = deps;
      // As a real service does: its clients are made at start, so a missing URL fails the start.
      if (uses.echo) deps.clients.get(EchoService);
      return { routes: () => {} };
    },
  };
}

let db: TestDatabase;
let bus: Bus;
let issuer: TestTokenIssuer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  bus = createMemoryBus();
  issuer = await createTestTokenIssuer();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(async () => {
  await bus?.close();
  await db?.drop();
});

async function host(definitions: ServiceDefinition[], env: Record<string, string | undefined>): Promise<ServiceHost> {
  const started = await startServiceHost({
    definitions,
    databaseUrl: db.url,
    bus,
    logger,
    env,
    keys: issuer.keys,
    // EchoService keeps one method without an access option to prove it is refused at call time.
    allowMissingAccess: true,
  });
  closers.push(() => started.close());
  return started;
}

async function texts(stream: AsyncIterable<{ text: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const m of stream) out.push(m.text);
  return out;
}

describe("service names", () => {
  it("takes the service name from the tt.<name>.v<n> package, and its URL variable as the chart names it", () => {
    expect(serviceNameOf(EchoService)).toBe("testing");
    expect(serviceUrlVariable("testing")).toBe("TESTING_SERVICE_URL");
    expect(serviceUrlVariable("social-graph")).toBe("SOCIAL_GRAPH_SERVICE_URL");
  });
});

describe("in process", () => {
  it("issue 10: calls a service of the same host through the interceptors, as a service token naming the caller", async () => {
    const seen: { deps?: ServiceDeps } = {};
    // No SERVICE_TOKEN_PRIVATE_KEY: the host makes up a key that only it trusts.
    await host([echoDefinition(), callerDefinition(seen)], {});
    const echo = seen.deps!.clients.get(EchoService);
    expect(await echo.echo({ text: "hi" })).toMatchObject({ text: "hi", subject: "caller", tokenType: "service" });
    // The access interceptor ran: a service-only method accepts it, a guest-only method refuses it.
    expect((await echo.serviceEcho({ text: "svc" })).text).toBe("svc");
    // A refusal of the service's own identity is the deployment's fault: Internal, never a 401 for the user.
    expect(await codeOf(echo.guestEcho({ text: "no" }))).toBe(Code.Internal);
    // Called while serving a request, the call carries that request's id.
    expect((await runWithRequestId("req-42", () => echo.echo({ text: "id" }))).requestId).toBe("req-42");
    expect(await texts(echo.echoStream({ text: "s", count: 2 }))).toEqual(["s", "s"]);
  });

  it("issue 10: a call has a deadline by default (SERVICE_CALL_TIMEOUT_MS), and each call may set its own", async () => {
    const seen: { deps?: ServiceDeps } = {};
    await host([echoDefinition(), callerDefinition(seen)], { SERVICE_CALL_TIMEOUT_MS: "100" });
    const echo = seen.deps!.clients.get(EchoService);
    expect(await codeOf(echo.echo({ text: "slow", delayMs: 5_000 }))).toBe(Code.DeadlineExceeded);
    expect((await echo.echo({ text: "slow", delayMs: 200 }, { timeoutMs: 5_000 })).text).toBe("slow");
  });
});

describe("across processes", () => {
  let key: string;
  let target: RunningServer;

  beforeAll(async () => {
    key = pem();
    const echoHost = await startServiceHost({
      definitions: [echoDefinition()],
      databaseUrl: db.url,
      bus,
      logger,
      env: { SERVICE_TOKEN_PRIVATE_KEY: key },
      keys: issuer.keys,
      allowMissingAccess: true,
    });
    target = await createServer({
      handler: echoHost.handler,
      port: 0,
      host: "127.0.0.1",
      ready: echoHost.ready,
      logger,
    });
    return async () => {
      await target.close();
      await echoHost.close();
    };
  });

  it("issue 10: calls the service at its <NAME>_SERVICE_URL over HTTP/2 with a token of the deployment's key", async () => {
    const seen: { deps?: ServiceDeps } = {};
    await host([callerDefinition(seen)], { TESTING_SERVICE_URL: target.url, SERVICE_TOKEN_PRIVATE_KEY: key });
    const echo = seen.deps!.clients.get(EchoService);
    expect(await echo.echo({ text: "far" })).toMatchObject({ text: "far", subject: "caller", tokenType: "service" });
    expect((await echo.serviceEcho({ text: "svc" })).text).toBe("svc");
    expect((await runWithRequestId("req-43", () => echo.echo({ text: "id" }))).requestId).toBe("req-43");
    expect(await texts(echo.echoStream({ text: "s", count: 3 }))).toEqual(["s", "s", "s"]);
    expect(await codeOf(echo.echo({ text: "slow", delayMs: 5_000 }, { timeoutMs: 100 }))).toBe(Code.DeadlineExceeded);
    const quick = seen.deps!.clients.get(EchoService, { timeoutMs: 100 });
    expect(await codeOf(quick.echo({ text: "slow", delayMs: 5_000 }))).toBe(Code.DeadlineExceeded);
  });

  it("issue 28: a <NAME>_SERVICE_URL listing several replicas: calls skip one that refuses and reach one that answers", async () => {
    const seen: { deps?: ServiceDeps } = {};
    // The local distributed runner's form: every replica's URL, comma-separated; the first replica is down.
    const down = `http://127.0.0.1:${await freePort()}`;
    await host([callerDefinition(seen)], {
      TESTING_SERVICE_URL: `${down},${target.url}`,
      SERVICE_TOKEN_PRIVATE_KEY: key,
    });
    const echo = seen.deps!.clients.get(EchoService);
    for (let i = 0; i < 4; i++) {
      expect(await echo.echo({ text: `far ${i}` })).toMatchObject({ text: `far ${i}`, subject: "caller" });
    }
    expect(await texts(echo.echoStream({ text: "s", count: 2 }))).toEqual(["s", "s"]);
    await expect(
      host([callerDefinition({})], { TESTING_SERVICE_URL: `${target.url},nats://x:1`, SERVICE_TOKEN_PRIVATE_KEY: key }),
    ).rejects.toThrow(/TESTING_SERVICE_URL: "nats:\/\/x:1" is not an http:\/\/ or https:\/\/ URL/);
  });

  it("issue 10: a token of another key is refused by the service called, and the caller answers Internal, not 401", async () => {
    const seen: { deps?: ServiceDeps } = {};
    await host([callerDefinition(seen)], { TESTING_SERVICE_URL: target.url, SERVICE_TOKEN_PRIVATE_KEY: pem() });
    expect(await codeOf(seen.deps!.clients.get(EchoService).serviceEcho({ text: "x" }))).toBe(Code.Internal);
  });

  it("issue 10: a missing <NAME>_SERVICE_URL fails the start, naming the variable", async () => {
    const start = host([callerDefinition({})], { SERVICE_TOKEN_PRIVATE_KEY: key });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/TESTING_SERVICE_URL: is required: tt\.testing\.v1\.EchoService is called/);
  });

  it("issue 10: a malformed URL or a missing, malformed or non-Ed25519 identity key fails the start, naming it", async () => {
    await expect(
      host([callerDefinition({})], { TESTING_SERVICE_URL: "nats://x:1", SERVICE_TOKEN_PRIVATE_KEY: key }),
    ).rejects.toThrow(/TESTING_SERVICE_URL: must be an http:\/\/ or https:\/\/ URL/);
    await expect(host([callerDefinition({})], { TESTING_SERVICE_URL: target.url })).rejects.toThrow(
      /SERVICE_TOKEN_PRIVATE_KEY: is required to call tt\.testing\.v1\.EchoService at TESTING_SERVICE_URL/,
    );
    await expect(host([callerDefinition({}, {})], { SERVICE_TOKEN_PRIVATE_KEY: "not a key" })).rejects.toThrow(
      /SERVICE_TOKEN_PRIVATE_KEY: is not a PKCS8 PEM private key/,
    );
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" });
    await expect(host([callerDefinition({}, {})], { SERVICE_TOKEN_PRIVATE_KEY: rsa.toString() })).rejects.toThrow(
      /SERVICE_TOKEN_PRIVATE_KEY: must be an Ed25519 key, got rsa/,
    );
  });
});
