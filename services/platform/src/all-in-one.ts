// Every service and the gateway in one process, on embedded defaults. The same service definitions and
// kit host run here as in the distributed mode; only the transport between gateway and services differs
// (in-process instead of HTTP/2).
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { createGateway } from "@tt/gateway";
import type { GatewayOptions } from "@tt/gateway";
import {
  createEdgeAccessCheck,
  createLogger,
  createMediaHandler,
  createServer,
  metricsListen,
  serverLimits,
  startServiceHost,
} from "@tt/kit";
import { loadResidentDjConfig, residentDjFromEnv } from "@tt/resident-dj";
import { loadMediaConfig } from "@tt/user-service";
import type { Logger } from "pino";
import { openBus } from "./bus.ts";
import { loadServiceDefinitions } from "./catalogue.ts";
import { loadAllInOneConfig } from "./config.ts";
import { openDatabase } from "./embedded-postgres.ts";

export interface AllInOneOptions {
  /** Environment seen by the process and the services (PORT, DATABASE_URL, ADMIN_EMAIL, …). Default process.env. */
  env?: Record<string, string | undefined>;
  /** Overrides env PORT (0 picks a free port, and then a free metrics port too unless METRICS_PORT is set). */
  port?: number;
  /** Overrides env HOST. */
  host?: string;
  /** Overrides env DATABASE_URL; without either an embedded PostgreSQL is started. */
  databaseUrl?: string;
  /** Overrides env NATS_URL; without either a nats-server from the PATH is started, else the in-process bus. */
  natsUrl?: string;
  /** Overrides env DATA_DIR: where the embedded PostgreSQL and nats-server keep their data (<repo>/.data). */
  dataDir?: string;
  /** Serves the built frontends at / (see @tt/web-server). */
  staticHandler?: GatewayOptions["staticHandler"];
  /** More to wait for before /readyz says ready, besides the services (the web build of `npm start`). */
  ready?: () => boolean | Promise<boolean>;
  logger?: Logger;
}

export interface AllInOne {
  url: string;
  port: number;
  /** Where GET /metrics is served: METRICS_PORT on METRICS_HOST (loopback unless set). */
  metricsUrl?: string;
  /** Stops the server (draining calls), the services, the bus and the embedded database, in that order. */
  close(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, "../../..");

export async function startAllInOne(opts: AllInOneOptions = {}): Promise<AllInOne> {
  const env = { ...(opts.env ?? process.env) };
  const config = loadAllInOneConfig(env);
  const logger = opts.logger ?? createLogger({ service: "all-in-one", level: config.LOG_LEVEL });
  const dataDir = opts.dataDir ?? config.DATA_DIR ?? path.join(repoRoot, ".data");
  // The media the services keep on the filesystem live beside the rest of the data (<repo>/.data/media by default,
  // the kit's own default); MEDIA_DIR names another folder.
  env.MEDIA_DIR ||= path.join(dataDir, "media");
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };

  try {
    const givenDatabaseUrl = opts.databaseUrl ?? config.DATABASE_URL;
    const database = await openDatabase({
      url: givenDatabaseUrl,
      dataDir,
      port: config.EMBEDDED_POSTGRES_PORT,
      logger,
    });
    closers.push(database.stop);
    const databaseUrl = database.url;

    const busHandle = await openBus({
      natsUrl: opts.natsUrl ?? config.NATS_URL,
      storeDir: path.join(dataDir, "nats"),
      logger,
      deployment: config.DEPLOYMENT_NAME,
    });
    closers.push(busHandle.close);

    const host = await startServiceHost({
      definitions: await loadServiceDefinitions(),
      databaseUrl,
      bus: busHandle.bus,
      logger,
      env,
    });
    closers.push(host.close);

    // Profile images kept on the filesystem are served here, beside the web apps; with S3 (or a CDN base
    // URL) they are served from there instead.
    const media = loadMediaConfig(env);
    const servesMedia = !media.MEDIA_S3_BUCKET && media.MEDIA_BASE_URL.startsWith("/");
    const mediaHandler = servesMedia
      ? createMediaHandler({ root: media.MEDIA_DIR, basePath: media.MEDIA_BASE_URL })
      : undefined;
    // The media handler is typed for node:http; it only uses what HTTP/2's compatibility API shares with it.
    const staticHandler: GatewayOptions["staticHandler"] = (req, res) =>
      (mediaHandler?.(req as IncomingMessage, res as ServerResponse) ?? false) ||
      (opts.staticHandler?.(req, res) ?? false);

    const gateway = createGateway({
      backends: [{ services: host.services, transport: host.transport, connect: { handler: host.handler } }],
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      multipartBodyLimitBytes: config.MULTIPART_BODY_LIMIT_BYTES,
      maxBodyBytesInFlight: config.MAX_BODY_BYTES_IN_FLIGHT,
      // The services' own verifier (keys, service identity, revocations): the same decision, before the body.
      authorize: createEdgeAccessCheck({ verifier: host.verifier }),
      cors: config.CORS_ORIGINS ? { origins: config.CORS_ORIGINS } : undefined,
      headers: { trustForwardedFor: config.TRUST_PROXY },
      logger,
      staticHandler,
    });
    closers.push(async () => gateway.close());

    const port = opts.port ?? config.PORT;
    const server = await createServer({
      handler: gateway.handler,
      port,
      host: opts.host ?? config.HOST,
      ready: async () => (await host.ready()) && (await (opts.ready?.() ?? true)),
      logger,
      shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      limits: serverLimits(config),
      // On a laptop the metrics stay on loopback unless METRICS_HOST says otherwise.
      metrics: metricsListen({ ...config, PORT: port }, "127.0.0.1"),
    });
    closers.push(server.close);

    // The resident DJ (RESIDENT_DJ=true; npm start's default): a bot on the public API, pointed at this
    // platform's own address like any outside bot. It retries on its own and never stops the platform.
    const residentDj = loadResidentDjConfig(env);
    if (residentDj.RESIDENT_DJ) {
      const dj = residentDjFromEnv(residentDj, {
        baseUrl: server.url,
        logger: logger.child({ component: "resident-dj" }),
        stateFile: path.join(dataDir, "resident-dj.json"),
      });
      closers.push(() => dj.close());
    }

    logger.info(
      {
        url: server.url,
        database: givenDatabaseUrl ? "given" : "embedded",
        bus: busHandle.description,
      },
      "platform ready",
    );
    return { url: server.url, port: server.port, metricsUrl: server.metricsUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}
