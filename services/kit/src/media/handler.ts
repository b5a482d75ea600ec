// Serves the media files a service stored on the filesystem over HTTP: the all-in-one server and the gateway
// mount it when MEDIA_DIR is theirs to read. With S3 the bucket or a CDN serves them instead.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mediaContentType, mediaFilePath } from "./files.ts";

export interface MediaHandlerOptions {
  /** The files' root (MEDIA_DIR). */
  root: string;
  /** The URL path the files are served under, e.g. /media (MEDIA_BASE_URL when it is a path). */
  basePath: string;
}

/** Request handler: answers requests under basePath and returns true, or returns false for other paths. */
export type MediaHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

// Keys hold a fresh uuid and are never rewritten, so browsers and proxies may keep them for good.
const CACHE_CONTROL = "public, max-age=31536000, immutable";
// A file opened on its own (an SVG can hold scripts) runs nothing and loads nothing: as an <img> it still draws.
const FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(text);
}

export function createMediaHandler(opts: MediaHandlerOptions): MediaHandler {
  const prefix = `${opts.basePath.replace(/\/+$/, "")}/`;
  return (req, res) => {
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    if (!pathname.startsWith(prefix)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      answer(res, 405, "Method Not Allowed", { allow: "GET, HEAD" });
      return true;
    }
    let key: string;
    let path: string;
    try {
      key = decodeURIComponent(pathname.slice(prefix.length));
      // The key rules refuse "..", absolute paths, backslashes and NUL before a path is built.
      path = mediaFilePath(opts.root, key);
    } catch {
      answer(res, 404, "Not Found");
      return true;
    }
    void serve(req, res, key, path);
    return true;
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, key: string, path: string): Promise<void> {
  try {
    const info = await stat(path);
    if (!info.isFile()) {
      answer(res, 404, "Not Found");
      return;
    }
    const headers = {
      "content-type": mediaContentType(key),
      "content-length": String(info.size),
      "cache-control": CACHE_CONTROL,
      "last-modified": info.mtime.toUTCString(),
      "x-content-type-options": "nosniff",
      "content-security-policy": FILE_POLICY,
    };
    if (
      req.headers["if-modified-since"] &&
      new Date(req.headers["if-modified-since"]) >= new Date(info.mtime.toUTCString())
    ) {
      res.writeHead(304, { "cache-control": CACHE_CONTROL });
      res.end();
      return;
    }
    res.writeHead(200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const stream = createReadStream(path);
    stream.on("error", () => res.destroy());
    stream.pipe(res);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") {
      answer(res, 404, "Not Found");
    } else if (!res.headersSent) {
      answer(res, 500, "Internal Server Error");
    } else {
      res.destroy();
    }
  }
}
