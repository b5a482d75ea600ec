// What only distributed mode can show: a session revoked through the gateway is refused by every user
// service process (the revocation crosses processes over NATS), the gateway serves the chart's remotes
// manifest and follows its backends' readiness, and no child process outlives its supervisor, even one that
// is killed outright. Every service replica serves on a port reserved before any process started (so each process
// has every replica's URL of every service); workers and the gateway (asked for port 0) bind port 0 and report where
// they listen. Issue 28 finding 5: a process killed outright comes back by itself on its port, and while the first
// social replica is down the gateway sends its calls to the second.
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import {
  createTestDatabase,
  removeDeploymentFromNats,
  TEST_DATABASE_POOL_MAX,
  uniqueDeploymentName,
} from "@tt/kit/testing";
import { localiseEnv, localiseEnvs, renderWorkloads } from "@tt/platform/render-env";
import { serviceNames, serviceWorkers } from "@tt/platform/catalogue";
import { startDistributed } from "@tt/platform/distributed";
import { COMPILE_CACHE_DIR, spawnNodeProcess, waitUntilReady } from "@tt/platform/processes";
import { alive } from "@tt/platform/orphans";
import type { Distributed } from "@tt/platform/distributed";
import { createLogger, NODE_TYPESCRIPT_FLAGS } from "@tt/kit";
import { eventually } from "@tt/kit/testing";

const root = path.resolve(import.meta.dirname, "../..");

/** The environment a running child was started with (Linux: /proc/<pid>/environ). */
function environOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(
    entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

/** A unary call in the Connect protocol (JSON), straight to one process. */
async function connectCall(baseUrl: string, method: string, token?: string) {
  const res = await fetch(`${baseUrl}/tt.user.v1.AuthService/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: "{}",
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("distributed mode", () => {
  let platform: Distributed;
  const appleKey = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  let dropDatabase: () => Promise<void>;
  let deployment: string | undefined;
  /** The supervisor's log lines (JSON), info and above. */
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const db = await createTestDatabase(inject("databaseUrl"));
    dropDatabase = db.drop;
    deployment = uniqueDeploymentName("distributed");
    // Two processes of each service, as the chart's default replicaCount runs them.
    platform = await startDistributed({
      databaseUrl: db.url,
      natsUrl: inject("natsUrl"),
      port: 0,
      replicas: 2,
      forwardOutput: false,
      logger: createLogger({
        service: "distributed",
        level: "info",
        destination: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
      }),
      env: {
        LOG_LEVEL: "warn",
        DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
        DEPLOYMENT_NAME: deployment,
        // Issue 14: the brand and the Apple Music key reach the gateway's /remotes.json through the chart.
        WEB_BRAND: "hangout",
        APPLE_MUSIC_TEAM_ID: "TEAM123456",
        APPLE_MUSIC_KEY_ID: "KEY1234567",
        APPLE_MUSIC_PRIVATE_KEY: appleKey.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      },
    });
    // Two of every process, started one after the other (each service migrates before the next), on a loaded
    // machine: far beyond the default hook timeout.
  }, 300_000);

  afterAll(async () => {
    await platform?.close();
    await dropDatabase?.();
    if (deployment) await removeDeploymentFromNats(inject("natsUrl"), deployment);
  });

  const users = () => platform.processes.filter((p) => p.name === "user");

  it("runs one process per chart workload and replica, each on its own port", () => {
    // Each service's workers (issue 12: upload-worker) start right after it.
    const expected = [
      ...serviceNames.flatMap((name) => [
        `${name}#0`,
        `${name}#1`,
        ...serviceWorkers.filter((w) => w.service === name).flatMap((w) => [`${w.name}#0`, `${w.name}#1`]),
      ]),
      "gateway#0",
    ];
    expect(platform.processes.map((p) => `${p.name}#${p.replica}`)).toEqual(expected);
    const pids = new Set(platform.processes.map((p) => p.pid));
    expect(pids.size).toBe(expected.length);
    expect(pids.has(process.pid)).toBe(false);
    expect(new Set(platform.processes.map((p) => p.url)).size).toBe(expected.length);
    expect(new URL(platform.url).port).toBe(new URL(platform.processes.at(-1)!.url).port);
  });

  it("issue 14: reserves every service's port before starting any, so every process has every service's URL", () => {
    const gateway = platform.processes.find((p) => p.name === "gateway")!;
    // Issue 28: every replica's URL of a service, comma-separated, in replica order.
    const urlsOf = (name: string) =>
      platform.processes
        .filter((p) => p.name === name)
        .map((p) => p.url)
        .join(",");
    for (const p of platform.processes) {
      const env = environOf(p.pid);
      expect(env.METRICS_PORT, p.name).toBe("0");
      // Each service replica serves on its reserved port; workers and the gateway (asked for port 0 above) bind
      // port 0 and report what they got.
      const reservedPort = serviceNames.includes(p.name);
      expect(env.PORT, p.name).toBe(reservedPort ? new URL(p.url).port : "0");
      // Every service's URLs but its own: the room service, started before the social service, has the social
      // service's (its live answers come from the stage, as in a cluster).
      for (const name of serviceNames) {
        const variable = `${name.toUpperCase()}_SERVICE_URL`;
        if (name === p.name) expect(env[variable], `${p.name} ${variable}`).toBeUndefined();
        else expect(env[variable], `${p.name} ${variable}`).toBe(urlsOf(name));
      }
    }
    const room = platform.processes.find((p) => p.name === "room")!;
    expect(environOf(room.pid).SOCIAL_SERVICE_URL).toBe(urlsOf("social"));
    expect(urlsOf("social").split(",")).toHaveLength(2);
    expect(environOf(gateway.pid).USER_SERVICE_URL).toBe(
      users()
        .map((u) => u.url)
        .join(","),
    );
  });

  it("issue 9 defect 10: gives each process a metrics port of its own, and none serves /metrics on its public port", async () => {
    const metricsUrls = platform.processes.map((p) => p.metricsUrl);
    expect(new Set(metricsUrls).size).toBe(platform.processes.length);
    for (const p of platform.processes) {
      expect(p.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(p.metricsUrl).not.toBe(p.url);
      const metrics = await fetch(`${p.metricsUrl}/metrics`);
      expect(metrics.status, p.metricsUrl).toBe(200);
      expect(await metrics.text()).toMatch(/^# HELP /m);
      const onPublic = await fetch(`${p.url}/metrics`);
      expect(onPublic.status, p.url).toBe(404);
      await onPublic.body?.cancel();
    }
  });

  it("refuses a token in every user service process once it is logged out through the gateway", async () => {
    const signUp = await fetch(`${platform.url}/api/user-service/users/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "crossing@example.test", password: "correct-horse-1" }),
    });
    expect(signUp.status).toBe(200);
    const token = ((await signUp.json()) as { accessToken: { token: string } }).accessToken.token;
    for (const user of users()) {
      const before = await connectCall(user.url, "GetSession", token);
      expect(before.status, user.url).toBe(200);
      expect(before.body).toMatchObject({ tokenType: "user" });
    }

    const logout = await fetch(`${platform.url}/api/user-service/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: "{}",
    });
    expect(logout.status).toBe(200);

    // The gateway's backend (replica 0) revoked the session itself; replica 1 learns it from the NATS
    // key-value watch, which is asynchronous: poll, bounded.
    for (const user of users()) {
      await expect
        .poll(async () => (await connectCall(user.url, "GetSession", token)).status, { timeout: 3000, interval: 20 })
        .toBe(401);
      const after = await connectCall(user.url, "GetSession", token);
      expect(after.body).toMatchObject({ code: "unauthenticated" });
    }
  });

  it("serves the shell's remotes manifest rendered by the chart at /remotes.json, with the brand, the players and the Apple Music developer token", async () => {
    const res = await fetch(`${platform.url}/remotes.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const config = (await res.json()) as {
      remotes: { name: string; entry: string }[];
      brand: string;
      players: string[];
      appleMusic: { developerToken: string };
    };
    expect(config.remotes).toContainEqual({ name: "room", entry: "/remotes/room/mf-manifest.json" });
    // The key configured the apple player (as npm start derives it), and the gateway signed the token with it.
    expect(config).toMatchObject({ brand: "hangout", players: ["apple"] });
    const token = config.appleMusic.developerToken;
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "KEY1234567" });
    const { payload } = await jwtVerify(token, appleKey.publicKey, { issuer: "TEAM123456", algorithms: ["ES256"] });
    expect(payload.exp! - payload.iat!).toBe(12 * 3600);
  });

  it("passes Connect calls through to the user service and lists its routes in /openapi.json", async () => {
    const hello = await connectCall(platform.url, "Hello");
    expect(hello).toMatchObject({ status: 200, body: { version: "1.8.0" } });
    const openapi = (await (await fetch(`${platform.url}/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(openapi.paths)).toContain("/api/user-service/auth/login");
  });

  it("issue 28: with two social replicas, the first killed outright fails no call through the gateway after 2 s; it comes back on its port and gets calls again", async () => {
    const signUp = await fetch(`${platform.url}/api/user-service/users/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "replicas@example.test", password: "correct-horse-1" }),
    });
    expect(signUp.status).toBe(200);
    const token = ((await signUp.json()) as { accessToken: { token: string } }).accessToken.token;
    // A REST call and a proxied Connect call of the social service; the statuses that are not 200.
    const peopleCalls = async () => {
      const rest = await fetch(`${platform.url}/api/social-service/conversations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await rest.body?.cancel();
      const connect = await fetch(`${platform.url}/tt.social.v1.ChatService/ListConversations`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: "{}",
      });
      await connect.body?.cancel();
      return [rest.status, connect.status].filter((status) => status !== 200);
    };
    const served = async (url: string) => {
      const text = await (await fetch(`${url}/metrics`)).text();
      const line = text.split("\n").find((l) => l.includes('method="ListConversations"') && l.includes('code="ok"'));
      return Number(line?.split(" ").at(-1) ?? 0);
    };
    expect(await peopleCalls()).toEqual([]);

    const first = platform.processes.find((p) => p.name === "social" && p.replica === 0)!;
    const { pid, url } = first;
    // Its whole process group, as a node losing the pod would.
    process.kill(-pid, "SIGKILL");
    const killedAt = performance.now();
    await eventually("a social call through the gateway answered", async () => (await peopleCalls()).length === 0, {
      timeoutMs: 2_000,
      intervalMs: 20,
    });
    expect(performance.now() - killedAt).toBeLessThan(2_000);
    // From then on none fails, while the first replica is still coming back.
    for (let i = 0; i < 10; i++) expect(await peopleCalls()).toEqual([]);

    // It comes back by itself, on the port every process was given, and serves.
    const back = await eventually(
      "the first social replica started again",
      () => platform.processes.find((p) => p.name === "social" && p.replica === 0 && p.pid !== pid),
      { timeoutMs: 60_000 },
    );
    expect(back.url).toBe(url);
    expect(environOf(back.pid).PORT).toBe(new URL(url).port);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const exit = logLines.find((l) => l.msg === "distributed mode: a process exited; starting it again");
    expect(exit).toMatchObject({ name: "social", replica: 0, pid, signal: "SIGKILL", attempt: 1, delayMs: 500 });
    expect(logLines.find((l) => l.msg === "distributed mode: a process is back")).toMatchObject({
      name: "social",
      replica: 0,
      pid: back.pid,
      url,
    });
    // The gateway takes it back: calls through the gateway reach it again.
    await eventually(
      "calls through the gateway reaching the restarted replica",
      async () => (await peopleCalls()).length === 0 && (await served(back.metricsUrl)) > 0,
      { timeoutMs: 10_000 },
    );
  });

  it("issue 28: the gateway killed outright comes back by itself on the same port", async () => {
    const gateway = platform.processes.find((p) => p.name === "gateway")!;
    const { pid } = gateway;
    process.kill(-pid, "SIGKILL");
    const back = await eventually(
      "the gateway started again",
      () => platform.processes.find((p) => p.name === "gateway" && p.pid !== pid),
      { timeoutMs: 60_000 },
    );
    expect(back.url).toBe(platform.url);
    expect((await fetch(`${platform.url}/readyz`)).status).toBe(200);
    expect(await connectCall(platform.url, "Hello")).toMatchObject({ status: 200, body: { version: "1.8.0" } });
  });

  // Last: stops a backend of the shared platform.
  it("is ready only while every service has a ready replica, and stops every child on close", async () => {
    expect((await fetch(`${platform.url}/readyz`)).status).toBe(200);
    // Issue 28: one replica down leaves its service ready behind the gateway.
    const [first, second] = users();
    process.kill(first!.pid, "SIGTERM");
    await eventually("the first user replica gone", () => !alive(first!.pid));
    expect((await fetch(`${platform.url}/readyz`)).status).toBe(200);
    // Both down: not ready, until one of them is back by itself.
    process.kill(second!.pid, "SIGTERM");
    await expect
      .poll(async () => (await fetch(`${platform.url}/readyz`)).status, { timeout: 5000, interval: 50 })
      .toBe(503);
    await platform.close();
    const pids = [...new Set([first!.pid, second!.pid, ...platform.processes.map((p) => p.pid)])];
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
  });
});

describe("distributed mode supervisor", () => {
  /** A backend process in miniature, as the kit's server does: the public port first, then the metrics port. */
  const miniature = (dir: string) => {
    const entry = path.join(dir, "child.ts");
    writeFileSync(
      entry,
      `import http from "node:http";
      import { getCompileCacheDir } from "node:module";
      const answers = { "/readyz": "ready", "/compile-cache": String(getCompileCacheDir()) };
      const server = http.createServer((req, res) => res.end(answers[req.url] ?? "public"));
      server.on("error", () => process.exit(1));
      server.listen(Number(process.env.PORT), "127.0.0.1", () => {
        const metrics = http.createServer((_req, res) => res.end("metrics"));
        metrics.on("error", () => process.exit(1));
        metrics.listen(Number(process.env.METRICS_PORT), "127.0.0.1");
      });`,
    );
    return entry;
  };

  it("issue 10: learns the real ports of a child that binds port 0 from its reports, and reaches it there", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tt-port-zero-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawnNodeProcess({
      name: "child",
      entry: miniature(dir),
      env: { PORT: "0", METRICS_PORT: "0" },
      cwd: root,
      forwardOutput: false,
    });
    onTestFinished(() => child.stop(1000));
    const ready = await waitUntilReady(child, 30_000, { metrics: true });
    expect(ready.port).toBeGreaterThan(0);
    expect(ready.url).toBe(`http://127.0.0.1:${ready.port}`);
    expect(await child.listenReport(0)).toEqual({ tt: "listening", port: ready.port });
    expect(await (await fetch(`${ready.url}/`)).text()).toBe("public");
    expect(ready.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.metricsUrl).not.toBe(ready.url);
    expect(await (await fetch(`${ready.metricsUrl}/metrics`)).text()).toBe("metrics");
  });

  it("gives its children Node's compile cache, unless their environment turns it off", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tt-compile-cache-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cacheOf = async (env: Record<string, string>) => {
      const child = spawnNodeProcess({ name: "child", entry: miniature(dir), env, cwd: root, forwardOutput: false });
      onTestFinished(() => child.stop(1000));
      const ready = await waitUntilReady(child, 30_000);
      return (await fetch(`${ready.url}/compile-cache`)).text();
    };
    // Node keeps each Node version's entries in a folder of its own inside the one it is given.
    expect(path.dirname(await cacheOf({ PORT: "0", METRICS_PORT: "0" }))).toBe(COMPILE_CACHE_DIR);
    expect(await cacheOf({ PORT: "0", METRICS_PORT: "0", NODE_DISABLE_COMPILE_CACHE: "1" })).toBe("undefined");
  });

  it("issue 10: fails the start naming a child whose server could not listen, whatever answers /readyz there", async () => {
    // Another process holds the port and answers /readyz with 200: the supervisor must not take it for the child.
    const impostor = http.createServer((_req, res) => res.writeHead(200).end("ready\n"));
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => impostor.close(() => resolve())));
    const port = (impostor.address() as AddressInfo).port;
    const dir = mkdtempSync(path.join(tmpdir(), "tt-port-taken-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const entry = miniature(dir);
    const spawnChild = (env: Record<string, string>) =>
      spawnNodeProcess({ name: "child", entry, env, cwd: root, forwardOutput: false });

    const taken = spawnChild({ PORT: String(port), METRICS_PORT: "0" });
    onTestFinished(() => taken.stop(1000));
    await expect(waitUntilReady(taken, 30_000, { metrics: true })).rejects.toThrow(
      `child: its public server could not listen: EADDRINUSE (port ${port})`,
    );
    const metricsTaken = spawnChild({ PORT: "0", METRICS_PORT: String(port) });
    onTestFinished(() => metricsTaken.stop(1000));
    await expect(waitUntilReady(metricsTaken, 30_000, { metrics: true })).rejects.toThrow(
      `child: its metrics server could not listen: EADDRINUSE (port ${port})`,
    );
  });

  it("leaves no orphan when it is killed outright (SIGKILL)", async () => {
    const db = await createTestDatabase(inject("databaseUrl"));
    const deployment = uniqueDeploymentName("orphans");
    try {
      // Issue 28: two social processes from the command line, which wins over REPLICAS.
      const args = ["services/platform/src/distributed.ts", "--replicas", "social=2"];
      const supervisor = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, ...args], {
        cwd: root,
        env: {
          ...process.env,
          REPLICAS: "room=2",
          DATABASE_URL: db.url,
          DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
          NATS_URL: inject("natsUrl"),
          DEPLOYMENT_NAME: deployment,
          PORT: "0",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = once(supervisor, "exit");
      // It prints the gateway URL, then one line per process ("  <name> <url>  pid <pid>"), then a blank line.
      const pids: number[] = [];
      const names: string[] = [];
      let url: string | undefined;
      for await (const line of createInterface({ input: supervisor.stdout! })) {
        url ??= /listening on (\S+)/.exec(line)?.[1];
        const pid = /pid (\d+)$/.exec(line)?.[1];
        if (pid) pids.push(Number(pid));
        if (pid) names.push(line.trim().split(/\s+/)[0]!);
        else if (url && pids.length > 0 && line.trim() === "") break;
      }
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(pids).toHaveLength(serviceNames.length + serviceWorkers.length + 1 + 1);
      expect(names.filter((name) => name.startsWith("social"))).toEqual(["social", "social#1"]);
      // REPLICAS lost to --replicas: one room process (and its notification worker, issue 29).
      expect(names.filter((name) => name === "room" || name.startsWith("room#"))).toEqual(["room"]);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      supervisor.kill("SIGKILL");
      await exited;
      // Each child notices its parent's death through its IPC channel and drains; poll, bounded.
      await expect.poll(() => pids.filter(alive), { timeout: 15_000, interval: 50 }).toEqual([]);
    } finally {
      await db.drop();
      await removeDeploymentFromNats(inject("natsUrl"), deployment);
    }
  }, 90_000);
});

describe("chart environments", () => {
  it("renders the chart's workloads with the remotes manifest written where REMOTES_CONFIG points", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tt-render-env-test-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const workloads = renderWorkloads({ databaseUrl: "postgres://u@db:5432/x", natsUrl: "nats://n:4222", dir });
    expect(workloads.map((w) => w.name).sort()).toEqual(
      [...serviceNames, ...serviceWorkers.map((w) => w.name), "gateway"].sort(),
    );
    // issue 12: a worker runs its service's program in its role; the service's own process only serves.
    for (const { name, service, role } of serviceWorkers) {
      const worker = workloads.find((w) => w.name === name)!;
      expect(worker.service).toBe(service);
      expect(worker.entry).toBe(path.join(root, `services/${service}/src/main.ts`));
      expect(worker.env).toMatchObject({ SERVICE: service, [`${service.toUpperCase()}_ROLE`]: role });
      expect(workloads.find((w) => w.name === service)!.env[`${service.toUpperCase()}_ROLE`]).toBe("api");
    }
    const gateway = workloads.find((w) => w.name === "gateway")!;
    expect(gateway.entry).toBe(path.join(root, "gateway/src/main.ts"));
    expect(gateway.env).toMatchObject({ SERVICE: "gateway", USER_SERVICE_URL: "http://tt-turntable-user:8080" });
    expect(path.dirname(gateway.env.REMOTES_CONFIG!)).toBe(dir);
    expect(JSON.parse(readFileSync(gateway.env.REMOTES_CONFIG!, "utf8"))).toContainEqual({
      name: "shop",
      entry: "/remotes/shop/mf-manifest.json",
    });
    expect(workloads.find((w) => w.name === "user")!.env).toMatchObject({
      DATABASE_URL: "postgres://u@db:5432/x",
      NATS_URL: "nats://n:4222",
    });
  });

  it("points each process at the others on loopback and refuses a workload without a port", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tt-render-env-test-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const workloads = renderWorkloads({ databaseUrl: "postgres://u@db:5432/x", natsUrl: "nats://n:4222", dir });
    const ports: Record<string, number> = { gateway: 41002, user: 41001 };
    [...serviceNames, ...serviceWorkers.map((w) => w.name)].forEach((name, i) => (ports[name] ??= 41010 + i));
    const local = localiseEnvs(workloads, ports);
    expect(local.find((w) => w.name === "user")!.env).toMatchObject({ PORT: "41001", HOST: "127.0.0.1" });
    expect(local.find((w) => w.name === "gateway")!.env).toMatchObject({
      PORT: "41002",
      USER_SERVICE_URL: "http://127.0.0.1:41001",
    });
    const { user: _user, ...withoutUser } = ports;
    expect(() => localiseEnvs(workloads, withoutUser)).toThrow(/no port given for "user"/);
  });

  it("issue 10: localises one process on port 0 with the URLs of the services started before it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tt-render-env-test-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const workloads = renderWorkloads({ databaseUrl: "postgres://u@db:5432/x", natsUrl: "nats://n:4222", dir });
    const user = localiseEnv(
      workloads.find((w) => w.name === "user")!,
      {},
    );
    expect(user.env).toMatchObject({ PORT: "0", HOST: "127.0.0.1" });
    expect(user.env.USER_SERVICE_URL).toBeUndefined();
    // Its own URL too: a service hosts itself.
    expect(
      localiseEnv(
        workloads.find((w) => w.name === "user")!,
        { user: 41001 },
      ).env.USER_SERVICE_URL,
    ).toBeUndefined();
    const gateway = localiseEnv(
      workloads.find((w) => w.name === "gateway")!,
      { user: 41001 },
    );
    expect(gateway.env).toMatchObject({ PORT: "0", USER_SERVICE_URL: "http://127.0.0.1:41001" });
  });
});
