// End to end: real servers on port 0, the fixture service behind the gateway, plain HTTP from the test.
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { Writable } from "node:stream";
import { captureRoutes, createInProcessTransport } from "@tt/kit";
import { pino } from "pino";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createGateway } from "./gateway.ts";
import { fixtureRoutes, SECRET_DETAIL } from "./testing/fixture-service.ts";
import {
  listen,
  startFixtureGateway,
  startFixtureServer,
  type GatewayUnderTest,
  type Running,
} from "./testing/servers.ts";

let gw: GatewayUnderTest;
let backend: Running;
let proxied: GatewayUnderTest;
const seenByService: Headers[] = [];
const recordHeaders: Interceptor = (next) => (req) => {
  seenByService.push(new Headers(req.header));
  return next(req);
};

beforeAll(async () => {
  gw = await startFixtureGateway({
    interceptors: [recordHeaders],
    bodyLimitBytes: 1024,
    cors: { origins: ["https://app.example"] },
  });
  backend = await startFixtureServer();
  proxied = await startFixtureGateway({ connectBaseUrl: backend.h2url });
});

afterAll(async () => {
  await gw.close();
  await proxied.close();
  await backend.close();
});

const call = async (method: string, path: string, init: RequestInit = {}) => {
  const res = await fetch(gw.url + path, { method, ...init });
  const text = await res.text();
  const isJson = res.headers.get("content-type")?.startsWith("application/json");
  return { res, status: res.status, text, json: isJson ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};

describe("REST transcoding", () => {
  it("answers a GET on the service root, with or without a trailing slash, emitting default values", async () => {
    for (const path of ["/api/fixture", "/api/fixture/"]) {
      const r = await call("GET", path);
      expect(r.status).toBe(200);
      expect(r.res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.json).toEqual({ service: "fixture", count: 0 });
      // Sent whole with its length, not in chunks.
      expect(r.res.headers.get("content-length")).toBe(String(Buffer.byteLength(r.text)));
      expect(r.res.headers.get("transfer-encoding")).toBeNull();
    }
  });

  it("binds nested path variables and query parameters of every kind", async () => {
    const q =
      "thing.int64Value=9007199254740993&thing.color=COLOR_GREEN&thing.repeatedString=a&thing.repeatedString=b" +
      "&thing.timestamp=2024-05-01T10:00:00Z&thing.duration=2s&thing.boolWrapper=true&thing.stringMap[k]=v" +
      "&thing.nested.name=n&thing.fieldMask=a,b.c";
    const r = await call("GET", `/api/fixture/tenants/acme/things/caf%C3%A9?${q}`);
    expect(r.status).toBe(200);
    const thing = (r.json as { thing: Record<string, unknown> }).thing;
    expect((r.json as { tenant: string }).tenant).toBe("acme");
    expect(thing).toMatchObject({
      id: "café",
      int64Value: "9007199254740993",
      color: "COLOR_GREEN",
      repeatedString: ["a", "b"],
      timestamp: "2024-05-01T10:00:00Z",
      duration: "2s",
      boolWrapper: true,
      stringMap: { k: "v" },
      nested: { name: "n", amount: 0, color: "COLOR_UNSPECIFIED" },
      fieldMask: "a,b.c",
      int32Value: 0,
      boolValue: false,
      repeatedNested: [],
    });
    // Fields with explicit presence stay absent when unset.
    expect(thing).not.toHaveProperty("optionalInt32");
  });

  it("takes a body field (additional binding, POST) and the whole body (PUT)", async () => {
    const post = await call("POST", "/api/fixture/tenants/t1/things", {
      body: JSON.stringify({ id: "x", int32Value: 5 }),
      headers: { "content-type": "application/json" },
    });
    expect(post.status).toBe(200);
    expect(post.json).toMatchObject({ tenant: "t1", thing: { id: "x", int32Value: 5 } });
    const put = await call("PUT", "/api/fixture/echo", { body: JSON.stringify({ tenant: "t2", thing: { id: "y" } }) });
    expect(put.json).toMatchObject({ tenant: "t2", thing: { id: "y" } });
  });

  it("PATCH with body field and path variable inside it, DELETE, a custom method and a verb", async () => {
    const patch = await call("PATCH", "/api/fixture/things/p1?updateMask=stringValue", {
      body: JSON.stringify({ stringValue: "s" }),
    });
    expect(patch.json).toMatchObject({ thing: { id: "p1", stringValue: "s" }, updateMask: "stringValue" });
    expect((await call("DELETE", "/api/fixture/things/p1")).json).toEqual({});
    const search = await call("SEARCH", "/api/fixture/things?query=q&colors=COLOR_RED&colors=2&limit=3");
    expect(search.json).toMatchObject({
      count: 2,
      things: [{ id: "q", int32Value: 3, repeatedColor: ["COLOR_RED", "COLOR_GREEN"] }],
    });
    const archive = await call("POST", "/api/fixture/shelves/s1:archive", { body: '{"reason":"old"}' });
    expect(archive.json).toEqual({ name: "shelves/s1", reason: "old", archived: true });
  });

  it("literal paths beat variables; ** captures the rest; response_body answers with one field", async () => {
    expect((await call("GET", "/api/fixture/things/special")).json).toEqual({ kind: "special" });
    expect((await call("GET", "/api/fixture/things/other")).json).toMatchObject({ thing: { id: "other" } });
    expect((await call("GET", "/api/fixture/files/b/a/b%20c/d.txt")).json).toEqual({
      bucket: "b",
      path: "a/b c/d.txt",
    });
    const shelf = await call("GET", "/api/fixture/shelves/s9");
    expect(shelf.json).toMatchObject({ id: "shelves/s9", int32Value: 0 });
    expect(shelf.json).not.toHaveProperty("name");
  });

  it("streams server-streaming RPCs as NDJSON, or as SSE when asked", async () => {
    const nd = await call("GET", "/api/fixture/things:stream?count=3");
    expect(nd.res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(nd.text).toBe('{"index":0}\n{"index":1}\n{"index":2}\n');
    const sse = await call("GET", "/api/fixture/things:stream?count=2", { headers: { accept: "text/event-stream" } });
    expect(sse.res.headers.get("content-type")).toBe("text/event-stream");
    expect(sse.text).toBe('data: {"index":0}\n\ndata: {"index":1}\n\n');
  });

  it("ends a failing stream with an error line, or a plain error before the first message", async () => {
    const late = await call("GET", "/api/fixture/things:stream?count=1&failCode=permission_denied");
    expect(late.status).toBe(200);
    expect(
      late.text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ index: 0 }, { error: { statusCode: 403, message: "stream failed", error: "Forbidden" } }]);
    const early = await call("GET", "/api/fixture/things:stream?count=0&failCode=not_found");
    expect(early.status).toBe(404);
    expect(early.json).toEqual({ statusCode: 404, message: "stream failed", error: "Not Found" });
  });
});

describe("REST errors", () => {
  it.each([
    ["invalid_argument", 400, "Bad Request"],
    ["unauthenticated", 401, "Unauthorized"],
    ["permission_denied", 403, "Forbidden"],
    ["not_found", 404, "Not Found"],
    ["already_exists", 409, "Conflict"],
    ["aborted", 409, "Conflict"],
    ["failed_precondition", 400, "Bad Request"],
    ["resource_exhausted", 429, "Too Many Requests"],
    ["unimplemented", 501, "Not Implemented"],
    ["unavailable", 503, "Service Unavailable"],
    ["deadline_exceeded", 504, "Gateway Timeout"],
  ])("a service's %s is %i with its message", async (code, status, error) => {
    const r = await call(
      "GET",
      `/api/fixture/fail/${code}?message=${encodeURIComponent("this email is already registered")}`,
    );
    expect(r.status).toBe(status);
    expect(r.json).toEqual({ statusCode: status, message: "this email is already registered", error });
  });

  it("passes an error's allow-listed headers (retry-after) to the REST caller, and no others", async () => {
    const r = await call("GET", "/api/fixture/fail/resource_exhausted?message=slow%20down");
    expect(r.status).toBe(429);
    expect(r.res.headers.get("retry-after")).toBe("30");
    expect(r.res.headers.get("x-internal-detail")).toBeNull();
  });

  it("a plain exception in a service is a 500 with a generic message", async () => {
    const r = await call("GET", "/api/fixture/fail/throw");
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ statusCode: 500, message: "internal server error", error: "Internal Server Error" });
    expect(r.text).not.toContain(SECRET_DETAIL);
  });

  it("unknown path → 404, known path with another method → 405 with Allow", async () => {
    const nf = await call("GET", "/api/fixture/nope");
    expect(nf.status).toBe(404);
    expect(nf.json).toEqual({ statusCode: 404, message: "Cannot GET /api/fixture/nope", error: "Not Found" });
    const na = await call("PUT", "/api/fixture/things/x");
    expect(na.status).toBe(405);
    expect(na.res.headers.get("allow")).toBe("DELETE, GET, PATCH");
    expect(na.json).toEqual({
      statusCode: 405,
      message: "Cannot PUT /api/fixture/things/x",
      error: "Method Not Allowed",
    });
  });

  it.each([
    ["unknown query parameter", "GET", "/api/fixture/things/x?nope=1", undefined, /unknown query parameter "nope"/],
    ["wrong type in query", "GET", "/api/fixture/things:stream?count=abc", undefined, /count/],
    ["malformed JSON", "PUT", "/api/fixture/echo", "{", /malformed JSON/],
    ["unknown body field", "PUT", "/api/fixture/echo", '{"nope":1}', /nope/],
    ["bad percent-encoding", "GET", "/api/fixture/things/%E0%A4%A", undefined, /percent-encoding/],
  ])("%s → 400", async (_what, method, path, body, message) => {
    const r = await call(method, path, body === undefined ? {} : { body });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ statusCode: 400, error: "Bad Request" });
    expect((r.json as { message: string }).message).toMatch(message);
  });

  it("a body over the limit is a 413, declared or streamed", async () => {
    const big = JSON.stringify({ tenant: "x".repeat(2000) });
    const declared = await call("PUT", "/api/fixture/echo", { body: big });
    expect(declared.status).toBe(413);
    expect(declared.json).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
    const chunked = await call("PUT", "/api/fixture/echo", {
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const ok = await call("PUT", "/api/fixture/echo", { body: JSON.stringify({ tenant: "x".repeat(900) }) });
    expect(ok.status).toBe(200);
  });

  it("issue 12: a google.api.HttpBody answer is sent as its bytes with its content type and the service's cache-control", async () => {
    const res = await fetch(gw.url + "/api/fixture/downloads/seg_00001.ts");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp2t");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(Uint8Array.from({ length: 256 }, (_, i) => i));
    const playlist = await fetch(gw.url + "/api/fixture/downloads/index.m3u8");
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    await playlist.arrayBuffer();
  });

  it("a non-JSON content type is a 415", async () => {
    const r = await call("PUT", "/api/fixture/echo", {
      body: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(415);
  });
});

describe("headers", () => {
  it("passes only the allow-list to services, sets x-forwarded-for from the socket and returns the request id", async () => {
    seenByService.length = 0;
    const r = await call("GET", "/api/fixture/tenants/t/things/i", {
      headers: {
        authorization: "Bearer abc",
        "accept-language": "de",
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "x-forwarded-for": "6.6.6.6",
        cookie: "session=1",
        "x-internal": "nope",
        "x-request-id": "req-42",
      },
    });
    expect(r.res.headers.get("x-request-id")).toBe("req-42");
    const seen = (r.json as { headers: Record<string, string> }).headers;
    expect(seen).toMatchObject({
      authorization: "Bearer abc",
      "accept-language": "de",
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "x-forwarded-for": "127.0.0.1",
      "x-request-id": "req-42",
    });
    expect(seen["user-agent"]).toBeTruthy();
    expect(seen).not.toHaveProperty("cookie");
    expect(seen).not.toHaveProperty("x-internal");
    // Response headers: the allow-listed etag crosses, the service's internal header does not.
    expect(r.res.headers.get("etag")).toBe('"echo"');
    expect(r.res.headers.get("x-internal-secret")).toBeNull();
  });

  it("generates a request id when the caller sends none (or a bad one)", async () => {
    const a = await call("GET", "/api/fixture");
    const b = await call("GET", "/api/fixture", { headers: { "x-request-id": "x".repeat(500) } });
    for (const r of [a, b]) expect(r.res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.res.headers.get("x-request-id")).not.toBe(b.res.headers.get("x-request-id"));
  });

  it("answers CORS preflights for configured origins only", async () => {
    const ok = await call("OPTIONS", "/api/fixture/things/x", {
      headers: { origin: "https://app.example", "access-control-request-method": "PATCH" },
    });
    expect(ok.status).toBe(204);
    expect(ok.res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(ok.res.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(ok.res.headers.get("access-control-allow-methods")).toContain("SEARCH");
    const other = await call("OPTIONS", "/api/fixture", {
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(other.res.headers.get("access-control-allow-origin")).toBeNull();
    const simple = await call("GET", "/api/fixture", { headers: { origin: "https://app.example" } });
    expect(simple.res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(simple.res.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });
});

describe("logging and static files", () => {
  it("logs the detail of a 500 that the caller does not see", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logged = await startFixtureGateway({ logger: pino({ level: "error" }, sink) });
    try {
      const res = await fetch(`${logged.url}/api/fixture/fail/internal?message=${encodeURIComponent(SECRET_DETAIL)}`, {
        headers: { "x-request-id": "trace-me" },
      });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain(SECRET_DETAIL);
      const entry = JSON.parse(lines.join("")) as { requestId: string; err: { message: string } };
      expect(entry.requestId).toBe("trace-me");
      expect(entry.err.message).toContain(SECRET_DETAIL);
    } finally {
      await logged.close();
    }
  });

  it("asks the static handler only for paths no rule knows", async () => {
    const asked: string[] = [];
    const withStatic = await startFixtureGateway({
      staticHandler: (req, res) => {
        asked.push(req.url ?? "");
        if (req.url !== "/index.html") return false;
        (res as ServerResponse).writeHead(200, { "content-type": "text/html" });
        res.end("<html></html>");
        return true;
      },
    });
    try {
      expect(await (await fetch(`${withStatic.url}/index.html`)).text()).toBe("<html></html>");
      expect((await fetch(`${withStatic.url}/api/fixture`)).status).toBe(200);
      const missing = await fetch(`${withStatic.url}/missing.js`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ statusCode: 404, error: "Not Found" });
      expect((await fetch(`${withStatic.url}/api/fixture`, { method: "DELETE" })).status).toBe(405);
      expect(asked).toEqual(["/index.html", "/missing.js"]);
    } finally {
      await withStatic.close();
    }
  });
});

describe("with the kit's in-process transport", () => {
  it("transcodes the same way as over the router transport", async () => {
    const captured = captureRoutes(fixtureRoutes);
    const gateway = createGateway({
      backends: [
        {
          services: [FixtureService],
          transport: createInProcessTransport({ methods: captured.methods, interceptors: [] }),
          connect: { handler: connectNodeAdapter({ routes: fixtureRoutes }) },
        },
      ],
    });
    const running = await listen(gateway.handler);
    try {
      const get = await fetch(`${running.url}/api/fixture/tenants/t/things/x?thing.int64Value=5`);
      expect(await get.json()).toMatchObject({ tenant: "t", thing: { id: "x", int64Value: "5", int32Value: 0 } });
      const fail = await fetch(`${running.url}/api/fixture/fail/not_found?message=gone`);
      expect(fail.status).toBe(404);
      expect(await fail.json()).toEqual({ statusCode: 404, message: "gone", error: "Not Found" });
      const stream = await fetch(`${running.url}/api/fixture/things:stream?count=2`);
      expect(await stream.text()).toBe('{"index":0}\n{"index":1}\n');
    } finally {
      await running.close();
    }
  });
});

describe("Connect passthrough", () => {
  it.each([
    [
      "Connect JSON over HTTP/1.1",
      () => createConnectTransport({ baseUrl: gw.url, httpVersion: "1.1", useBinaryFormat: false }),
    ],
    ["gRPC over HTTP/2", () => createGrpcTransport({ baseUrl: gw.h2url })],
    ["gRPC-Web", () => createGrpcWebTransport({ baseUrl: gw.url, httpVersion: "1.1" })],
    ["gRPC proxied to a base URL", () => createGrpcTransport({ baseUrl: proxied.h2url })],
    ["Connect proxied to a base URL", () => createConnectTransport({ baseUrl: proxied.url, httpVersion: "1.1" })],
    ["Connect over HTTP/2 proxied", () => createConnectTransport({ baseUrl: proxied.h2url, httpVersion: "2" })],
  ])("%s: unary, errors and server streaming", async (_what, transport) => {
    const client = createClient(FixtureService, transport());
    expect((await client.getThing({ id: "g1" })).thing?.id).toBe("g1");
    await expect(client.fail({ code: "permission_denied", message: "no" })).rejects.toMatchObject({
      code: 7,
      rawMessage: "no",
    });
    const got: number[] = [];
    for await (const m of client.streamThings({ count: 3 })) got.push(m.index);
    expect(got).toEqual([0, 1, 2]);
  });

  it.each([
    ["proxied over h2c", () => createGrpcTransport({ baseUrl: proxied.h2url })],
    ["in-process handler over HTTP/1.1", () => createConnectTransport({ baseUrl: gw.url, httpVersion: "1.1" })],
    ["in-process handler over h2c", () => createGrpcTransport({ baseUrl: gw.h2url })],
  ])("filters passthrough headers like REST ones (%s)", async (_what, transport) => {
    const client = createClient(FixtureService, transport());
    const res = await client.echo(
      { tenant: "t" },
      { headers: { cookie: "c=1", authorization: "Bearer z", "x-forwarded-for": "6.6.6.6", "x-request-id": "rid" } },
    );
    expect(res.headers.authorization).toBe("Bearer z");
    expect(res.headers).not.toHaveProperty("cookie");
    expect(res.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(res.headers["x-request-id"]).toBe("rid");
  });

  it("serves the OpenAPI document", async () => {
    const r = await call("GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect((r.json as { openapi: string }).openapi).toBe("3.1.0");
  });
});
