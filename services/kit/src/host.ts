// Starts service definitions in one process: their ORMs (one schema each, migrated), the shared session
// revocations and token verifier, and one interceptor chain that both the HTTP handler and the in-process
// transport run. All-in-one, the single-service entry and the tests all go through here.
import type { DescService } from "@bufbuild/protobuf";
import type { Interceptor, MethodImplSpec, Transport } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { remoteKeySource, type KeySource } from "./auth/key-source.ts";
import { createSessionRevocations, type ManagedSessionRevocations } from "./auth/revocations-kv.ts";
import { serviceIdentityKey } from "./auth/service-identity.ts";
import { createTokenVerifier, type TokenVerifier } from "./auth/verifier.ts";
import type { Bus } from "./bus/bus.ts";
import { clientIdleTimeoutMs } from "./transport/http2-transport.ts";
import { createServiceClientPool, serviceClientsEnvSchema } from "./clients/service-clients.ts";
import { kitConfigSchema, MAX_TIMER_MS, parseEnv } from "./config.ts";
import { initServiceOrm, migrateUp } from "./db/orm.ts";
import { directStreams } from "./transport/direct-stream.ts";
import { assertOutboxDeclared, startServiceOutbox, type ServiceOutbox } from "./host-outbox.ts";
import { createInProcessTransport } from "./transport/in-process-transport.ts";
import { assertAccessOptions, createAccessInterceptor } from "./interceptors/access.ts";
import { createEntityManagerInterceptor } from "./interceptors/entity-manager.ts";
import { createInputRulesInterceptor } from "./interceptors/input-rules.ts";
import { createLoggingInterceptor } from "./interceptors/logging.ts";
import { createMetricsInterceptor } from "./interceptors/metrics.ts";
import {
  createRequestFaultInterceptor,
  refuseUndecodableGetMessages,
  createRequestGate,
} from "./interceptors/request-faults.ts";
import { createRequestIdInterceptor } from "./interceptors/request-id.ts";
import { serveServerStreams } from "./transport/server-streams.ts";
import { captureRoutes, methodKey, type CapturedRoutes } from "./transport/route-capture.ts";
import type { NodeRequestHandler } from "./transport/server.ts";
import type { ServiceDefinition, ServiceDeps, ServiceInstance } from "./service.ts";

export interface ServiceHostOptions {
  definitions: ServiceDefinition[];
  databaseUrl: string;
  bus: Bus;
  logger: Logger;
  /**
   * The process environment; the host reads JWT_ISSUER, JWT_AUDIENCE, USER_SERVICE_URL, ACCESS_TOKEN_MAX_TTL_SECONDS
   * and DATABASE_POOL_MAX (the bound of each service's connection pool).
   */
  env: Record<string, string | undefined>;
  /** Token verification keys. Default: the user service's when it runs here, else USER_SERVICE_URL. */
  keys?: KeySource;
  /** Metrics registry. Default: prom-client's process registry. */
  registry?: Registry;
  /**
   * Skips the start-up check that every method has an access option. Such methods are still refused at
   * call time (deny by default); only the kit's own tests of that refusal need this.
   */
  allowMissingAccess?: boolean;
}

export interface ServiceHost {
  /** Node request handler serving Connect, gRPC and gRPC-Web for every registered service. */
  handler: NodeRequestHandler;
  /** Calls the registered implementations in this process, through the same interceptors. */
  transport: Transport;
  /** The server interceptor chain, outermost first, for anything else that serves these routes. */
  interceptors: readonly Interceptor[];
  /** Every proto service served. */
  services: DescService[];
  /** The running services by definition name. */
  instances: ReadonlyMap<string, ServiceInstance>;
  /** What each service's `create` was given, by definition name (a test starts a second instance with it). */
  deps: ReadonlyMap<string, ServiceDeps>;
  /** Every registered implementation by `methodKey`, as the HTTP handler and the in-process transport run them. */
  methods: ReadonlyMap<string, MethodImplSpec>;
  revocations: ManagedSessionRevocations;
  verifier: TokenVerifier;
  /** True while every database, the bus and each service's own check answer. */
  ready(): Promise<boolean>;
  /** Stops the services, aborts running calls, closes the ORMs. The bus belongs to the caller. */
  close(): Promise<void>;
}

const hostEnvSchema = kitConfigSchema
  .pick({
    JWT_ISSUER: true,
    JWT_AUDIENCE: true,
    USER_SERVICE_URL: true,
    ACCESS_TOKEN_MAX_TTL_SECONDS: true,
    IDLE_TIMEOUT_MS: true,
    DATABASE_POOL_MAX: true,
  })
  .extend(serviceClientsEnvSchema.shape);

interface Started {
  definition: ServiceDefinition;
  orm: MikroORM;
  deps?: ServiceDeps;
  instance?: ServiceInstance;
  routes?: CapturedRoutes;
  /** The stream and relay of a service that lists the outbox migration. */
  outbox?: ServiceOutbox;
}

/**
 * Every method of every declared service must have an implementation: a missing one would only show as
 * Unimplemented on its first call, which the specification's clients would see as a broken path.
 */
function assertImplemented(definition: ServiceDefinition, routes: CapturedRoutes): void {
  const declared = new Set(definition.services.map((s) => s.typeName));
  const stray = routes.services.filter((s) => !declared.has(s.typeName));
  if (stray.length > 0) {
    throw new Error(`${definition.name} registers ${stray.map((s) => s.typeName).join(", ")} without declaring it`);
  }
  const missing = definition.services.flatMap((s) =>
    s.methods
      .filter((m) => !routes.methods.has(methodKey(m)) || routes.unimplemented.has(methodKey(m)))
      .map((m) => `${s.typeName}.${m.name}`),
  );
  if (missing.length > 0) {
    throw new Error(`${definition.name} has no implementation of:\n  ${missing.join("\n  ")}`);
  }
}

function assertDistinct(definitions: readonly ServiceDefinition[]): void {
  const names = new Set<string>();
  const services = new Set<string>();
  for (const d of definitions) {
    if (names.has(d.name)) throw new Error(`service definition "${d.name}" is given twice`);
    names.add(d.name);
    for (const s of d.services) {
      if (services.has(s.typeName)) throw new Error(`${s.typeName} is served by two definitions`);
      services.add(s.typeName);
    }
  }
}

export async function startServiceHost(opts: ServiceHostOptions): Promise<ServiceHost> {
  const env = parseEnv(hostEnvSchema, opts.env);
  assertDistinct(opts.definitions);
  for (const definition of opts.definitions) assertOutboxDeclared(definition);
  const accessCheck = { requireOption: !opts.allowMissingAccess };
  // Before any database work: a misdeclared method is a build problem, not a runtime one.
  assertAccessOptions(
    opts.definitions.flatMap((d) => d.services),
    accessCheck,
  );

  const shutdown = new AbortController();
  // Calls to other services: in process to what this host serves (set once every service has started), else
  // over HTTP/2 with a token of the deployment's service identity
  // (docs/decisions/0092-a-services-identity-is-one-deployment-wide.md).
  const identity = await serviceIdentityKey(env.SERVICE_TOKEN_PRIVATE_KEY);
  const inProcess: { transport?: Transport } = {};
  const clients = createServiceClientPool({
    local: new Set(opts.definitions.flatMap((d) => d.services.map((s) => s.typeName))),
    inProcess: () => inProcess.transport,
    env: opts.env,
    identity,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    timeoutMs: env.SERVICE_CALL_TIMEOUT_MS,
    idleConnectionTimeoutMs: clientIdleTimeoutMs(env.IDLE_TIMEOUT_MS),
  });
  const revocations = createSessionRevocations(opts.bus, { ttlMs: env.ACCESS_TOKEN_MAX_TTL_SECONDS * 1000 });
  const started: Started[] = [];

  const stopAll = async () => {
    shutdown.abort(new Error("service host closing"));
    for (const s of [...started].reverse()) {
      try {
        await s.instance?.close?.();
      } catch (err) {
        opts.logger.error({ err, service: s.definition.name }, "service close failed");
      }
      // After the service (which may still write events while closing), before the ORM the relay reads.
      await s.outbox?.stop();
      await s.orm.close();
    }
    clients.close();
    await revocations.close();
  };

  try {
    await revocations.start();
    for (const definition of opts.definitions) {
      const orm = await initServiceOrm(opts.databaseUrl, definition, { poolMax: env.DATABASE_POOL_MAX });
      const entry: Started = { definition, orm };
      started.push(entry);
      const applied = await migrateUp(orm);
      const logger = opts.logger.child({ service: definition.name });
      if (applied.length > 0) logger.info({ migrations: applied }, "migrations applied");
      // Before create(): what it writes to the outbox (a bootstrap account's event) is relayed like the rest.
      entry.outbox = await startServiceOutbox(definition, { orm, bus: opts.bus, logger });
      entry.deps = {
        orm,
        bus: opts.bus,
        revocations,
        logger,
        env: opts.env,
        signal: shutdown.signal,
        clients: clients.forCaller(definition.name),
      };
      entry.instance = await definition.create(entry.deps);
      entry.routes = captureRoutes((router) => entry.instance?.routes(router));
      assertImplemented(definition, entry.routes);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }

  const userKeys = started.find((s) => s.instance?.verificationKeys)?.instance?.verificationKeys;
  const keys: KeySource | undefined =
    opts.keys ?? userKeys ?? (env.USER_SERVICE_URL ? remoteKeySource(env.USER_SERVICE_URL) : undefined);
  if (!keys) {
    await stopAll();
    throw new Error("no token verification keys: run the user service in this host or set USER_SERVICE_URL");
  }
  const verifier = createTokenVerifier({
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    keys,
    serviceKeys: identity.jwks,
    revocations,
    maxTtlSeconds: env.ACCESS_TOKEN_MAX_TTL_SECONDS,
  });

  const ormByService = new Map<string, MikroORM>();
  const methods = new Map<string, MethodImplSpec>();
  for (const s of started) {
    for (const d of s.definition.services) ormByService.set(d.typeName, s.orm);
    for (const [key, spec] of s.routes?.methods ?? []) methods.set(key, spec);
  }

  // Order matters: the id and call logger first, so everything after can log under it; observation outside
  // access so refusals are counted and logged; the field rules (NUL, max_length) after access, so a caller
  // who may not call learns nothing of the input rules and gets the 401 the specification asks for, yet
  // before any handler or query; the EntityManager fork only for calls that got through.
  const interceptors: Interceptor[] = [
    // Outermost: a request message that cannot be decoded is the caller's fault (issue 9 defect 2).
    createRequestFaultInterceptor(),
    createRequestIdInterceptor({ logger: opts.logger }),
    createMetricsInterceptor({ registry: opts.registry }),
    createLoggingInterceptor({ logger: opts.logger }),
    createAccessInterceptor({ verifier }),
    createInputRulesInterceptor(),
    createEntityManagerInterceptor({ ormFor: (service) => ormByService.get(service.typeName) }),
  ];

  // Each call knows its Node response, so a stream that sends one message to many callers can write it directly
  // (direct-stream.ts); server streams and unary calls over gRPC are served by the kit's own wire handler
  // (server-streams.ts), the rest by Connect's.
  const requestGate = createRequestGate({ verifier });
  const direct = directStreams();
  const handler = direct.wrap(
    refuseUndecodableGetMessages(
      serveServerStreams(
        {
          methods,
          interceptors,
          contextValues: direct.values,
          shutdownSignal: shutdown.signal,
          maxTimeoutMs: MAX_TIMER_MS,
          logger: opts.logger,
          requestGate,
        },
        connectNodeAdapter({
          contextValues: direct.values,
          routes: (router) => {
            for (const s of started) s.routes?.replay(router);
          },
          interceptors,
          // A unary body that does not parse is invalid_argument, not internal (issue 9 defect 2).
          // and the access decision before the body is read (issue 23 findings 6 and 8).
          requestGate,
          // A longer deadline than a Node timer can hold (24.8 days) would fire at once (TimeoutOverflowWarning, then
          // 1 ms): such a grpc-timeout or connect-timeout-ms is refused as invalid_argument instead (issue 9 fuzz).
          maxTimeoutMs: MAX_TIMER_MS,
          shutdownSignal: shutdown.signal,
        }),
      ),
    ),
  );
  const transport = createInProcessTransport({ methods, interceptors, shutdownSignal: shutdown.signal });
  inProcess.transport = transport;

  let closing: Promise<void> | undefined;
  return {
    handler,
    transport,
    interceptors,
    services: opts.definitions.flatMap((d) => d.services),
    instances: new Map(started.map((s) => [s.definition.name, s.instance as ServiceInstance])),
    deps: new Map(started.map((s) => [s.definition.name, s.deps as ServiceDeps])),
    methods,
    revocations,
    verifier,
    async ready() {
      if (shutdown.signal.aborted) return false;
      try {
        const checks = await Promise.all([
          opts.bus.healthy(),
          ...started.map(async (s) => (await s.orm.checkConnection()).ok),
          ...started.map((s) => s.instance?.ready?.() ?? true),
        ]);
        return checks.every(Boolean);
      } catch {
        return false;
      }
    },
    close() {
      closing ??= stopAll();
      return closing;
    },
  };
}
