import { Writable } from "node:stream";
import { createLoggingInterceptor, createRequestIdInterceptor } from "@tt/kit";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createHeaderPolicy, forwardRequestHeaders, forwardResponseHeaders, requestIdOf } from "./headers.ts";
import { startFixtureGateway } from "./testing/servers.ts";

describe("header allow-lists", () => {
  const incoming = {
    authorization: "Bearer t",
    "x-request-id": "r1",
    "accept-language": "fr",
    "user-agent": "ua",
    traceparent: "tp",
    "idempotency-key": "k1",
    "x-forwarded-for": "1.2.3.4",
    cookie: "a=b",
    host: "example",
    "content-type": "application/json",
    "x-user-id": "spoofed",
  };

  it("passes only allow-listed request headers and sets x-forwarded-for from the socket", () => {
    const h = forwardRequestHeaders(createHeaderPolicy(), incoming, "10.0.0.9", "r1");
    expect(Object.fromEntries(h)).toEqual({
      authorization: "Bearer t",
      "x-request-id": "r1",
      "accept-language": "fr",
      "user-agent": "ua",
      traceparent: "tp",
      "idempotency-key": "k1",
      "x-forwarded-for": "10.0.0.9",
    });
  });

  it("appends to x-forwarded-for only behind a trusted proxy", () => {
    const h = forwardRequestHeaders(createHeaderPolicy({ trustForwardedFor: true }), incoming, "10.0.0.9", "r1");
    expect(h.get("x-forwarded-for")).toBe("1.2.3.4, 10.0.0.9");
  });

  it("takes a custom list", () => {
    const h = forwardRequestHeaders(createHeaderPolicy({ request: ["X-User-Id"] }), incoming, undefined, "r2");
    expect(Object.fromEntries(h)).toEqual({ "x-user-id": "spoofed", "x-request-id": "r2" });
  });

  it("passes only allow-listed response headers", () => {
    const header = new Headers({ etag: "e", "set-cookie": "s=1", "x-debug": "d", "content-length": "5" });
    const trailer = new Headers({ "retry-after": "3", "grpc-status": "0" });
    expect(forwardResponseHeaders(createHeaderPolicy(), header, trailer)).toEqual({ etag: "e", "retry-after": "3" });
  });

  it.each([
    [{ "x-request-id": "abc-123" }, "abc-123"],
    [{ "x-request-id": "req#7" }, "req#7"],
    [{ "x-request-id": "has space" }, undefined],
    [{ "x-request-id": "x".repeat(129) }, undefined],
    [{ "x-request-id": "line\nbreak" }, undefined],
    [{}, undefined],
  ])("request id from %j", (headers, kept) => {
    const id = requestIdOf(headers);
    if (kept) expect(id).toBe(kept);
    else expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe("request ids", () => {
  it("issue 10: req#7 is echoed by the gateway and logged by the service as the same id", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = pino({ level: "debug" }, sink);
    const gw = await startFixtureGateway({
      interceptors: [createRequestIdInterceptor({ logger }), createLoggingInterceptor({ logger })],
    });
    try {
      for (const protocol of ["rest", "connect"] as const) {
        lines.length = 0;
        const res =
          protocol === "rest"
            ? await fetch(`${gw.url}/api/fixture/fail/not_found`, { headers: { "x-request-id": "req#7" } })
            : await fetch(`${gw.url}/tt.fixture.v1.FixtureService/Fail`, {
                method: "POST",
                headers: { "x-request-id": "req#7", "content-type": "application/json" },
                body: JSON.stringify({ code: "not_found" }),
              });
        expect(res.status).toBe(404);
        expect(res.headers.get("x-request-id")).toBe("req#7");
        const logged = lines.map((l) => JSON.parse(l) as { requestId?: string; msg: string });
        expect(logged.filter((l) => l.msg === "rpc failed").map((l) => l.requestId)).toEqual(["req#7"]);
      }
    } finally {
      await gw.close();
    }
  });
});
