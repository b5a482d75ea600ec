// Request-scoped values every handler can read from `HandlerContext.values`.
import type { DescMethod } from "@bufbuild/protobuf";
import {
  createContextKey,
  createContextValues,
  createHandlerContext,
  type ContextKey,
  type ContextValues,
  type HandlerContext,
} from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";

/** The token types of the platform; the token's `typ` claim. */
export type TokenType = "user" | "guest" | "bot" | "service";

/** Who is calling, as proven by a verified access token. */
export interface Identity {
  tokenType: TokenType;
  /** The user's uuid (user and bot tokens), a random guest id, or the calling service's name. */
  subject: string;
  /** The specification's user role (globalModerator, admin, …, bot); "guest" and "service" for those types. */
  role: string;
  /** The session the token belongs to; revoking it refuses the token everywhere. */
  sessionId: string;
  expiresAt: Date;
  /** The compact token itself, to forward on calls made on the caller's behalf. */
  token: string;
}

/** The verified caller, or undefined for an anonymous call to a method that allows it. */
export const kIdentity = createContextKey<Identity | undefined>(undefined, { description: "caller identity" });

/** The EntityManager fork of this call (one per RPC), set by the EntityManager interceptor. */
export const kEm = createContextKey<EntityManager | undefined>(undefined, { description: "entity manager fork" });

/** The request id that crosses the gateway and services (`x-request-id`). */
export const kRequestId = createContextKey<string>("", { description: "request id" });

/** A logger bound to this call (service, method, request id). */
export const kLogger = createContextKey<Logger | undefined>(undefined, { description: "call logger" });

/**
 * Sets `key` to the value `make` answers, made on the first `get` (never, when no one asks): a call that does
 * not use its EntityManager fork or its call logger does not pay for them. A later `set` replaces it as usual.
 * Connect's context values are a plain object keyed by the key's symbol, so a getter there is what `get` reads.
 */
export function setLazy<T>(values: ContextValues, key: ContextKey<T>, make: () => T): void {
  let made: { value: T } | undefined;
  Object.defineProperty(values, key.id, {
    configurable: true,
    enumerable: true,
    get: () => (made ??= { value: make() }).value,
    set: (value: T) => {
      made = { value };
    },
  });
}

export interface CallContextOptions {
  /** The caller as the access interceptor would have verified it; undefined: anonymous. */
  identity?: Identity;
  /** The call's EntityManager fork. */
  em?: EntityManager;
  requestId?: string;
  headers?: HeadersInit;
  /** Aborts the call (a host's shutdown). */
  signal?: AbortSignal;
}

/**
 * A handler context as the host's interceptors leave it (caller, EntityManager fork, request id), for calling an
 * implementation directly: tier 1 of the conventions' three test tiers.
 */
export function createCallContext(method: DescMethod, opts: CallContextOptions = {}): HandlerContext {
  const values = createContextValues().set(kIdentity, opts.identity).set(kEm, opts.em);
  if (opts.requestId !== undefined) values.set(kRequestId, opts.requestId);
  return createHandlerContext({
    service: method.parent,
    method,
    protocolName: "direct",
    requestMethod: "POST",
    url: `http://direct/${method.parent.typeName}/${method.name}`,
    requestHeader: opts.headers,
    shutdownSignal: opts.signal,
    contextValues: values,
  });
}
