// The kit end to end: a real host (database, migrations, bus, interceptors) serving the echo test service,
// called in the three tiers of the conventions and over every protocol, with the access matrix compared
// between the network path and the in-process transport.
import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { EchoRequestSchema, EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { base64url, SignJWT } from "jose";
import type { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Bus } from "./bus/bus.ts";
import { createCallContext } from "./context.ts";
import { startServiceHost, type ServiceHost } from "./host.ts";
import { createLogger } from "./logger.ts";
import type { RunningServer } from "./transport/server.ts";
import { echoDefinition, echoImplementation, startEchoServer, type EchoServer } from "./test-support/echo-service.ts";
import { createTestTokenIssuer, type TestDatabase, type TestTokenIssuer } from "./testing/index.ts";

const logger = createLogger({ service: "kit-test", level: "silent" });

let db: TestDatabase;
let bus: Bus;
let host: ServiceHost;
let server: RunningServer;
let issuer: TestTokenIssuer;
let registry: Registry;

let echo: EchoServer | undefined;
beforeAll(async () => {
  echo = await startEchoServer(inject("databaseUrl"));
  ({ db, bus, host, server, issuer, registry } = echo);
});

afterAll(async () => {
  await echo?.close();
});

const transports: Record<string, () => Transport> = {
  "in-process": () => host.transport,
  "connect over HTTP/1.1": () => createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
  "connect over HTTP/2": () => createConnectTransport({ baseUrl: server.url, httpVersion: "2" }),
  "gRPC over HTTP/2": () => createGrpcTransport({ baseUrl: server.url }),
  "gRPC-Web over HTTP/1.1": () => createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" }),
};

async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (err) {
    const error = ConnectError.from(err);
    return `${Code[error.code]}: ${error.rawMessage}`;
  }
}

const methods = ["echo", "echoStream", "adminEcho", "guestEcho", "serviceEcho", "unguarded"] as const;
type MethodName = (typeof methods)[number];

function callMethod(client: Client<typeof EchoService>, method: MethodName, headers: HeadersInit) {
  return async () => {
    if (method === "echoStream") {
      const got: number[] = [];
      for await (const m of client.echoStream({ text: "s", count: 2 }, { headers })) got.push(m.index);
      expect(got).toEqual([0, 1]);
      return;
    }
    await client[method]({ text: "t" }, { headers });
  };
}

const missing = "Unauthenticated: missing access token";
const notOpen = "Unauthenticated: this method is not open to any caller";
const mayNot = (what: string) => `Unauthenticated: ${what} may not call this method`;
const invalid = "Unauthenticated: invalid access token";

/** Caller → outcome per method, in the order of `methods`. */
const expectedMatrix: Record<string, string[]> = {
  anonymous: ["ok", missing, missing, missing, missing, notOpen],
  guest: ["ok", "ok", mayNot("guest tokens"), "ok", mayNot("guest tokens"), notOpen],
  user: ["ok", "ok", mayNot("role user"), mayNot("user tokens"), mayNot("user tokens"), notOpen],
  moderator: ["ok", "ok", mayNot("role moderator"), mayNot("user tokens"), mayNot("user tokens"), notOpen],
  admin: ["ok", "ok", "ok", mayNot("user tokens"), mayNot("user tokens"), notOpen],
  superUser: ["ok", "ok", "ok", mayNot("user tokens"), mayNot("user tokens"), notOpen],
  bot: ["ok", "ok", mayNot("bot tokens"), mayNot("bot tokens"), mayNot("bot tokens"), notOpen],
  service: ["ok", "ok", mayNot("service tokens"), mayNot("service tokens"), "ok", notOpen],
  forged: [invalid, invalid, invalid, invalid, invalid, notOpen],
  expired: Array(5).fill("Unauthenticated: access token expired").concat(notOpen),
  "alg none": [invalid, invalid, invalid, invalid, invalid, notOpen],
  HS256: [invalid, invalid, invalid, invalid, invalid, notOpen],
  "wrong issuer": [invalid, invalid, invalid, invalid, invalid, notOpen],
  "wrong audience": [invalid, invalid, invalid, invalid, invalid, notOpen],
  "wrong type": [invalid, invalid, invalid, invalid, invalid, notOpen],
  "revoked session": Array(5).fill("Unauthenticated: session revoked").concat(notOpen),
  "not a bearer": Array(5)
    .fill("Unauthenticated: invalid authorization header: expected Bearer <token>")
    .concat(notOpen),
};

async function callerHeaders(): Promise<Record<string, HeadersInit>> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const forger = await createTestTokenIssuer({ kid: issuer.kid });
  const revokedSid = randomUUID();
  await host.revocations.revoke(revokedSid, new Date(Date.now() + 3600_000));
  const valid = await issuer.sign();
  const [, payload] = valid.split(".");
  const now = Math.floor(Date.now() / 1000);
  const hs256 = await new SignJWT({ typ: "user", role: "admin", sid: randomUUID() })
    .setProtectedHeader({ alg: "HS256", kid: issuer.kid })
    .setIssuer("turntable")
    .setAudience("turntable")
    .setSubject("u")
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(base64url.decode(String(issuer.jwks.keys[0]?.x)));
  return {
    anonymous: {},
    guest: bearer(await issuer.sign({ typ: "guest" })),
    user: bearer(await issuer.sign({ typ: "user", role: "user" })),
    moderator: bearer(await issuer.sign({ typ: "user", role: "moderator" })),
    admin: bearer(await issuer.sign({ typ: "user", role: "admin" })),
    superUser: bearer(await issuer.sign({ typ: "user", role: "superUser" })),
    bot: bearer(await issuer.sign({ typ: "bot" })),
    service: bearer(await issuer.sign({ typ: "service", sub: "room" })),
    forged: bearer(await forger.sign({ role: "admin" })),
    expired: bearer(await issuer.sign({ expiresIn: -600 })),
    "alg none": bearer(`${base64url.encode(JSON.stringify({ alg: "none", kid: issuer.kid }))}.${payload}.`),
    HS256: bearer(hs256),
    "wrong issuer": bearer(await issuer.sign({ iss: "elsewhere" })),
    "wrong audience": bearer(await issuer.sign({ aud: "elsewhere" })),
    "wrong type": bearer(await issuer.sign({ typ: "root" as never, role: "admin" })),
    "revoked session": bearer(await issuer.sign({ sid: revokedSid })),
    "not a bearer": { authorization: "Basic dXNlcjpwYXNz" },
  };
}

describe("access", () => {
  it.each(Object.keys(transports))("enforces the access matrix over %s", async (name) => {
    const client = createClient(EchoService, transports[name]!());
    const callers = await callerHeaders();
    const actual: Record<string, string[]> = {};
    for (const [caller, headers] of Object.entries(callers)) {
      actual[caller] = [];
      for (const method of methods) actual[caller].push(await outcome(callMethod(client, method, headers)));
    }
    expect(actual).toEqual(expectedMatrix);
  });

  it("passes the verified identity to the implementation", async () => {
    const token = await issuer.sign({ typ: "bot", sub: "bot-7" });
    for (const make of Object.values(transports)) {
      const res = await createClient(EchoService, make()).echo(
        { text: "hi" },
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(res).toMatchObject({ text: "hi", subject: "bot-7", tokenType: "bot" });
    }
  });

  it("refuses a session revoked after its token was issued", async () => {
    const sid = randomUUID();
    const headers = { authorization: `Bearer ${await issuer.sign({ sid })}` };
    const client = createClient(EchoService, host.transport);
    expect(await outcome(() => client.echoStream({ count: 1 }, { headers })[Symbol.asyncIterator]().next())).toBe("ok");
    await host.revocations.revoke(sid, new Date(Date.now() + 60_000));
    expect(await outcome(() => client.echo({}, { headers }))).toBe("Unauthenticated: session revoked");
  });
});

describe("three tiers", () => {
  it("tier 1: the implementation directly", async () => {
    const identity = {
      tokenType: "user",
      subject: "u-1",
      role: "user",
      sessionId: "s",
      expiresAt: new Date(),
      token: "t",
    } as const;
    const ctx = createCallContext(EchoService.method.echo, { identity, requestId: "direct" });
    const res = await echoImplementation().echo(create(EchoRequestSchema, { text: "x" }), ctx);
    expect(res).toEqual({ text: "x", subject: "u-1", tokenType: "user", requestId: "direct" });
  });

  it("tier 2 and 3: in-process and over the network, each call with its own EntityManager fork", async () => {
    const counts: number[] = [];
    for (const make of [
      transports["in-process"]!,
      transports["connect over HTTP/1.1"]!,
      transports["gRPC over HTTP/2"]!,
    ]) {
      counts.push((await createClient(EchoService, make()).record({ text: "row" })).count);
    }
    expect(counts).toEqual([1, 2, 3]);
  });
});

describe("calls", () => {
  it("takes the caller's request id or makes one, and echoes it in the response header", async () => {
    for (const make of Object.values(transports)) {
      const client = createClient(EchoService, make());
      let echoed: string | null = null;
      const res = await client.echo(
        { text: "id" },
        { headers: { "x-request-id": "req-42" }, onHeader: (h) => (echoed = h.get("x-request-id")) },
      );
      expect(res.requestId).toBe("req-42");
      expect(echoed).toBe("req-42");
      const fresh = await client.echo({}, { headers: { "x-request-id": `bad id; ${"x".repeat(200)}` } });
      expect(fresh.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("hides unexpected errors behind Internal without leaking their message", async () => {
    for (const make of Object.values(transports)) {
      const error = await createClient(EchoService, make())
        .echo({ text: "boom" })
        .then(() => undefined, ConnectError.from);
      expect(error?.code).toBe(Code.Internal);
      expect(error?.rawMessage).toBe("internal error");
      expect(error?.message).not.toContain("secret");
    }
  });

  it("delivers a server stream and its mid-stream error the same way on every transport", async () => {
    const headers = { authorization: `Bearer ${await issuer.sign()}` };
    for (const make of Object.values(transports)) {
      const got: string[] = [];
      const result = await outcome(async () => {
        for await (const m of createClient(EchoService, make()).echoStream({ text: "boom", count: 3 }, { headers })) {
          got.push(`${m.text}${m.index}`);
        }
      });
      expect({ got, result }).toEqual({ got: ["boom0"], result: "Aborted: stream broke" });
    }
  });

  it("ends calls at their deadline on every transport", async () => {
    for (const make of Object.values(transports)) {
      const result = await outcome(() => createClient(EchoService, make()).echo({ delayMs: 2_000 }, { timeoutMs: 50 }));
      expect(result).toBe("DeadlineExceeded: the operation timed out");
    }
  });

  it("counts calls by service, method and code", async () => {
    const client = createClient(EchoService, host.transport);
    await client.guestEcho({}).catch(() => undefined);
    const text = await registry.metrics();
    expect(text).toMatch(
      /rpc_server_requests_total\{service="tt.testing.v1.EchoService",method="GuestEcho",code="unauthenticated"\} \d+/,
    );
    expect(text).toMatch(/rpc_server_duration_seconds_bucket\{.*method="Echo",code="ok"\}/);
  });
});

describe("startServiceHost", () => {
  it("refuses to start when a method lacks its access option, before touching the database", async () => {
    await expect(
      startServiceHost({
        definitions: [echoDefinition()],
        databaseUrl: "postgres://nobody@127.0.0.1:1/none",
        bus,
        logger,
        env: {},
        keys: issuer.keys,
      }),
    ).rejects.toThrow("tt.testing.v1.EchoService.Unguarded has no (tt.options.v1.access) option");
  });

  it("issue 10: refuses to start when a declared RPC has no handler, naming every one", async () => {
    const { record: _record, guestEcho: _guestEcho, ...partial } = echoImplementation();
    const definition = echoDefinition();
    const incomplete = {
      ...definition,
      name: "incomplete",
      async create() {
        return { routes: (router: ConnectRouter) => router.service(EchoService, partial) };
      },
    };
    const started = startServiceHost({
      definitions: [incomplete],
      databaseUrl: db.url,
      bus,
      logger,
      env: {},
      keys: issuer.keys,
      allowMissingAccess: true,
    });
    await expect(started).rejects.toThrow(
      "incomplete has no implementation of:\n  tt.testing.v1.EchoService.GuestEcho\n  tt.testing.v1.EchoService.Record",
    );
  });

  it("refuses to start without a way to get verification keys", async () => {
    await expect(
      startServiceHost({
        definitions: [echoDefinition()],
        databaseUrl: db.url,
        bus,
        logger,
        env: {},
        allowMissingAccess: true,
      }),
    ).rejects.toThrow(/no token verification keys/);
  });

  it("reports ready while database and bus answer", async () => {
    expect(await host.ready()).toBe(true);
  });

  it("bounds each service's connection pool by DATABASE_POOL_MAX, by default pg's 10", async () => {
    const poolMax = async (env: Record<string, string>) => {
      const other = await startServiceHost({
        definitions: [echoDefinition()],
        databaseUrl: db.url,
        bus,
        logger,
        env,
        keys: async () => issuer.jwks,
        allowMissingAccess: true,
      });
      try {
        const orm = other.deps.get("echo")!.orm;
        // The pg Pool the ORM's queries run on.
        const pool = (await orm.em.getConnection().getNativeClient()) as { options: { max?: number } };
        return pool.options.max;
      } finally {
        await other.close();
      }
    };
    expect(await poolMax({ DATABASE_POOL_MAX: "2" })).toBe(2);
    expect(await poolMax({})).toBe(10);
    await expect(poolMax({ DATABASE_POOL_MAX: "0" })).rejects.toThrow(/DATABASE_POOL_MAX/);
  });
});
