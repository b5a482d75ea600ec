// Any service's test harness: its ServiceDefinition started by the kit's own host (the one production
// runs) on a fresh PostgreSQL database and the real NATS of the test run, with
//   - an in-process client (the host's in-process transport: access, input rules, EntityManager fork…),
//   - a network client on port 0 (the kit's createServer, Connect over HTTP),
//   - direct calls of an implementation with a real HandlerContext (tier 1 of the conventions),
//   - tokens of every type and role, signed by a test key the host trusts next to the service's own keys.
// Everything is dropped again by close(): the server, the host, the bus connection and the database.
import {
  create,
  type DescMessage,
  type DescMethod,
  type DescMethodUnary,
  type DescService,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createClient,
  type Client,
  type HandlerContext,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { JSONWebKeySet } from "jose";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { inject } from "vitest";
import type { UserRole } from "../auth/claims.ts";
import type { KeySource } from "../auth/key-source.ts";
import type { ManagedSessionRevocations } from "../auth/revocations-kv.ts";
import type { Bus } from "../bus/bus.ts";
import { createMemoryBus } from "../bus/memory.ts";
import { createNatsBus } from "../bus/nats.ts";
import { removeDeploymentFromNats, uniqueDeploymentName } from "./nats-deployment.ts";
import { createCallContext, type Identity } from "../context.ts";
import { startServiceHost, type ServiceHost } from "../host.ts";
import { createLogger } from "../logger.ts";
import { methodKey } from "../transport/route-capture.ts";
import { createServer, type RunningServer } from "../transport/server.ts";
import type { ServiceDefinition, ServiceInstance } from "../service.ts";
import { createTestDatabase, TEST_DATABASE_POOL_MAX } from "./test-database.ts";
import { createTestTokenIssuer, type TestTokenClaims } from "./test-tokens.ts";

export interface ServiceHarnessOptions {
  /**
   * The service's environment (its own variables and the host's). Default: empty but for DATABASE_POOL_MAX,
   * TEST_DATABASE_POOL_MAX unless given.
   */
  env?: Record<string, string | undefined>;
  /** PostgreSQL server on which a fresh database is made. Default: the test run's (`inject("databaseUrl")`). */
  databaseUrl?: string;
  /**
   * The bus. "nats" (default): a connection to the test run's NATS (`inject("natsUrl")`, or `natsUrl`);
   * "memory": the kit's in-process bus (all-in-one mode's), private to this harness; or a bus of the caller's,
   * which the harness does not close.
   */
  bus?: "nats" | "memory" | Bus;
  natsUrl?: string;
  /**
   * The deployment name of the harness's own bus (issue 23: its subjects, streams and buckets on NATS); default a
   * unique one, removed from NATS when the harness closes. A bus given in `bus` keeps its own: name it here too.
   */
  deployment?: string;
  /** Other definitions started in the same host (services the one under test calls in-process). */
  alongside?: ServiceDefinition[];
  /** Serve the network client on port 0. Default true. */
  network?: boolean;
  /** Default: silent. */
  logger?: Logger;
}

/** Who calls: a token (sent as `Authorization: Bearer`), or none for an anonymous call. */
export interface CallAs {
  token?: string;
}

/** Token minting for every token type and role; each token has a fresh session unless `sid` is given. */
export interface HarnessTokens {
  sign(claims?: TestTokenClaims): Promise<string>;
  /** A user token of `role` (default "user"); `sub` is a fresh uuid unless given. */
  user(role?: UserRole, sub?: string): Promise<string>;
  guest(sub?: string): Promise<string>;
  /** A bot token; bots carry the role "bot". */
  bot(sub?: string): Promise<string>;
  /** A service token: `sub` is the calling service's name. */
  service(name?: string): Promise<string>;
}

type UnaryCaller<M> =
  M extends DescMethodUnary<infer I extends DescMessage, infer O extends DescMessage>
    ? (request: MessageInitShape<I>, ctx: HandlerContext) => Promise<MessageShape<O>>
    : never;

/** Each unary RPC of a service as a direct call of its implementation (no interceptors). */
export type DirectCalls<S extends DescService> = {
  [K in keyof S["method"]]: UnaryCaller<S["method"][K]>;
};

export interface ContextOptions {
  /** The caller as the access interceptor would have verified it; undefined: anonymous. */
  identity?: Identity;
  headers?: HeadersInit;
}

export interface ServiceHarness {
  definition: ServiceDefinition;
  host: ServiceHost;
  /** The service's ORM: its own schema, migrated. */
  orm: MikroORM;
  instance: ServiceInstance;
  bus: Bus;
  /** The deployment name the bus runs under (a process started beside the harness takes it as DEPLOYMENT_NAME). */
  deploymentName: string;
  revocations: ManagedSessionRevocations;
  /** Base URL of the network server (http://127.0.0.1:port); empty when `network` is false. */
  url: string;
  tokens: HarnessTokens;
  /** A typed client through the host's in-process transport: every interceptor runs. */
  client<S extends DescService>(service: S, as?: CallAs): Client<S>;
  /** A typed client over the network (Connect, HTTP/1.1) to the harness's server. */
  networkClient<S extends DescService>(service: S, as?: CallAs): Client<S>;
  /** A handler context as the host's interceptors leave it: the caller and a fresh EntityManager fork. */
  context(method: DescMethod, opts?: ContextOptions): HandlerContext;
  /** The implementations of `service` as registered, called directly (tier 1). */
  direct<S extends DescService>(service: S): DirectCalls<S>;
  /** Verifies a token as the host does (keys, issuer, audience, revocation) and returns the caller. */
  identityOf(token: string): Promise<Identity>;
  /**
   * Another instance of the service on the same database and bus, as a restart or a second replica would
   * start it: its `create` only (not served, no second outbox relay; closed with the harness).
   */
  createInstance(env?: Record<string, string | undefined>): Promise<ServiceInstance>;
  close(): Promise<void>;
}

/** A transport that sends `token` with every call. */
function withToken(transport: Transport, token: string | undefined): Transport {
  if (token === undefined) return transport;
  const headerOf = (header: HeadersInit | undefined) => {
    const h = new Headers(header);
    h.set("authorization", `Bearer ${token}`);
    return h;
  };
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.unary(method, signal, timeoutMs, headerOf(header), input, contextValues),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, headerOf(header), input, contextValues),
  };
}

function bearer(token: string | undefined): Interceptor[] {
  if (token === undefined) return [];
  return [
    (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    },
  ];
}

async function openBus(
  opts: ServiceHarnessOptions,
  deployment: string,
  logger: Logger,
): Promise<{ bus: Bus; close?: () => Promise<void> }> {
  const choice = opts.bus ?? "nats";
  if (choice === "memory") {
    const bus = createMemoryBus({ deployment });
    return { bus, close: () => bus.close() };
  }
  if (choice === "nats") {
    const url = opts.natsUrl ?? inject("natsUrl");
    const bus = await createNatsBus({ url, name: "service-harness", logger, deployment });
    return {
      bus,
      async close() {
        await bus.close();
        if (opts.deployment === undefined) await removeDeploymentFromNats(url, deployment);
      },
    };
  }
  return { bus: choice };
}

export async function createServiceHarness(
  definition: ServiceDefinition,
  opts: ServiceHarnessOptions = {},
): Promise<ServiceHarness> {
  const env = { DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX, ...opts.env };
  const logger = opts.logger ?? createLogger({ service: `${definition.name}-harness`, level: "silent" });
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, `closing the ${definition.name} harness failed`);
  };

  try {
    const db = await createTestDatabase(opts.databaseUrl ?? inject("databaseUrl"));
    cleanups.push(() => db.drop());
    const deploymentName = opts.deployment ?? uniqueDeploymentName("harness");
    const { bus, close: closeBus } = await openBus(opts, deploymentName, logger);
    if (closeBus) cleanups.push(closeBus);
    const issuer = await createTestTokenIssuer();

    // The host trusts the test key and, when a service here signs tokens (the user service), its keys too,
    // so tokens the service issues work exactly as in production.
    const hosted: { host?: ServiceHost } = {};
    const keys: KeySource = async () => {
      const own: JSONWebKeySet[] = [];
      for (const instance of hosted.host?.instances.values() ?? []) {
        if (instance.verificationKeys) own.push(await instance.verificationKeys());
      }
      return { keys: [...issuer.jwks.keys, ...own.flatMap((set) => set.keys)] };
    };
    const registry = new Registry();
    const running = await startServiceHost({
      definitions: [definition, ...(opts.alongside ?? [])],
      databaseUrl: db.url,
      bus,
      logger,
      env,
      keys,
      registry,
    });
    hosted.host = running;
    cleanups.push(() => running.close());

    let server: RunningServer | undefined;
    if (opts.network ?? true) {
      server = await createServer({
        handler: running.handler,
        port: 0,
        host: "127.0.0.1",
        ready: running.ready,
        logger,
        registry,
        shutdownTimeoutMs: 1000,
      });
      const served = server;
      cleanups.push(() => served.close());
    }

    const deps = running.deps.get(definition.name)!;
    const orm = deps.orm;
    const instance = running.instances.get(definition.name)!;
    const shutdown = new AbortController();
    cleanups.push(async () => shutdown.abort());

    const tokens: HarnessTokens = {
      sign: (claims) => issuer.sign(claims),
      user: (role = "user", sub) => issuer.sign({ typ: "user", role, ...(sub ? { sub } : {}) }),
      guest: (sub) => issuer.sign({ typ: "guest", ...(sub ? { sub } : {}) }),
      bot: (sub) => issuer.sign({ typ: "bot", ...(sub ? { sub } : {}) }),
      service: (name = "harness") => issuer.sign({ typ: "service", sub: name }),
    };

    const context = (method: DescMethod, o: ContextOptions = {}) =>
      createCallContext(method, { ...o, em: orm.em.fork(), signal: shutdown.signal });

    const direct = <S extends DescService>(service: S): DirectCalls<S> => {
      const calls: Record<string, unknown> = {};
      for (const method of service.methods) {
        if (method.methodKind !== "unary") continue;
        const spec = running.methods.get(methodKey(method));
        if (spec?.kind !== "unary") throw new Error(`${methodKey(method)} is not served by this harness`);
        // Requests and answers go through `create` as they would through serialization: defaults filled in.
        calls[method.localName] = async (request: MessageInitShape<DescMessage>, ctx: HandlerContext) =>
          create(method.output, (await spec.impl(create(method.input, request), ctx)) as MessageInitShape<DescMessage>);
      }
      return calls as DirectCalls<S>;
    };

    const createInstance = async (instanceEnv: Record<string, string | undefined> = env) => {
      const created = await definition.create({ ...deps, env: instanceEnv, signal: shutdown.signal });
      if (created.close) cleanups.push(created.close);
      return created;
    };

    return {
      definition,
      host: running,
      orm,
      instance,
      bus,
      deploymentName,
      revocations: running.revocations,
      url: server?.url ?? "",
      tokens,
      client: (service, as = {}) => createClient(service, withToken(running.transport, as.token)),
      networkClient: (service, as = {}) => {
        if (!server) throw new ConnectError("the harness was started without a network server", Code.Internal);
        return createClient(
          service,
          createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", interceptors: bearer(as.token) }),
        );
      },
      context,
      direct,
      identityOf: (token) => running.verifier.verify(token),
      createInstance,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
