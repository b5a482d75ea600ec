// CORS for browser callers on other origins (frontends served from a CDN, local dev servers). Only the
// configured origins get CORS headers; "*" allows any origin but then credentials are not allowed.
import type { IncomingHttpHeaders } from "node:http";

export interface CorsOptions {
  /** Exact origins ("https://tt.example") or "*". */
  origins: string[];
  /** How long a browser may cache a preflight answer. */
  maxAgeSeconds?: number;
}

/** Request headers a browser may send: the REST allow-list plus what Connect and gRPC-Web clients send. */
export const DEFAULT_CORS_ALLOW_HEADERS: readonly string[] = [
  "authorization",
  "content-type",
  "accept-language",
  "x-request-id",
  "traceparent",
  "idempotency-key",
  "connect-protocol-version",
  "connect-timeout-ms",
  "grpc-timeout",
  "x-grpc-web",
  "x-user-agent",
];

/** Response headers a browser script may read. */
export const DEFAULT_CORS_EXPOSE_HEADERS: readonly string[] = [
  "x-request-id",
  "grpc-status",
  "grpc-message",
  "grpc-status-details-bin",
  "location",
  "retry-after",
];

export const DEFAULT_CORS_METHODS: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export interface Cors {
  /** Response headers for an actual (non-preflight) request; empty when the origin is not allowed. */
  headersFor(requestHeaders: IncomingHttpHeaders): Record<string, string>;
  /** The answer to a preflight, or undefined when the request is not one. */
  preflight(
    method: string | undefined,
    requestHeaders: IncomingHttpHeaders,
  ): { status: number; headers: Record<string, string> } | undefined;
}

export function createCors(options: CorsOptions, extraMethods: readonly string[] = []): Cors {
  const any = options.origins.includes("*");
  const allowed = new Set(options.origins);
  const methods = [...new Set([...DEFAULT_CORS_METHODS, ...extraMethods])].join(", ");
  const allowHeaders = DEFAULT_CORS_ALLOW_HEADERS.join(", ");
  const expose = DEFAULT_CORS_EXPOSE_HEADERS.join(", ");
  const maxAge = String(options.maxAgeSeconds ?? 600);

  const originHeaders = (origin: string | undefined): Record<string, string> | undefined => {
    if (!origin) return undefined;
    if (any) return { "access-control-allow-origin": "*" };
    if (!allowed.has(origin)) return undefined;
    return { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" };
  };

  return {
    headersFor(h) {
      const base = originHeaders(h.origin);
      return base ? { ...base, "access-control-expose-headers": expose } : {};
    },
    preflight(method, h) {
      if (method !== "OPTIONS" || !h["access-control-request-method"]) return undefined;
      const base = originHeaders(h.origin);
      // A preflight from an origin we do not serve gets no CORS headers; the browser then refuses.
      if (!base) return { status: 204, headers: { vary: "Origin" } as Record<string, string> };
      return {
        status: 204,
        headers: {
          ...base,
          "access-control-allow-methods": methods,
          "access-control-allow-headers": allowHeaders,
          "access-control-max-age": maxAge,
        },
      };
    },
  };
}
