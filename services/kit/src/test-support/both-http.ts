// A Node handler served over HTTP/1.1 and HTTP/2 (h2c) on free ports, with a client transport for every protocol and
// codec a caller may pick, for tests that hold a server stream to each of them.
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { NodeRequestHandler } from "../transport/server.ts";

/** Every protocol and codec a caller may pick, on the HTTP version it is tested on. */
export const TRANSPORTS = [
  "Connect binary, HTTP/1.1",
  "Connect JSON, HTTP/1.1",
  "Connect binary, HTTP/2",
  "Connect JSON, HTTP/2",
  "gRPC",
  "gRPC-Web binary, HTTP/1.1",
  "gRPC-Web JSON, HTTP/2",
] as const;
export type TransportName = (typeof TRANSPORTS)[number];

export interface BothHttp {
  /** http://127.0.0.1:<port> of the HTTP/1.1 server and of the HTTP/2 one. */
  url1: string;
  url2: string;
  /** A client transport of one of TRANSPORTS to these servers. */
  transport(name: TransportName): Transport;
  close(): Promise<void>;
}

export async function serveBothHttp(handler: NodeRequestHandler): Promise<BothHttp> {
  const h1 = http.createServer(handler);
  const h2 = http2.createServer(handler);
  await Promise.all([
    new Promise<void>((resolve) => h1.listen(0, "127.0.0.1", resolve)),
    new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve)),
  ]);
  const url1 = `http://127.0.0.1:${(h1.address() as AddressInfo).port}`;
  const url2 = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
  const make: Record<TransportName, () => Transport> = {
    "Connect binary, HTTP/1.1": () => createConnectTransport({ baseUrl: url1, httpVersion: "1.1" }),
    "Connect JSON, HTTP/1.1": () =>
      createConnectTransport({ baseUrl: url1, httpVersion: "1.1", useBinaryFormat: false }),
    "Connect binary, HTTP/2": () => createConnectTransport({ baseUrl: url2, httpVersion: "2" }),
    "Connect JSON, HTTP/2": () => createConnectTransport({ baseUrl: url2, httpVersion: "2", useBinaryFormat: false }),
    gRPC: () => createGrpcTransport({ baseUrl: url2 }),
    "gRPC-Web binary, HTTP/1.1": () => createGrpcWebTransport({ baseUrl: url1, httpVersion: "1.1" }),
    "gRPC-Web JSON, HTTP/2": () => createGrpcWebTransport({ baseUrl: url2, httpVersion: "2", useBinaryFormat: false }),
  };
  return {
    url1,
    url2,
    transport: (name) => make[name](),
    async close() {
      h1.closeAllConnections();
      await Promise.all([new Promise((resolve) => h1.close(resolve)), new Promise((resolve) => h2.close(resolve))]);
    },
  };
}
