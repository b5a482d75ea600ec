// A stream whose later messages are written directly (direct-stream.ts) reads the same as one Connect wrote whole, for
// every protocol and codec a client may pick, over HTTP/1.1 and HTTP/2.
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { createClient, type HandlerContext, type Transport } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { EchoService, EchoStreamResponseSchema } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directStream, directStreams, SharedMessage } from "./direct-stream.ts";

/** EchoStream: the first message through Connect, the others directly when the call has a direct stream. */
function routes(seen: { direct: boolean[] }) {
  return connectNodeAdapter({
    contextValues: direct.values,
    routes: (router) =>
      router.service(EchoService, {
        async *echoStream(req, ctx: HandlerContext) {
          const out = directStream(ctx);
          seen.direct.push(out !== undefined);
          yield { text: req.text, index: 0 };
          for (let index = 1; index < req.count; index++) {
            const message = new SharedMessage(
              EchoStreamResponseSchema,
              create(EchoStreamResponseSchema, { text: req.text, index }),
            );
            if (out) expect(out.write(message.frame(out.format))).toBe(true);
            else yield message.message;
          }
        },
      }),
  });
}

const direct = directStreams();
const seen = { direct: [] as boolean[] };
let h1: http.Server;
let h2: http2.Http2Server;
let url1 = "";
let url2 = "";

beforeAll(async () => {
  const handler = direct.wrap(routes(seen));
  h1 = http.createServer(handler);
  h2 = http2.createServer(handler);
  await Promise.all([
    new Promise<void>((resolve) => h1.listen(0, "127.0.0.1", resolve)),
    new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve)),
  ]);
  url1 = `http://127.0.0.1:${(h1.address() as AddressInfo).port}`;
  url2 = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
});

afterAll(async () => {
  h1.closeAllConnections();
  await Promise.all([new Promise((resolve) => h1.close(resolve)), new Promise((resolve) => h2.close(resolve))]);
});

describe("direct stream writes", () => {
  const transports: [string, () => Transport][] = [
    ["Connect binary, HTTP/1.1", () => createConnectTransport({ baseUrl: url1, httpVersion: "1.1" })],
    [
      "Connect JSON, HTTP/1.1",
      () => createConnectTransport({ baseUrl: url1, httpVersion: "1.1", useBinaryFormat: false }),
    ],
    ["Connect binary, HTTP/2", () => createConnectTransport({ baseUrl: url2, httpVersion: "2" })],
    ["Connect JSON, HTTP/2", () => createConnectTransport({ baseUrl: url2, httpVersion: "2", useBinaryFormat: false })],
    ["gRPC", () => createGrpcTransport({ baseUrl: url2 })],
    ["gRPC-Web binary", () => createGrpcWebTransport({ baseUrl: url1, httpVersion: "1.1" })],
    ["gRPC-Web JSON", () => createGrpcWebTransport({ baseUrl: url2, httpVersion: "2", useBinaryFormat: false })],
  ];

  it.each(transports)("%s: every message in order, then a clean end", async (_name, transport) => {
    const client = createClient(EchoService, transport());
    const got: [string, number][] = [];
    for await (const m of client.echoStream({ text: "hi", count: 5 })) got.push([m.text, m.index]);
    expect(got).toEqual([0, 1, 2, 3, 4].map((i) => ["hi", i]));
    expect(seen.direct.at(-1)).toBe(true);
  });
});
