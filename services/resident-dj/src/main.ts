// The resident DJ in a process of its own (the chart's `residentDj` Deployment, distributed mode): it plays the
// room at RESIDENT_DJ_URL (the gateway) until SIGTERM. The all-in-one runs it in its own process instead.
import { createLogger, installProcessGuards } from "@tt/kit";
import { loadResidentDjConfig } from "./config.ts";
import { residentDjFromEnv } from "./from-env.ts";

const config = loadResidentDjConfig(process.env);
const logger = createLogger({ service: "resident-dj", level: config.LOG_LEVEL });
installProcessGuards({ logger });
if (!config.RESIDENT_DJ_URL) throw new Error("RESIDENT_DJ_URL must name the platform's address (the gateway)");
const dj = residentDjFromEnv(config, { baseUrl: config.RESIDENT_DJ_URL, logger });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info("resident DJ: stopping");
    dj.close().catch((err: unknown) => logger.error({ err }, "resident DJ: stopping failed"));
  });
}
