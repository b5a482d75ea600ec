// Headers every API answer of the gateway carries (REST answers and errors, /openapi.json, Connect, gRPC
// and gRPC-Web passthrough answers), issue 9 defect 9:
// - X-Content-Type-Options: nosniff, so that no answer is ever sniffed into something a browser runs;
// - Cache-Control: no-store on every API answer, not only on the ones that carry tokens (sign-up, login,
//   refresh, provider tokens …): which answers carry a token or personal data is the services' business, and
//   a rule that depends on the path would have to be kept per endpoint. A service that wants an answer cached
//   still says so with its own cache-control (forwarded by the header allow-list, it wins);
// - Strict-Transport-Security when the request arrived over TLS (see strictTransportSecurity).
import type { IncomingHttpHeaders } from "node:http";

/** One year, the value HSTS preload lists ask for; subdomains are the operator's business, so not included. */
export const HSTS_VALUE = "max-age=31536000";

interface RequestLike {
  headers: IncomingHttpHeaders;
  /** A TLSSocket has encrypted: true; a plain socket has no such property. */
  socket?: object | null;
}

/**
 * The HSTS header when the request came over TLS: on a TLS socket, or through a proxy (the chart's Ingress)
 * that says x-forwarded-proto: https. Trusting that header is safe here even without a trusted proxy: a
 * browser ignores Strict-Transport-Security on an answer that did not come over TLS (RFC 6797 §8.1), so a
 * forged header can only ever reach a client that is not on TLS and ignores it.
 */
export function strictTransportSecurity(req: RequestLike): string | undefined {
  if ((req.socket as { encrypted?: boolean } | null | undefined)?.encrypted === true) return HSTS_VALUE;
  const proto = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase();
  return first === "https" ? HSTS_VALUE : undefined;
}

/** The security headers of one API answer (lower-case names, as the gateway writes them). */
export function apiSecurityHeaders(req: RequestLike): Record<string, string> {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
  };
  const hsts = strictTransportSecurity(req);
  if (hsts) headers["strict-transport-security"] = hsts;
  return headers;
}
