// Which headers cross the gateway (CONVENTIONS 16, after grpc-gateway's DefaultHeaderMatcher): an
// allow-list each way, so cookies, hop-by-hop and internal headers never reach a service or a caller.
import type { IncomingHttpHeaders } from "node:http";
import { requestIdOf as keptRequestId } from "@tt/kit";

/** Request headers passed to services. x-forwarded-for is always set by the gateway itself. */
export const DEFAULT_REQUEST_HEADERS: readonly string[] = [
  "authorization",
  "x-request-id",
  "accept-language",
  "user-agent",
  "traceparent",
  // Makes a spending call safe to retry (the merch service's purchases, as Stripe's API does).
  "idempotency-key",
  // Stripe's webhook signature (the payment service verifies it against the raw body).
  "stripe-signature",
];

/** Service response headers passed back to REST callers. */
export const DEFAULT_RESPONSE_HEADERS: readonly string[] = [
  "cache-control",
  "content-language",
  "etag",
  "last-modified",
  "location",
  "retry-after",
  "www-authenticate",
];

export interface HeaderPolicy {
  request: ReadonlySet<string>;
  response: ReadonlySet<string>;
  /**
   * Behind a trusted proxy, append the socket address to the caller's x-forwarded-for; otherwise (the
   * default) the caller's value is dropped and the socket address is the whole chain.
   */
  trustForwardedFor: boolean;
}

export function createHeaderPolicy(opts?: {
  request?: readonly string[];
  response?: readonly string[];
  trustForwardedFor?: boolean;
}): HeaderPolicy {
  return {
    request: new Set((opts?.request ?? DEFAULT_REQUEST_HEADERS).map((h) => h.toLowerCase())),
    response: new Set((opts?.response ?? DEFAULT_RESPONSE_HEADERS).map((h) => h.toLowerCase())),
    trustForwardedFor: opts?.trustForwardedFor ?? false,
  };
}

/**
 * The caller's x-request-id when it is sane, otherwise a new one: the kit's rule (`requestIdOf` of
 * `@tt/kit`), so a service behind the gateway keeps and logs the very id the gateway echoes.
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const id = headers["x-request-id"];
  return keptRequestId(typeof id === "string" ? id : undefined);
}

/** The headers a service sees for this request. */
export function forwardRequestHeaders(
  policy: HeaderPolicy,
  incoming: IncomingHttpHeaders,
  remoteAddress: string | undefined,
  requestId: string,
): Headers {
  const out = new Headers();
  for (const name of policy.request) {
    const value = incoming[name];
    if (typeof value === "string") out.set(name, value);
    else if (Array.isArray(value)) out.set(name, value.join(", "));
  }
  out.set("x-request-id", requestId);
  const xff = incoming["x-forwarded-for"];
  const prior = policy.trustForwardedFor && typeof xff === "string" && xff !== "" ? `${xff}, ` : "";
  if (remoteAddress) out.set("x-forwarded-for", prior + remoteAddress);
  return out;
}

/** The service response headers a REST caller sees. */
export function forwardResponseHeaders(
  policy: HeaderPolicy,
  ...sources: Array<Headers | undefined>
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    source?.forEach((value, name) => {
      if (policy.response.has(name)) out[name] = value;
    });
  }
  return out;
}
