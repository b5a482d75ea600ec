// What each service's thin `src/main.ts` calls: configuration, bus, host and server, then a graceful stop
// on SIGTERM/SIGINT. It returns once everything is closed and never exits the process itself.
import { once } from "node:events";
import type { Bus } from "./bus/bus.ts";
import { createNatsBus } from "./bus/nats.ts";
import { ConfigError, kitConfigSchema, loadKitConfig, metricsListen, parseEnv, serverLimits } from "./config.ts";
import { initServiceOrm, migrateUp } from "./db/orm.ts";
import { startServiceHost } from "./host.ts";
import { createLogger } from "./logger.ts";
import { installProcessGuards } from "./process-guards.ts";
import { createServer } from "./transport/server.ts";
import type { ServiceDefinition } from "./service.ts";

export interface RunServiceMainOptions {
  /** Default process.env. */
  env?: Record<string, string | undefined>;
  /** Stops the service when aborted; default SIGTERM or SIGINT. */
  signal?: AbortSignal;
  /** Connects the bus; default the NATS adapter at NATS_URL, within DEPLOYMENT_NAME. */
  connectBus?: (natsUrl: string, name: string, deployment: string) => Promise<Bus>;
  /** Called once the server listens (tests, supervisors), with where its metrics are served. */
  onListening?: (url: string, metricsUrl?: string) => void;
}

const connectNatsBus = (url: string, name: string, deployment: string): Promise<Bus> =>
  createNatsBus({ url, name, deployment });

function signalFromProcess(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (name: NodeJS.Signals) => controller.abort(new Error(`received ${name}`));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
    },
  };
}

/**
 * `MIGRATE_ONLY=true`: applies each definition's migrations to its schema and returns, without a server or
 * a bus. The Helm chart's pre-install/pre-upgrade Jobs run the service image this way, so pods of a new
 * release only start once the schema is current.
 */
async function migrateOnly(definitions: ServiceDefinition[], env: Record<string, string | undefined>) {
  const config = parseEnv(kitConfigSchema.pick({ DATABASE_URL: true, DATABASE_POOL_MAX: true, LOG_LEVEL: true }), env);
  const logger = createLogger({ service: definitions.map((d) => d.name).join("+"), level: config.LOG_LEVEL });
  for (const definition of definitions) {
    const orm = await initServiceOrm(config.DATABASE_URL, definition, { poolMax: config.DATABASE_POOL_MAX });
    try {
      const applied = await migrateUp(orm);
      logger.info({ schema: definition.name, migrations: applied }, "migrations applied");
    } finally {
      await orm.close(true);
    }
  }
}

export async function runServiceMain(
  definitions: ServiceDefinition[],
  opts: RunServiceMainOptions = {},
): Promise<void> {
  const env = opts.env ?? process.env;
  if (env.MIGRATE_ONLY === "true") return migrateOnly(definitions, env);
  const config = loadKitConfig(env);
  if (!config.NATS_URL) {
    throw new ConfigError([{ variable: "NATS_URL", reason: "is required when a service runs on its own" }]);
  }
  const name = definitions.map((d) => d.name).join("+");
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  // An unhandled rejection is logged and counted, never the end of the service (issue 9 defect 1), for as long
  // as the service runs: a caller that goes on after it (a test's worker) gets its own handling back.
  const guards = installProcessGuards({ logger });
  const stopOn = opts.signal ? { signal: opts.signal, dispose() {} } : signalFromProcess();
  try {
    const bus = await (opts.connectBus ?? connectNatsBus)(config.NATS_URL, name, config.DEPLOYMENT_NAME);
    try {
      const host = await startServiceHost({ definitions, databaseUrl: config.DATABASE_URL, bus, logger, env });
      try {
        const server = await createServer({
          handler: host.handler,
          port: config.PORT,
          host: config.HOST,
          ready: host.ready,
          logger,
          shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
          limits: serverLimits(config),
          metrics: metricsListen(config),
        });
        opts.onListening?.(server.url, server.metricsUrl);
        if (!stopOn.signal.aborted) await once(stopOn.signal, "abort");
        logger.info({ reason: String(stopOn.signal.reason) }, "shutting down");
        await server.close();
      } finally {
        await host.close();
      }
    } catch (err) {
      logger.error({ err }, "service failed");
      throw err;
    } finally {
      await bus.close();
    }
  } finally {
    stopOn.dispose();
    guards.uninstall();
  }
}
