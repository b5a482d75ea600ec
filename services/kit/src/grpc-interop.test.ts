// Interoperability with a gRPC stack that shares no code with ours: @grpc/grpc-js loads the same .proto
// text and calls the kit's server over HTTP/2, unary and server streaming, with and without a token.
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEchoServer, type EchoServer } from "./test-support/echo-service.ts";
import type { TestTokenIssuer } from "./testing/index.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

interface EchoReply {
  text: string;
  subject: string;
  tokenType: string;
  requestId: string;
}
type UnaryFn = (
  req: object,
  md: grpc.Metadata,
  cb: (err: grpc.ServiceError | null, res?: EchoReply) => void,
) => grpc.ClientUnaryCall;
interface GrpcEchoClient extends grpc.Client {
  Echo: UnaryFn;
  GuestEcho: UnaryFn;
  EchoStream(req: object, md: grpc.Metadata): grpc.ClientReadableStream<{ text: string; index: number }>;
}

let echo: EchoServer | undefined;
let issuer: TestTokenIssuer;
let client: GrpcEchoClient;

beforeAll(async () => {
  echo = await startEchoServer(inject("databaseUrl"));
  issuer = echo.issuer;
  const definition = await protoLoader.load("tt/testing/v1/echo_service.proto", {
    includeDirs: [path.join(root, "proto"), path.join(root, "node_modules/google-proto-files")],
    keepCase: false,
    defaults: true,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    tt: { testing: { v1: { EchoService: new (address: string, creds: grpc.ChannelCredentials) => GrpcEchoClient } } };
  };
  client = new pkg.tt.testing.v1.EchoService(`127.0.0.1:${echo.server.port}`, grpc.credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await echo?.close();
});

function unary(fn: UnaryFn, req: object, md = new grpc.Metadata()): Promise<EchoReply> {
  return new Promise((resolve, reject) => fn.call(client, req, md, (err, res) => (err ? reject(err) : resolve(res!))));
}

function withToken(token: string): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set("authorization", `Bearer ${token}`);
  return md;
}

describe("gRPC interoperability (@grpc/grpc-js)", () => {
  it("calls a unary method anonymously and with a token", async () => {
    expect(await unary(client.Echo, { text: "plain" })).toMatchObject({ text: "plain", subject: "", tokenType: "" });
    const token = await issuer.sign({ typ: "user", sub: "u-9" });
    expect(await unary(client.Echo, { text: "who" }, withToken(token))).toMatchObject({
      text: "who",
      subject: "u-9",
      tokenType: "user",
    });
  });

  it("receives a server stream", async () => {
    const token = await issuer.sign({ typ: "guest" });
    const got: Array<{ text: string; index: number }> = [];
    const call = client.EchoStream({ text: "s", count: 3 }, withToken(token));
    for await (const m of call) got.push({ text: m.text, index: m.index });
    expect(got).toEqual([
      { text: "s", index: 0 },
      { text: "s", index: 1 },
      { text: "s", index: 2 },
    ]);
  });

  it("sees refusals as UNAUTHENTICATED with the kit's message", async () => {
    const error = await unary(client.GuestEcho, { text: "x" }).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(error?.details).toBe("missing access token");
    const stream = client.EchoStream({ count: 1 }, new grpc.Metadata());
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: "missing access token" });
  });

  it("gets the request id back in the response metadata", async () => {
    const md = new grpc.Metadata();
    md.set("x-request-id", "grpc-req-1");
    const header = await new Promise<grpc.Metadata>((resolve, reject) => {
      const call = client.Echo({ text: "id" }, md, (err) => err && reject(err));
      call.on("metadata", resolve);
    });
    expect(header.get("x-request-id")).toEqual(["grpc-req-1"]);
  });
});
