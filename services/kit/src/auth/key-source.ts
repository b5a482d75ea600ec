// Where verification keys come from. A source may cache; `refresh` asks it to fetch anew, which the
// verifier does once when a token names a key id it has not seen (key rotation).
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { JSONWebKeySet, JWK } from "jose";
import { createReplicatedTransport, parseServiceUrls, ReplicaSet } from "../transport/replicas.ts";

export type KeySource = (opts?: { refresh?: boolean }) => Promise<JSONWebKeySet>;

export interface RemoteKeySourceOptions {
  /** How long a fetched key set is used before it is fetched again. Default 5 minutes. */
  ttlMs?: number;
  /** Per-request timeout. Default 5 seconds. */
  timeoutMs?: number;
}

/**
 * Keys from the user service's GetJwks RPC (gRPC over HTTP/2), cached for `ttlMs`. `userServiceUrl` is
 * USER_SERVICE_URL: one URL, or every replica's comma-separated (transport/replicas.ts).
 */
export function remoteKeySource(userServiceUrl: string, opts: RemoteKeySourceOptions = {}): KeySource {
  const ttlMs = opts.ttlMs ?? 5 * 60_000;
  const urls = parseServiceUrls(userServiceUrl);
  const transport =
    urls.length === 1
      ? createGrpcTransport({ baseUrl: urls[0]! })
      : createReplicatedTransport(
          new ReplicaSet(urls),
          urls.map((baseUrl) => {
            const session = new Http2SessionManager(baseUrl);
            return { session, transport: createGrpcTransport({ baseUrl, sessionManager: session }) };
          }),
        );
  const client = createClient(AuthService, transport);
  let cached: { set: JSONWebKeySet; at: number } | undefined;
  // Concurrent callers share one fetch instead of stampeding the user service.
  let inflight: Promise<JSONWebKeySet> | undefined;

  const fetchSet = async (): Promise<JSONWebKeySet> => {
    const res = await client.getJwks({}, { timeoutMs: opts.timeoutMs ?? 5_000 });
    const set: JSONWebKeySet = {
      keys: res.keys.map((k) => {
        const jwk: JWK = { kty: k.kty };
        // Proto3 strings are "" when absent; a JWK must not carry empty members.
        for (const name of ["crv", "x", "kid", "alg", "use"] as const) if (k[name] !== "") jwk[name] = k[name];
        return jwk;
      }),
    };
    cached = { set, at: Date.now() };
    return set;
  };

  return async ({ refresh = false } = {}) => {
    if (!refresh && cached && Date.now() - cached.at < ttlMs) return cached.set;
    inflight ??= fetchSet().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
}
