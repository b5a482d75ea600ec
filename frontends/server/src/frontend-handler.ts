import { createReadStream, existsSync, statSync, type Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import path from "node:path";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import { promisify } from "node:util";
import type { RemoteEntry, ServiceUrls } from "@tt/web-kit";
import type { WebBuild } from "./build-if-stale.ts";
import { REMOTE_APPS, resolveDistRoot } from "./paths.ts";
import {
  contentSecurityPolicy,
  FILE_SECURITY_HEADERS,
  pageSecurityHeaders,
  strictTransportSecurity,
  type ContentSecurityOptions,
} from "./security-headers.ts";

export type { RemoteEntry };

export interface FrontendHandlerOptions {
  /** The folder holding shell/dist and <remote>/dist; relative paths are from the working directory. */
  distRoot?: string;
  /** What /remotes.json answers; by default the four remotes under /remotes/<name>/. */
  remotes?: RemoteEntry[];
  /**
   * Services whose API is not on this origin (name → base URL; by default contentSecurity.services, i.e.
   * WEB_SERVICE_URLS): /remotes.json then answers { remotes, services }, and their origins join connect-src.
   */
  services?: ServiceUrls;
  /**
   * What the Content-Security-Policy of the pages allows beyond the site itself (players, media origin, extra
   * sources; see loadContentSecurityOptions). The origins of the remotes above are always added.
   */
  contentSecurity?: ContentSecurityOptions;
  /** The deployment's brand (WEB_BRAND; "hangout" plays by its own provider priority, spec 002 §9). */
  brand?: string;
  /**
   * The Apple Music developer token MusicKit JS is configured with (@tt/providers' createAppleMusicTokenIssuer, from the
   * APPLE_MUSIC_* variables): while "apple" is among the players, /remotes.json carries the current one as
   * { appleMusic: { developerToken, expiresAt } }. The issuer keeps one token and re-mints it before it expires.
   */
  appleMusicToken?: () => Promise<{ token: string; expiresAt: Date }>;
  /**
   * A build running in the background: while it runs, pages answer "being built" and files 503. Without one (or
   * once it has failed) a shell that is not built answers 404 saying so.
   */
  build?: Pick<WebBuild, "building">;
}

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/** Answers the request and returns true when it is for the frontends; returns false to let the caller go on. */
export type FrontendHandler = (req: Request, res: Response) => boolean;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".txt", ".map", ".svg"]);

// Paths that belong to the gateway, never to the single-page app: REST under /api/, Connect and gRPC
// (/<package>.<Service>/<Method>) and the operational endpoints.
const CONNECT_PATH = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;
const BACKEND_PREFIXES = ["/api/", "/healthz", "/readyz", "/livez", "/metrics", "/openapi"];

// webpack names chunks [name].[contenthash:8].ext; those never change and may be cached for a year. The
// federation entry points (remoteEntry.js, mf-manifest.json) and index.html keep their names across
// releases, so browsers must revalidate them.
const HASHED_ASSET = /\.[0-9a-f]{8}\.(?:js|css)$/;
const LONG_CACHE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

export function isBackendPath(pathname: string): boolean {
  return CONNECT_PATH.test(pathname) || BACKEND_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

function defaultRemotes(): RemoteEntry[] {
  return REMOTE_APPS.map((name) => ({ name, entry: `/remotes/${name}/mf-manifest.json` }));
}

function wantsHtml(req: Request): boolean {
  const accept = req.headers["accept"];
  return accept === undefined || accept.includes("text/html") || accept.includes("*/*");
}

/** The file under root that pathname names, or undefined when it escapes root or is not a file. */
function fileUnder(root: string, pathname: string): { file: string; stats: Stats } | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (relative.includes("\0")) return undefined;
  const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  try {
    const stats = statSync(file);
    return stats.isFile() ? { file, stats } : undefined;
  } catch {
    return undefined;
  }
}

interface Encoded {
  key: string;
  body: Buffer;
}

/** Compressed copies, made once per file version (they are small, and the set of files is fixed). */
const compressedCache = new Map<string, Promise<Buffer>>();

async function encodedBody(file: string, stats: Stats, encoding: "br" | "gzip"): Promise<Encoded> {
  // A precompressed sibling written by a build step wins over compressing here.
  const sibling = `${file}.${encoding === "br" ? "br" : "gz"}`;
  if (existsSync(sibling) && statSync(sibling).mtimeMs >= stats.mtimeMs) {
    return { key: encoding, body: await readFile(sibling) };
  }
  const cacheKey = `${file}:${stats.mtimeMs}:${stats.size}:${encoding}`;
  let pending = compressedCache.get(cacheKey);
  if (!pending) {
    pending = readFile(file).then((raw) =>
      encoding === "br"
        ? brotliAsync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
        : gzipAsync(raw, { level: 9 }),
    );
    compressedCache.set(cacheKey, pending);
    pending.catch(() => compressedCache.delete(cacheKey));
  }
  return { key: encoding, body: await pending };
}

function pickEncoding(req: Request): "br" | "gzip" | undefined {
  const accepted = String(req.headers["accept-encoding"] ?? "");
  if (/\bbr\b/.test(accepted)) return "br";
  if (/\bgzip\b/.test(accepted)) return "gzip";
  return undefined;
}

function setCors(res: Response): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "*");
}

function sendFile(req: Request, res: Response, file: string, stats: Stats, cacheControl: string): void {
  const ext = path.extname(file).toLowerCase();
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  res.setHeader("Content-Type", CONTENT_TYPES[ext] ?? "application/octet-stream");
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("ETag", etag);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (req.headers["if-none-match"] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const compressible = COMPRESSIBLE.has(ext) && stats.size > 512;
  if (compressible) res.setHeader("Vary", "Accept-Encoding");
  const encoding = compressible ? pickEncoding(req) : undefined;
  const head = req.method === "HEAD";
  if (!encoding) {
    res.setHeader("Content-Length", stats.size);
    res.statusCode = 200;
    if (head) res.end();
    else
      createReadStream(file)
        .on("error", () => res.destroy())
        .pipe(res as NodeJS.WritableStream);
    return;
  }
  encodedBody(file, stats, encoding).then(
    ({ key, body }) => {
      res.setHeader("Content-Encoding", key);
      res.setHeader("Content-Length", body.length);
      res.statusCode = 200;
      if (head) res.end();
      else res.end(body);
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
}

function sendJson(req: Request, res: Response, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", REVALIDATE);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>Turntable is starting</title></head><body><h1>Turntable is starting</h1>
<p>The web app is being built. This page reloads by itself in a few seconds.</p></body></html>`;

function sendNotBuilt(req: Request, res: Response): void {
  res.statusCode = 503;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Retry-After", "5");
  if (req.method === "HEAD") res.end();
  else res.end(NOT_BUILT_PAGE);
}

const MISSING_BUILD_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not built</title></head>
<body><h1>The web app is not built</h1>
<p>Build it with <code>npm run build:web</code>, or start without <code>SKIP_WEB_BUILD=true</code>. The API works.</p>
</body></html>`;

function sendMissingBuild(req: Request, res: Response): void {
  res.statusCode = 404;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  if (req.method === "HEAD") res.end();
  else res.end(MISSING_BUILD_PAGE);
}

/** A file asked for while the build that writes it runs: come back shortly, rather than a 404. */
function sendBuilding(res: Response): void {
  res.statusCode = 503;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Retry-After", "5");
  res.end("The web app is being built");
}

function notFound(res: Response): void {
  res.statusCode = 404;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", REVALIDATE);
  res.end("Not found");
}

function cacheControlFor(file: string): string {
  return HASHED_ASSET.test(path.basename(file)) ? LONG_CACHE : REVALIDATE;
}

/**
 * The runtime configuration with the current Apple Music developer token. A token that cannot be signed leaves it
 * out: the page then reports the missing token (spec 002 §8, "key:appleDeveloperToken") and everything else works.
 */
export async function withAppleMusicToken(
  config: object,
  token: () => Promise<{ token: string; expiresAt: Date }>,
): Promise<object> {
  try {
    const current = await token();
    return { ...config, appleMusic: { developerToken: current.token, expiresAt: current.expiresAt.toISOString() } };
  } catch {
    return config;
  }
}

/**
 * Serves the shell at / (with the single-page fallback for its client routes), every remote's build under
 * /remotes/<name>/ with CORS, and /remotes.json. Anything else — the API, Connect, unknown files — is left
 * to the caller (false).
 */
export function createFrontendHandler(options: FrontendHandlerOptions = {}): FrontendHandler {
  const root = resolveDistRoot(options.distRoot);
  const shellDist = path.join(root, "shell", "dist");
  const remotes = options.remotes ?? defaultRemotes();
  const services = options.services ?? options.contentSecurity?.services ?? {};
  // The players the pages may load (the live room loads only these play handlers), the brand, and the Agora app
  // id when Agora is configured (rooms' live audio).
  const players = options.contentSecurity?.players ?? [];
  const agoraAppId = options.contentSecurity?.agoraAppId;
  const extras = {
    ...(players.length > 0 ? { players } : {}),
    ...(options.brand ? { brand: options.brand } : {}),
    ...(agoraAppId ? { agoraAppId } : {}),
  };
  // The array form while no service is redirected and nothing else is set: the same answer as before.
  const runtimeConfig =
    Object.keys(services).length > 0 || Object.keys(extras).length > 0 ? { remotes, services, ...extras } : remotes;
  const policy = contentSecurityPolicy({
    ...options.contentSecurity,
    remotes: [...(options.contentSecurity?.remotes ?? []), ...remotes],
    services,
  });
  const pageHeaders = pageSecurityHeaders(policy);
  // Only a deployment whose pages may load MusicKit hands its developer token out.
  const appleMusicToken = players.includes("apple") ? options.appleMusicToken : undefined;
  const building = () => options.build?.building() ?? false;
  // Every answer gets nosniff and the referrer policy, HTML pages the whole set (CSP, no framing), and HSTS
  // when the request came over TLS.
  const secure = (req: Request, res: Response, file?: string) => {
    const headers = file === undefined || file.endsWith(".html") ? pageHeaders : FILE_SECURITY_HEADERS;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const hsts = strictTransportSecurity(req);
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
  };

  return (req, res) => {
    const method = req.method ?? "GET";
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") return false;
    let pathname: string;
    try {
      pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      return false;
    }
    if (isBackendPath(pathname)) return false;

    if (pathname === "/remotes.json") {
      if (method === "OPTIONS") return false;
      secure(req, res, pathname);
      if (appleMusicToken) {
        withAppleMusicToken(runtimeConfig, appleMusicToken).then((config) => sendJson(req, res, config));
      } else sendJson(req, res, runtimeConfig);
      return true;
    }

    const remoteMatch = /^\/remotes\/([a-z][a-z0-9_]*)(\/.*)?$/.exec(pathname);
    if (remoteMatch) {
      const [, name = "", rest = "/"] = remoteMatch;
      setCors(res);
      if (method === "OPTIONS") {
        res.statusCode = 204;
        res.end();
        return true;
      }
      const file = rest === "/" ? "/index.html" : rest;
      secure(req, res, file);
      if (building()) {
        sendBuilding(res);
        return true;
      }
      const dist = path.join(root, name, "dist");
      const found = fileUnder(dist, file);
      if (!found) notFound(res);
      else sendFile(req, res, found.file, found.stats, cacheControlFor(found.file));
      return true;
    }

    if (method === "OPTIONS") return false;
    const lastSegment = pathname.slice(pathname.lastIndexOf("/") + 1);
    const isAsset = lastSegment.includes(".");
    if (building()) {
      // The dist folders are being rewritten: nothing in them can be trusted yet.
      if (isAsset) {
        secure(req, res, pathname);
        sendBuilding(res);
      } else if (wantsHtml(req)) {
        secure(req, res);
        sendNotBuilt(req, res);
      } else return false;
      return true;
    }
    const found = pathname === "/" ? undefined : fileUnder(shellDist, pathname);
    if (found) {
      secure(req, res, found.file);
      sendFile(req, res, found.file, found.stats, cacheControlFor(found.file));
      return true;
    }
    // Client routes (/login, /room/…) get the page; a missing asset (anything with an extension) does not.
    if (isAsset || !wantsHtml(req)) return false;
    const index = fileUnder(shellDist, "/index.html");
    if (!index) {
      // No build runs (SKIP_WEB_BUILD=true, or the build failed): nothing will appear by waiting, so no
      // "being built" 503 that reloads itself for good (issue 23 finding 11); a 404 that says what is missing.
      secure(req, res);
      sendMissingBuild(req, res);
      return true;
    }
    secure(req, res, index.file);
    sendFile(req, res, index.file, index.stats, REVALIDATE);
    return true;
  };
}
