import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMediaHandler } from "./handler.ts";

let dir: string;
let server: Server;
let port: number;
const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4]);

/** A raw request: the path goes out exactly as written (fetch would normalise "..") */
function get(path: string, method = "GET", headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tt-media-handler-"));
  const root = join(dir, "media");
  await mkdir(join(root, "images/abc"), { recursive: true });
  await writeFile(join(root, "images/abc/256.webp"), webp);
  await writeFile(
    join(root, "images/abc/drawn.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  // A file next to the root that no request may reach.
  await writeFile(join(dir, "secret.txt"), "top secret");
  const handler = createMediaHandler({ root, basePath: "/media" });
  server = createServer((req, res) => {
    if (!handler(req, res)) res.writeHead(418).end("not media");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe("createMediaHandler", () => {
  it("serves a stored file with its content type and long-lived cache headers", async () => {
    const res = await get("/media/images/abc/256.webp?v=1");
    expect(res.status).toBe(200);
    expect(new Uint8Array(res.body)).toEqual(webp);
    expect(res.headers).toMatchObject({
      "content-type": "image/webp",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-length": String(webp.length),
    });
  });

  it("issue 26: serves a drawing as SVG under a policy that runs and loads nothing when it is opened on its own", async () => {
    const res = await get("/media/images/abc/drawn.svg");
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      "content-type": "image/svg+xml",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "x-content-type-options": "nosniff",
    });
  });

  it("answers HEAD without a body and 304 when not modified", async () => {
    const head = await get("/media/images/abc/256.webp", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const again = await get("/media/images/abc/256.webp", "GET", {
      "if-modified-since": String(head.headers["last-modified"]),
    });
    expect(again.status).toBe(304);
  });

  it("answers 404 for missing files and directories, 405 for other methods", async () => {
    expect((await get("/media/images/abc/500.webp")).status).toBe(404);
    expect((await get("/media/images/abc")).status).toBe(404);
    const post = await get("/media/images/abc/256.webp", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it.each([
    "/media/../secret.txt",
    "/media/%2e%2e/secret.txt",
    "/media/images/..%2f..%2fsecret.txt",
    "/media/images/%2e%2e/%2e%2e/secret.txt",
    "/media/..%5csecret.txt",
    "/media/%2fetc%2fpasswd",
    "/media/images/abc/256.webp%00.txt",
    "/media/%E0%A4%A",
  ])("never leaves the root: %s is 404", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain("top secret");
  });

  it("leaves other paths to the next handler", async () => {
    expect((await get("/mediax/images/abc/256.webp")).status).toBe(418);
    expect((await get("/api/user-service")).status).toBe(418);
  });
});
