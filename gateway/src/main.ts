// The gateway alone (distributed mode): every service of the catalog is reached over HTTP/2 at its
// <NAME>_SERVICE_URL (one URL, or every replica's comma-separated: the kit's transport/replicas.ts); REST calls go through a Connect (or gRPC) transport, Connect/gRPC/gRPC-Web calls are proxied
// unchanged. Also serves the shell's remotes manifest and, given MEDIA_DIR, stored profile images. Ready while
// every backend is; drains on SIGTERM/SIGINT.
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  clientIdleTimeoutMs,
  createEdgeAccessCheck,
  createLogger,
  createTokenVerifier,
  createMediaHandler,
  createServer,
  createServiceTransport,
  installProcessGuards,
  metricsListen,
  remoteKeySource,
  serverLimits,
} from "@tt/kit";
import { createAppleMusicTokenIssuer, loadAppleMusicTokenConfig } from "@tt/providers";
import type { Logger } from "pino";
import { serviceCatalog } from "./catalog.ts";
import { backendUrls, loadGatewayConfig } from "./gateway-config.ts";
import { createGateway, type GatewayBackend } from "./index.ts";
import { createRemotesHandler } from "./remotes-config.ts";

/**
 * Ready when every backend service is: one of its base URLs (its replicas, when several are given) answers /readyz
 * with 200. One probe round at a time, its answer reused for `ttlMs`.
 */
function backendReadiness(services: string[][], ttlMs: number, logger: Logger): () => Promise<boolean> {
  let checkedAt = -Infinity;
  let last = false;
  let running: Promise<boolean> | undefined;
  const probe = async (baseUrl: string) => {
    try {
      const res = await fetch(new URL("/readyz", baseUrl), { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      return res.status === 200;
    } catch (err) {
      logger.debug({ err, baseUrl }, "backend readiness probe failed");
      return false;
    }
  };
  const anyReady = async (baseUrls: string[]) => (await Promise.all(baseUrls.map(probe))).some(Boolean);
  return () => {
    if (performance.now() - checkedAt < ttlMs) return Promise.resolve(last);
    running ??= Promise.all(services.map(anyReady))
      .then((answers) => {
        last = answers.every(Boolean);
        checkedAt = performance.now();
        return last;
      })
      .finally(() => (running = undefined));
    return running;
  };
}

const config = loadGatewayConfig(process.env);
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
// An unhandled rejection is logged and counted, never the end of the gateway (issue 9 defect 1).
installProcessGuards({ logger });
const urls = backendUrls(config);
// The gateway closes an idle session to a service before the service would (the chart gives both the same
// IDLE_TIMEOUT_MS): a call sent while the service's GOAWAY is on its way would be refused.
const idleConnectionTimeoutMs = clientIdleTimeoutMs(config.IDLE_TIMEOUT_MS);
// One base URL per service (the chart's Service), or every replica's (the local distributed runner, issue 28): then
// REST calls and proxied Connect calls share which replicas are set aside (the kit's ReplicaSet).
const reached = Object.fromEntries(
  Object.entries(urls).map(([name, list]) => [
    name,
    createServiceTransport(list, {
      idleConnectionTimeoutMs,
      protocol: config.BACKEND_PROTOCOL,
      onReplicaChange: ({ url, up, downForMs, error }) =>
        up
          ? logger.info({ service: name, url }, "a replica answers again")
          : logger.warn({ service: name, url, downForMs, err: error }, "a replica cannot be reached; set aside"),
    }),
  ]),
);
const backends: GatewayBackend[] = Object.entries(serviceCatalog).map(([name, services]) => {
  const { transport, replicas } = reached[name]!;
  return { services: [...services], transport, connect: replicas ? { replicas } : { baseUrl: urls[name]![0]! } };
});

// The web player's Apple Music developer token (the user service's APPLE_MUSIC_* variables; a partial or bad
// setting stops the start naming the variable), bound to the site's origin when WEB_PUBLIC_URL names it.
const appleMusic = loadAppleMusicTokenConfig(process.env);
const appleMusicTokens = appleMusic
  ? createAppleMusicTokenIssuer({ ...appleMusic, ...(config.WEB_PUBLIC_URL ? { origin: config.WEB_PUBLIC_URL } : {}) })
  : undefined;
const remotes = config.REMOTES_CONFIG
  ? await createRemotesHandler({
      file: config.REMOTES_CONFIG,
      ...(config.WEB_BRAND ? { brand: config.WEB_BRAND } : {}),
      ...(config.AGORA_APP_ID ? { agoraAppId: config.AGORA_APP_ID } : {}),
      players: config.WEB_PLAYERS ?? (appleMusicTokens ? ["apple"] : []),
      ...(appleMusicTokens ? { appleMusicToken: () => appleMusicTokens.developerToken() } : {}),
    })
  : undefined;
// A full MEDIA_BASE_URL (a CDN whose origin is this gateway) keeps its path.
const media = config.MEDIA_DIR
  ? createMediaHandler({ root: config.MEDIA_DIR, basePath: new URL(config.MEDIA_BASE_URL, "http://-").pathname })
  : undefined;
const gateway = createGateway({
  backends,
  bodyLimitBytes: config.BODY_LIMIT_BYTES,
  multipartBodyLimitBytes: config.MULTIPART_BODY_LIMIT_BYTES,
  maxBodyBytesInFlight: config.MAX_BODY_BYTES_IN_FLIGHT,
  // Who may call is decided before a body is read (issue 23 findings 6 and 8) with the user service's keys. The
  // gateway holds neither the services' identity key nor the revocations: a token signed by a key it does not know
  // is left to the service, and a revoked session is refused by the service, after the body.
  authorize: createEdgeAccessCheck({
    verifier: createTokenVerifier({
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      keys: remoteKeySource(urls.user!.join(",")),
      revocations: { isRevoked: () => false },
      maxTtlSeconds: config.ACCESS_TOKEN_MAX_TTL_SECONDS,
    }),
    deferUnknownKeys: true,
  }),
  cors: config.CORS_ORIGINS ? { origins: config.CORS_ORIGINS } : undefined,
  headers: { trustForwardedFor: config.TRUST_PROXY },
  idleBackendSessionMs: idleConnectionTimeoutMs,
  logger,
  // The media handler is typed for node:http; it only uses what HTTP/2's compatibility API shares with it.
  staticHandler: (req, res) =>
    (media?.(req as IncomingMessage, res as ServerResponse) ?? false) || (remotes?.(req, res) ?? false),
});

const stop = new AbortController();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => stop.abort(new Error(`received ${signal}`)));
}

const server = await createServer({
  handler: gateway.handler,
  port: config.PORT,
  host: config.HOST,
  ready: backendReadiness(Object.values(urls), config.READINESS_CACHE_MS, logger),
  logger,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  limits: serverLimits(config),
  metrics: metricsListen(config),
});
logger.info({ url: server.url, backends: urls, routes: gateway.routes.routes.length }, "gateway ready");

if (!stop.signal.aborted) await once(stop.signal, "abort");
logger.info({ reason: String(stop.signal.reason) }, "shutting down");
// Running calls finish against still-open backend sessions; only then are those closed.
await server.close();
gateway.close();
for (const r of Object.values(reached)) r.close();
