// How a bot reaches the platform: Connect (HTTP/1.1 or HTTP/2) or gRPC (HTTP/2) to the gateway's address, the same
// address the web apps and REST clients use, with the bot token as `Authorization: Bearer …` on every call.
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";

export type Protocol = "connect" | "grpc";

export interface BotTransportOptions {
  /** The platform's address, e.g. http://localhost:8080 (the gateway). */
  baseUrl: string;
  /** Connect (the default) or gRPC. gRPC always runs over HTTP/2 (h2c on an http:// address). */
  protocol?: Protocol;
  /** Connect only: "1.1" (the default, as a browser sends it) or "2". */
  httpVersion?: "1.1" | "2";
  /** The bearer of every call, read on each call so a renewed token takes over at once. */
  token: () => string;
}

/** Sets `Authorization: Bearer <token>` on every call. */
export function bearerInterceptor(token: () => string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token()}`);
    return next(req);
  };
}

export function createBotTransport(options: BotTransportOptions): Transport {
  const interceptors = [bearerInterceptor(options.token)];
  return options.protocol === "grpc"
    ? createGrpcTransport({ baseUrl: options.baseUrl, interceptors })
    : createConnectTransport({ baseUrl: options.baseUrl, httpVersion: options.httpVersion ?? "1.1", interceptors });
}
