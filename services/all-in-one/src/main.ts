// `npm start`: the whole platform in one process on embedded defaults, at http://localhost:8080.
import { buildFrontendsIfStale, createFrontendHandler } from "@tt/web-server";
import { createLogger } from "@tt/kit";
import { startAllInOne } from "./all-in-one.ts";
import { loadAllInOneConfig } from "./config.ts";

const config = loadAllInOneConfig(process.env);
const logger = createLogger({ service: "all-in-one", level: config.LOG_LEVEL });
const platform = await startAllInOne({ logger, staticHandler: createFrontendHandler({ distRoot: "frontends" }) });
process.stdout.write(`\nturntable is listening on ${platform.url}\n\n`);

// The API is ready before the web apps are built: building them takes longer than the rest of start-up.
if (process.env.SKIP_WEB_BUILD !== "true") {
  buildFrontendsIfStale({ log: (line) => logger.info(line) }).catch((err: unknown) =>
    logger.error({ err }, "building the web apps failed"),
  );
}

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
stop.signal.addEventListener("abort", () => {
  logger.info("shutting down");
  platform.close().catch((err: unknown) => logger.error({ err }, "shutdown failed"));
});
