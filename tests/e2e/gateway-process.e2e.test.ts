// The gateway process alone (gateway/src/main.ts, as the chart runs it): what its configuration demands,
// how its readiness follows its backends, and that SIGTERM ends it cleanly. No service runs here; a bare
// HTTP server stands in for a backend's /readyz.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { serviceCatalog } from "@tt/gateway/catalog";

/** Every catalog service at one URL (the gateway needs a URL for each). */
function serviceUrls(url: string): Record<string, string> {
  return Object.fromEntries(Object.keys(serviceCatalog).map((name) => [`${name.toUpperCase()}_SERVICE_URL`, url]));
}
import { freePort, NODE_TYPESCRIPT_FLAGS } from "@tt/kit";

const root = path.resolve(import.meta.dirname, "../..");

interface Gateway {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts the gateway with only `env` (plus PATH): nothing inherited can satisfy its configuration by accident. */
async function spawnGateway(env: Record<string, string>): Promise<Gateway> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, "gateway/src/main.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, url: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
}

/** Bounded poll of `url` until it answers `status`; fails early if the gateway exits. */
async function waitForStatus(gateway: Gateway, url: string, status: number, timeoutMs = 30_000): Promise<void> {
  let gone = false;
  void gateway.exited.then(() => (gone = true));
  await expect
    .poll(
      async () => {
        if (gone) throw new Error(`gateway exited:\n${gateway.stderr()}`);
        return fetch(url).then(
          (res) => res.status,
          () => 0,
        );
      },
      { timeout: timeoutMs, interval: 50 },
    )
    .toBe(status);
}

async function standInBackend(): Promise<{ url: string; setReady(ready: boolean): void; close(): Promise<void> }> {
  let ready = true;
  const server = http.createServer((req, res) => {
    res.writeHead(req.url === "/readyz" && ready ? 200 : 503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setReady: (value) => (ready = value),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("gateway process", () => {
  it("refuses to start without a URL for every catalog service, and needs no database or NATS", async () => {
    const gateway = await spawnGateway({});
    const [code] = await gateway.exited;
    expect(code).not.toBe(0);
    expect(gateway.stderr()).toContain("USER_SERVICE_URL: is required");
    expect(gateway.stderr()).not.toContain("DATABASE_URL");
    expect(gateway.stderr()).not.toContain("NATS_URL");
  });

  it("refuses to start when REMOTES_CONFIG names a file that is not there", async () => {
    const gateway = await spawnGateway({
      ...serviceUrls("http://127.0.0.1:1"),
      REMOTES_CONFIG: path.join(tmpdir(), "no-such-dir", "remotes.json"),
    });
    const [code] = await gateway.exited;
    expect(code).not.toBe(0);
    expect(gateway.stderr()).toContain("ENOENT");
  });

  it("is ready only while its backends are, answers a REST error body when a backend cannot serve a call, and stops on SIGTERM", async () => {
    const backend = await standInBackend();
    onTestFinished(() => backend.close());
    const dir = mkdtempSync(path.join(tmpdir(), "tt-gateway-test-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const remotes = path.join(dir, "remotes.json");
    writeFileSync(remotes, JSON.stringify([{ name: "room", entry: "/remotes/room/mf-manifest.json" }]));

    const gateway = await spawnGateway({ ...serviceUrls(backend.url), REMOTES_CONFIG: remotes });
    await waitForStatus(gateway, `${gateway.url}/readyz`, 200);

    const manifest = await fetch(`${gateway.url}/remotes.json`);
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toEqual([{ name: "room", entry: "/remotes/room/mf-manifest.json" }]);

    // The stand-in has no RPCs: the gateway's call fails as a REST error body, not a hang or a crash.
    const rest = await fetch(`${gateway.url}/api/user-service`);
    expect(rest.status).toBeGreaterThanOrEqual(500);
    expect(await rest.json()).toMatchObject({ statusCode: rest.status });

    backend.setReady(false);
    await waitForStatus(gateway, `${gateway.url}/readyz`, 503);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    backend.setReady(true);
    await waitForStatus(gateway, `${gateway.url}/readyz`, 200);

    gateway.child.kill("SIGTERM");
    const [code, signal] = await gateway.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
