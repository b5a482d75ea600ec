// @vitest-environment node
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFrontendHandler, type FrontendHandlerOptions } from "./frontend-handler.ts";
import { loadContentSecurityOptions } from "./security-headers.ts";

const BIG_JS = `console.log(${JSON.stringify("x".repeat(4000))});`;

function makeDist(): string {
  const root = mkdtempSync(path.join(tmpdir(), "tt-web-server-"));
  mkdirSync(path.join(root, "shell", "dist"), { recursive: true });
  mkdirSync(path.join(root, "room", "dist"), { recursive: true });
  writeFileSync(path.join(root, "shell", "dist", "index.html"), "<!doctype html><title>shell</title>");
  writeFileSync(path.join(root, "shell", "dist", "main.0123abcd.js"), BIG_JS);
  writeFileSync(path.join(root, "room", "dist", "remoteEntry.js"), BIG_JS);
  writeFileSync(path.join(root, "room", "dist", "mf-manifest.json"), JSON.stringify({ name: "room" }));
  writeFileSync(path.join(root, "secret.txt"), "not for the web");
  return root;
}

async function serve(options: FrontendHandlerOptions): Promise<{ url: string; server: Server }> {
  const handle = createFrontendHandler(options);
  const server = createServer((req, res) => {
    if (handle(req, res)) return;
    // Stands in for the gateway: whatever the frontends do not answer.
    res.statusCode = 404;
    res.end("gateway");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("createFrontendHandler", () => {
  let root: string;
  let url: string;
  let server: Server;

  beforeAll(async () => {
    root = makeDist();
    ({ url, server } = await serve({ distRoot: root }));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it("serves the shell's index.html at / without long caching", async () => {
    const res = await fetch(`${url}/`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain("<title>shell</title>");
  });

  it("answers client routes with index.html", async () => {
    const res = await fetch(`${url}/login/phone`, { headers: { accept: "text/html,*/*" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<title>shell</title>");
  });

  it("leaves REST, Connect and missing assets to the gateway", async () => {
    const rest = await fetch(`${url}/api/user-service/auth/session`, { headers: { accept: "text/html" } });
    expect(await rest.text()).toBe("gateway");
    const connectPost = await fetch(`${url}/tt.user.v1.AuthService/Login`, { method: "POST", body: "{}" });
    expect(await connectPost.text()).toBe("gateway");
    const connectGet = await fetch(`${url}/tt.user.v1.AuthService/GetSession?message=%7B%7D`, {
      headers: { accept: "text/html" },
    });
    expect(await connectGet.text()).toBe("gateway");
    const missing = await fetch(`${url}/missing.0123abcd.js`, { headers: { accept: "text/html" } });
    expect(await missing.text()).toBe("gateway");
  });

  it("compresses hashed assets and lets browsers keep them for a year", async () => {
    const res = await fetch(`${url}/main.0123abcd.js`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-type")).toContain("javascript");
    // fetch decodes transparently; the length on the wire is what shrank.
    expect(Number(res.headers.get("content-length"))).toBeLessThan(BIG_JS.length / 10);
    expect(await res.text()).toBe(BIG_JS);
  });

  it("sends gzip bytes that decode to the file", async () => {
    const { request } = await import("node:http");
    const body = await new Promise<Buffer>((resolve, reject) => {
      request(`${url}/main.0123abcd.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      })
        .on("error", reject)
        .end();
    });
    expect(gunzipSync(body).toString()).toBe(BIG_JS);
  });

  it("answers a matching ETag with 304", async () => {
    const first = await fetch(`${url}/main.0123abcd.js`);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    const again = await fetch(`${url}/main.0123abcd.js`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it("serves each remote's build under /remotes/<name>/ with CORS and no-cache entry points", async () => {
    const entry = await fetch(`${url}/remotes/room/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get("access-control-allow-origin")).toBe("*");
    expect(entry.headers.get("cache-control")).toBe("no-cache");
    const manifest = await fetch(`${url}/remotes/room/mf-manifest.json`);
    expect(await manifest.json()).toEqual({ name: "room" });
    const preflight = await fetch(`${url}/remotes/room/mf-manifest.json`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers 404 for a missing remote file and never leaves the dist folder", async () => {
    expect((await fetch(`${url}/remotes/shop/remoteEntry.js`)).status).toBe(404);
    const escaped = await fetch(`${url}/remotes/room/%2e%2e%2f%2e%2e%2fsecret.txt`);
    expect(escaped.status).toBe(404);
    expect(await escaped.text()).not.toContain("not for the web");
  });

  it("serves the default remotes.json: the four remotes' manifests", async () => {
    const res = await fetch(`${url}/remotes.json`);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.json()).toEqual([
      { name: "room", entry: "/remotes/room/mf-manifest.json" },
      { name: "crates", entry: "/remotes/crates/mf-manifest.json" },
      { name: "shop", entry: "/remotes/shop/mf-manifest.json" },
      { name: "admin", entry: "/remotes/admin/mf-manifest.json" },
    ]);
  });

  it("issue 14: names the configured players and the brand in remotes.json, for the live room's play handlers", async () => {
    const custom = await serve({ distRoot: root, contentSecurity: { players: ["youtube"] }, brand: "hangout" });
    try {
      const config = (await (await fetch(`${custom.url}/remotes.json`)).json()) as Record<string, unknown>;
      expect(config).toMatchObject({ services: {}, players: ["youtube"], brand: "hangout" });
    } finally {
      await new Promise((resolve) => custom.server.close(resolve));
    }
  });

  it("issue 14: carries the Apple Music developer token in remotes.json only while the apple player is configured", async () => {
    let minted = 0;
    const appleMusicToken = async () => {
      minted++;
      return { token: "header.payload.signature", expiresAt: new Date(Date.UTC(2026, 0, 1, 12)) };
    };
    const apple = await serve({ distRoot: root, contentSecurity: { players: ["apple"] }, appleMusicToken });
    const without = await serve({ distRoot: root, contentSecurity: { players: ["youtube"] }, appleMusicToken });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${apple.url}/remotes.json`);
        expect(res.headers.get("cache-control")).toBe("no-cache");
        expect(await res.json()).toMatchObject({
          players: ["apple"],
          appleMusic: { developerToken: "header.payload.signature", expiresAt: "2026-01-01T12:00:00.000Z" },
        });
      }
      // The token source is asked each time (the issuer caches and re-mints; see @tt/providers' apple-music-token).
      expect(minted).toBe(2);
      const config = (await (await fetch(`${without.url}/remotes.json`)).json()) as Record<string, unknown>;
      expect(config.appleMusic).toBeUndefined();
      expect(minted).toBe(2);
      const failing = await serve({
        distRoot: root,
        contentSecurity: { players: ["apple"] },
        appleMusicToken: () => Promise.reject(new Error("no key")),
      });
      try {
        const res = await fetch(`${failing.url}/remotes.json`);
        expect(res.status).toBe(200);
        expect(await res.json()).not.toHaveProperty("appleMusic");
      } finally {
        await new Promise((resolve) => failing.server.close(resolve));
      }
    } finally {
      await new Promise((resolve) => apple.server.close(resolve));
      await new Promise((resolve) => without.server.close(resolve));
    }
  });

  it("issue 14: carries the Agora app id in remotes.json when Agora is configured, for the rooms' live audio", async () => {
    const agoraAppId = "0123456789abcdef0123456789abcdef";
    const custom = await serve({ distRoot: root, contentSecurity: { agoraAppId } });
    try {
      const res = await fetch(`${custom.url}/remotes.json`);
      expect(await res.json()).toMatchObject({ services: {}, agoraAppId });
      expect((await fetch(`${custom.url}/`)).headers.get("content-security-policy")).toContain("wss://*.agora.io");
    } finally {
      await new Promise((resolve) => custom.server.close(resolve));
    }
  });

  it("serves the remotes.json it was given", async () => {
    const remotes = [{ name: "room", entry: "http://127.0.0.1:9/remoteEntry.js" }];
    const custom = await serve({ distRoot: root, remotes });
    try {
      expect(await (await fetch(`${custom.url}/remotes.json`)).json()).toEqual(remotes);
    } finally {
      await new Promise((resolve) => custom.server.close(resolve));
    }
  });
});

describe("issue 10: services on another origin", () => {
  it("serves their base URLs in remotes.json and lets the page connect to them", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "tt-web-server-services-"));
    mkdirSync(path.join(root, "shell", "dist"), { recursive: true });
    writeFileSync(path.join(root, "shell", "dist", "index.html"), "<!doctype html><title>shell</title>");
    const contentSecurity = loadContentSecurityOptions({ WEB_SERVICE_URLS: "user=http://127.0.0.1:8081" });
    const { url, server } = await serve({ distRoot: root, contentSecurity });
    try {
      const config = (await (await fetch(`${url}/remotes.json`)).json()) as { remotes: unknown[]; services: unknown };
      expect(config.services).toEqual({ user: "http://127.0.0.1:8081" });
      expect(config.remotes).toHaveLength(4);
      const page = await fetch(`${url}/`, { headers: { accept: "text/html" } });
      expect(page.headers.get("content-security-policy")).toContain("connect-src 'self' http://127.0.0.1:8081;");
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("createFrontendHandler before the first build", () => {
  it("answers page requests with a 503 that reloads itself, and leaves the API alone", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "tt-web-server-empty-"));
    const { url, server } = await serve({ distRoot: root, build: { building: () => true } });
    try {
      const page = await fetch(`${url}/`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(await page.text()).toContain("The web app is being built");
      expect(await (await fetch(`${url}/api/user-service`)).text()).toBe("gateway");
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("issue 23 finding 11: no build running (SKIP_WEB_BUILD=true, or a failed build)", () => {
  it("answers a page that is not built with 404 saying so, never a 'being built' 503 for good", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "tt-web-server-empty-"));
    const skipped = await serve({ distRoot: root });
    const failed = await serve({ distRoot: root, build: { building: () => false } });
    try {
      for (const { url } of [skipped, failed]) {
        for (const route of ["/", "/login", "/room/lobby"]) {
          const page = await fetch(`${url}${route}`, { headers: { accept: "text/html" } });
          expect(page.status, route).toBe(404);
          expect(page.headers.get("retry-after"), route).toBeNull();
          const text = await page.text();
          expect(text, route).toContain("not built");
          expect(text, route).not.toContain("reloads by itself");
        }
        const file = await fetch(`${url}/remotes/room/remoteEntry.js`);
        expect(file.status).toBe(404);
        await file.arrayBuffer();
        expect(await (await fetch(`${url}/api/user-service`)).text()).toBe("gateway");
      }
    } finally {
      for (const { server } of [skipped, failed]) await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("serves what is built", async () => {
    const root = makeDist();
    const { url, server } = await serve({ distRoot: root });
    try {
      const page = await fetch(`${url}/login`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>shell</title>");
      expect((await fetch(`${url}/remotes/room/mf-manifest.json`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("issue 9 defect 9: security headers of the web apps", () => {
  let root: string;
  let running: { url: string; server: Server };

  beforeAll(async () => {
    root = makeDist();
    running = await serve({
      distRoot: root,
      remotes: [
        { name: "room", entry: "/remotes/room/mf-manifest.json" },
        { name: "shop", entry: "https://shop.cdn.example/mf-manifest.json" },
      ],
      contentSecurity: { players: ["soundcloud"], mediaBaseUrl: "https://media.example.org/m" },
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => running.server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it("sends the policy, no framing and a referrer policy with the page, for / and client routes", async () => {
    for (const route of ["/", "/room/lobby"]) {
      const res = await fetch(`${running.url}${route}`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self' https:\/\/shop\.cdn\.example https:\/\/w\.soundcloud\.com(;|$)/);
      expect(csp).toContain("https://media.example.org");
      expect(csp).not.toContain("unsafe-");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("sends nosniff with every file and remotes.json, the policy only with HTML", async () => {
    for (const file of ["/main.0123abcd.js", "/remotes/room/remoteEntry.js", "/remotes.json"]) {
      const res = await fetch(`${running.url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("x-content-type-options"), file).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), file).toBeNull();
    }
  });

  it("sends HSTS when the Ingress says the request came over TLS", async () => {
    const res = await fetch(`${running.url}/`, { headers: { accept: "text/html", "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("sends the policy with the 'being built' page too", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "tt-web-server-empty-"));
    const other = await serve({ distRoot: empty, build: { building: () => true } });
    try {
      const page = await fetch(`${other.url}/`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    } finally {
      await new Promise((resolve) => other.server.close(resolve));
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("issue 9 defect 13: while the web build runs", () => {
  it("answers pages with 'being built' and files with 503, never a shell whose remotes are half written", async () => {
    const root = makeDist();
    let building = true;
    const { url, server } = await serve({ distRoot: root, build: { building: () => building } });
    try {
      const page = await fetch(`${url}/`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("The web app is being built");
      for (const file of ["/main.0123abcd.js", "/remotes/room/remoteEntry.js", "/remotes/room/mf-manifest.json"]) {
        const res = await fetch(`${url}${file}`);
        expect(res.status, file).toBe(503);
        expect(res.headers.get("retry-after")).toBe("5");
        await res.arrayBuffer();
      }
      // The API is not the build's business.
      expect(await (await fetch(`${url}/api/user-service`)).text()).toBe("gateway");

      building = false;
      expect((await fetch(`${url}/`, { headers: { accept: "text/html" } })).status).toBe(200);
      expect((await fetch(`${url}/remotes/room/remoteEntry.js`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });
});
