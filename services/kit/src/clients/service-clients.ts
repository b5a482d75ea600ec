// Typed clients for calling other services: `deps.clients.get(AuthService)`. The host builds them: a service it
// serves itself is called through its in-process transport (the same interceptor chain as the network, so access
// rules apply), any other over HTTP/2 (Connect) at <NAME>_SERVICE_URL: one URL, or every replica's comma-separated,
// spread over per call (../transport/replicas.ts). Either way each call carries a short-lived `service` token naming the caller
// and a deadline.
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { z } from "zod";
import {
  createServiceTokenMinter,
  SERVICE_TOKEN_KEY_VARIABLE,
  type ServiceIdentityKey,
} from "../auth/service-identity.ts";
import { ConfigError, timeoutMs, unsetIfEmpty } from "../config.ts";
import { REQUEST_ID_HEADER } from "../interceptors/request-id.ts";
import { currentRequestId } from "../process-guards.ts";
import { createServiceTransport, parseServiceUrls, type ServiceTransport } from "../transport/replicas.ts";

/** Deadline of a service call when neither the client nor the call names one. */
export const DEFAULT_SERVICE_CALL_TIMEOUT_MS = 5_000;

/** The host's variables for service calls; <NAME>_SERVICE_URL are read when a client of that service is made. */
export const serviceClientsEnvSchema = z.object({
  // Ed25519 PKCS8 PEM shared by the deployment's services (the chart's service identity Secret).
  SERVICE_TOKEN_PRIVATE_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  SERVICE_CALL_TIMEOUT_MS: timeoutMs(DEFAULT_SERVICE_CALL_TIMEOUT_MS),
});

export interface ServiceClientOptions {
  /** Deadline of every call of this client unless the call gives `timeoutMs`. Default: the host's. */
  timeoutMs?: number;
}

export interface ServiceClients {
  /**
   * A typed client of `service`. Call it in `create`: when the service is neither served by this host nor
   * reachable by a <NAME>_SERVICE_URL, it throws a ConfigError naming the variable, and the start fails.
   * Pass the handler's `signal` to a call so it ends when the caller's call does.
   */
  get<S extends DescService>(service: S, opts?: ServiceClientOptions): Client<S>;
}

/** `tt.user.v1.AuthService` → `user`: services live in packages `tt.<name>.v<n>`. */
export function serviceNameOf(service: DescService): string {
  const match = /^tt\.([a-z0-9_-]+)\.v\d+\.[^.]+$/.exec(service.typeName);
  if (!match) throw new Error(`${service.typeName} is not in a tt.<service>.v<n> package`);
  return match[1]!.replace(/_/g, "-");
}

/** The variable that carries a service's base URL, as the chart names it: `user` → `USER_SERVICE_URL`. */
export function serviceUrlVariable(name: string): string {
  return `${name.replace(/-/g, "_").toUpperCase()}_SERVICE_URL`;
}

export interface ServiceClientPoolOptions {
  /** Type names of the proto services this host serves: those are called in process. */
  local: ReadonlySet<string>;
  /** The host's in-process transport; undefined until the host has started every service. */
  inProcess: () => Transport | undefined;
  env: Record<string, string | undefined>;
  identity: ServiceIdentityKey;
  issuer: string;
  audience: string;
  /** Default DEFAULT_SERVICE_CALL_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Idle time after which an HTTP/2 session to a service is closed (before the service's own idle timeout). */
  idleConnectionTimeoutMs?: number;
}

export interface ServiceClientPool {
  /** The clients of one calling service (`caller`: its definition name, the tokens' subject). */
  forCaller(caller: string): ServiceClients;
  /** Closes the HTTP/2 sessions. */
  close(): void;
}

export function createServiceClientPool(opts: ServiceClientPoolOptions): ServiceClientPool {
  const remotes = new Map<string, ServiceTransport>();
  const defaultTimeoutMs = opts.timeoutMs ?? DEFAULT_SERVICE_CALL_TIMEOUT_MS;

  const inProcess: Transport = {
    unary: (...args) => started().unary(...args),
    stream: (...args) => started().stream(...args),
  };
  function started(): Transport {
    const transport = opts.inProcess();
    if (!transport) throw new ConnectError("the service host is still starting", Code.Unavailable);
    return transport;
  }

  const remote = (service: DescService): Transport => {
    const variable = serviceUrlVariable(serviceNameOf(service));
    const value = opts.env[variable];
    if (value === undefined || value === "") {
      throw new ConfigError([
        { variable, reason: `is required: ${service.typeName} is called and not served in this process` },
      ]);
    }
    let urls: string[];
    try {
      // One URL (a cluster's Service), or every replica's, comma-separated (the local distributed runner).
      urls = parseServiceUrls(value).map((u) => new URL(u).href);
    } catch (err) {
      throw new ConfigError([{ variable, reason: (err as Error).message }]);
    }
    if (!opts.identity.configured) {
      // Another process trusts only the deployment's key, never one this host made up.
      throw new ConfigError([
        { variable: SERVICE_TOKEN_KEY_VARIABLE, reason: `is required to call ${service.typeName} at ${variable}` },
      ]);
    }
    const key = urls.join(",");
    let remote = remotes.get(key);
    if (!remote) {
      remote = createServiceTransport(urls, { idleConnectionTimeoutMs: opts.idleConnectionTimeoutMs });
      remotes.set(key, remote);
    }
    return remote.transport;
  };

  return {
    forCaller(caller) {
      const minter = createServiceTokenMinter({
        subject: caller,
        key: opts.identity,
        issuer: opts.issuer,
        audience: opts.audience,
      });
      return {
        get(service, clientOpts = {}) {
          const inner = opts.local.has(service.typeName) ? inProcess : remote(service);
          const timeoutMs = clientOpts.timeoutMs ?? defaultTimeoutMs;
          return createClient(
            service,
            withIdentity(inner, () => minter.token(), timeoutMs),
          );
        },
      };
    },
    close() {
      for (const remote of remotes.values()) remote.close();
      remotes.clear();
    },
  };
}

/** Adds the caller's service token, the request id of the call being served, and the default deadline. */
function withIdentity(inner: Transport, token: () => Promise<string>, defaultTimeoutMs: number): Transport {
  const headers = async (init: HeadersInit | undefined) => {
    const header = new Headers(init);
    header.set("authorization", `Bearer ${await token()}`);
    const requestId = currentRequestId();
    if (requestId && !header.has(REQUEST_ID_HEADER)) header.set(REQUEST_ID_HEADER, requestId);
    return header;
  };
  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const h = await headers(header);
      return inner
        .unary(method, signal, timeoutMs ?? defaultTimeoutMs, h, input, contextValues)
        .catch((err: unknown) => {
          throw identityRefused(method.parent.typeName, err);
        });
    },
    async stream(method, signal, timeoutMs, header, input, contextValues) {
      const h = await headers(header);
      return inner
        .stream(method, signal, timeoutMs ?? defaultTimeoutMs, h, input, contextValues)
        .catch((err: unknown) => {
          throw identityRefused(method.parent.typeName, err);
        });
    },
  };
}

/**
 * A service that refuses this service's own token (a key the deployment does not share, a clock far off) is the
 * deployment's fault, not the end user's: Internal, so the user does not get a 401 about a token they never sent,
 * and the cause is logged where the call failed. Every other answer passes through unchanged.
 */
function identityRefused(target: string, err: unknown): unknown {
  if (!(err instanceof ConnectError) || err.code !== Code.Unauthenticated) return err;
  return new ConnectError(
    `${target} refused this service's identity: ${err.rawMessage}`,
    Code.Internal,
    undefined,
    undefined,
    err,
  );
}
