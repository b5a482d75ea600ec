// Issue 23 findings 6 and 8 on the Connect path: the kit decides who may call before it reads or decodes the
// request body. A caller without a (valid) token learns nothing of the input rules, gets the 401/unauthenticated the
// specification asks for, and cannot make a service hold its body: the answer comes while the body is still unsent.
import http from "node:http";
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunningServer } from "./transport/server.ts";
import { startEchoServer, type EchoServer } from "./test-support/echo-service.ts";

const ADMIN_ECHO = "/tt.testing.v1.EchoService/AdminEcho";
const ECHO_STREAM = "/tt.testing.v1.EchoService/EchoStream";
const NOT_PROTOBUF = Uint8Array.from([0xff, 0xff]);

let echo: EchoServer | undefined;
let server: RunningServer;
let userToken: string;

beforeAll(async () => {
  echo = await startEchoServer(inject("databaseUrl"));
  server = echo.server;
  userToken = await echo.issuer.sign();
});
afterAll(async () => {
  await echo?.close();
});

async function post(path: string, contentType: string, body: Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body: Uint8Array.from(body),
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe("issue 23 finding 8: access before input on the Connect protocols", () => {
  it.each([
    ["no token", {}],
    ["a bad token", { authorization: "Bearer not.a.jwt" }],
  ])("a malformed protobuf body with %s is 401 unauthenticated, not 400", async (_what, headers) => {
    const res = await post(ADMIN_ECHO, "application/proto", NOT_PROTOBUF, headers);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: "unauthenticated" });
  });

  it("malformed JSON with a token of the wrong role is 401 unauthenticated", async () => {
    const res = await post(ADMIN_ECHO, "application/json", new TextEncoder().encode("{"), {
      authorization: `Bearer ${userToken}`,
    });
    expect(res.status).toBe(401);
  });

  it("a token that may call still gets the input's 400", async () => {
    const res = await post(ECHO_STREAM, "application/connect+json", new TextEncoder().encode("{"), {
      authorization: `Bearer ${userToken}`,
    });
    expect(res.status).toBe(200); // streaming: the error is in the end frame
    expect(res.body.toString()).toMatch(/invalid_argument/);
  });

  it("a server stream with a malformed envelope and no token ends unauthenticated", async () => {
    const res = await post(ECHO_STREAM, "application/connect+proto", NOT_PROTOBUF);
    expect(res.body.toString()).toMatch(/unauthenticated/);
    expect(res.body.toString()).not.toMatch(/invalid_argument/);
  });

  it("gRPC: a malformed message without a token is grpc-status 16", async () => {
    const session = http2.connect(server.url);
    try {
      const grpcStatus = await new Promise<string>((resolve, reject) => {
        const stream = session.request({
          ":method": "POST",
          ":path": ADMIN_ECHO,
          "content-type": "application/grpc+proto",
          te: "trailers",
        });
        let status = "";
        stream.on("response", (h) => (status = String(h["grpc-status"] ?? status)));
        stream.on("trailers", (t) => (status = String(t["grpc-status"] ?? status)));
        stream.on("data", () => undefined);
        stream.on("end", () => resolve(status));
        stream.on("error", reject);
        stream.end(Buffer.from([0, 0, 0, 0, 2, 0xff, 0xff]));
      });
      expect(grpcStatus).toBe("16");
    } finally {
      session.close();
    }
  });
});

describe("issue 23 finding 6: a stranger's body is not read before the refusal", () => {
  // The client declares a large body and sends none of it: only a server that decides before reading can answer.
  it.each([
    ["unary, Connect", ADMIN_ECHO, "application/proto"],
    ["server stream, Connect", ECHO_STREAM, "application/connect+proto"],
  ])("%s: refused unauthenticated while the declared 64 MiB are still unsent", async (_what, path, type) => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(server.url + path, {
        method: "POST",
        headers: { "content-type": type, "content-length": String(64 * 1024 * 1024) },
      });
      req.once("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("end", () => {
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("latin1") });
          req.destroy();
        });
      });
      req.once("error", reject);
      req.flushHeaders();
    });
    // Unary Connect answers 401; a Connect stream answers 200 and ends with the error.
    expect(answer.status).toBe(path === ADMIN_ECHO ? 401 : 200);
    expect(answer.body).toMatch(/unauthenticated/);
  });
});
