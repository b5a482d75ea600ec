// The gateway alone (distributed mode): every service of the catalog is reached over HTTP/2 at its
// <NAME>_SERVICE_URL; REST calls go through a Connect (or gRPC) transport, Connect/gRPC/gRPC-Web calls are proxied
// unchanged. Ready while every backend is; drains on SIGTERM/SIGINT.
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import net from "node:net";
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { createLogger, createServer } from "@tt/kit";
import type { Logger } from "pino";
import { serviceCatalog } from "./catalog.ts";
import { backendUrls, loadGatewayConfig, type GatewayConfig } from "./gateway-config.ts";
import { createGateway, type GatewayBackend } from "./index.ts";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/** Ready when every backend's /readyz answers 200; one probe round at a time, its answer reused for `ttlMs`. */
function backendReadiness(baseUrls: string[], ttlMs: number, logger: Logger): () => Promise<boolean> {
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
  return () => {
    if (performance.now() - checkedAt < ttlMs) return Promise.resolve(last);
    running ??= Promise.all(baseUrls.map(probe))
      .then((answers) => {
        last = answers.every(Boolean);
        checkedAt = performance.now();
        return last;
      })
      .finally(() => (running = undefined));
    return running;
  };
}

/** Serves the shell's remotes manifest; read once at start so a broken mount fails the start, not the page. */
async function remotesHandler(file: string | undefined) {
  if (!file) return undefined;
  const text = await readFile(file, "utf8");
  JSON.parse(text); // only to refuse a malformed file now; the shell validates the entries
  const body = Buffer.from(text);
  return (req: Request, res: Response): boolean => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/remotes.json" || (req.method !== "GET" && req.method !== "HEAD")) return false;
    (res as ServerResponse).writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(body.length),
      // A new release changes the list; the shell must not keep a stale one.
      "cache-control": "no-cache",
    });
    if (req.method === "HEAD") res.end();
    else res.end(body);
    return true;
  };
}

function transportFor(config: GatewayConfig, baseUrl: string, sessions: Http2SessionManager): Transport {
  const options = { baseUrl, httpVersion: "2" as const, sessionManager: sessions };
  // Connect by default: over the same h2c session it measured 2-4x the throughput of gRPC against the kit's
  // server (gateway/bench/distributed.ts); binary because nothing but the gateway reads these messages.
  return config.BACKEND_PROTOCOL === "grpc"
    ? createGrpcTransport(options)
    : createConnectTransport({ ...options, useBinaryFormat: true });
}

/** One HTTP/2 session per service, kept alive with pings. */
function sessionManager(baseUrl: string): Http2SessionManager {
  const url = new URL(baseUrl);
  // Small unary frames on a long-lived session: without TCP_NODELAY, Nagle holds some back a round trip
  // (measured 5-20 % more throughput and a lower p50 with it). TLS (https) keeps Node's default socket.
  const plain =
    url.protocol === "http:"
      ? { createConnection: () => net.connect({ host: url.hostname, port: Number(url.port) || 80, noDelay: true }) }
      : {};
  return new Http2SessionManager(baseUrl, { pingIntervalMs: 30_000 }, plain);
}

const config = loadGatewayConfig(process.env);
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
const urls = backendUrls(config);
const sessions = new Map(Object.entries(urls).map(([name, url]) => [name, sessionManager(url)]));
const backends: GatewayBackend[] = Object.entries(serviceCatalog).map(([name, services]) => ({
  services: [...services],
  transport: transportFor(config, urls[name]!, sessions.get(name)!),
  connect: { baseUrl: urls[name]! },
}));

const gateway = createGateway({
  backends,
  bodyLimitBytes: config.BODY_LIMIT_BYTES,
  cors: config.CORS_ORIGINS ? { origins: config.CORS_ORIGINS } : undefined,
  logger,
  staticHandler: await remotesHandler(config.REMOTES_CONFIG),
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
});
logger.info({ url: server.url, backends: urls, routes: gateway.routes.routes.length }, "gateway ready");

if (!stop.signal.aborted) await once(stop.signal, "abort");
logger.info({ reason: String(stop.signal.reason) }, "shutting down");
// Running calls finish against still-open backend sessions; only then are those closed.
await server.close();
gateway.close();
for (const s of sessions.values()) s.abort();
