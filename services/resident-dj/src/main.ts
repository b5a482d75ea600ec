// The resident DJ in a process of its own (the chart's `residentDj` Deployment, distributed mode): it plays the
// room at RESIDENT_DJ_URL (the gateway) until SIGTERM, and serves only /healthz, /readyz (the probes) and /metrics.
// The all-in-one runs it inside its own process instead (services/platform/src/all-in-one.ts).
import { createLogger, createServer, installProcessGuards, metricsListen, serverLimits } from "@tt/kit";
import { loadResidentDjConfig } from "./config.ts";
import { residentDjFromEnv } from "./from-env.ts";

const config = loadResidentDjConfig(process.env);
const logger = createLogger({ service: "resident-dj", level: config.LOG_LEVEL });
installProcessGuards({ logger });
if (!config.RESIDENT_DJ_URL) throw new Error("RESIDENT_DJ_URL must name the platform's address (the gateway)");
const dj = residentDjFromEnv(config, { baseUrl: config.RESIDENT_DJ_URL, logger });
const server = await createServer({
  handler: (_req, res) => {
    res.statusCode = 404;
    res.end();
  },
  port: config.PORT,
  host: config.HOST,
  // The bot retries by itself: the process is ready once it serves.
  ready: async () => true,
  logger,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  limits: serverLimits(config),
  metrics: metricsListen(config),
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info("resident DJ: stopping");
    Promise.all([dj.close(), server.close()]).catch((err: unknown) =>
      logger.error({ err }, "resident DJ: stopping failed"),
    );
  });
}
