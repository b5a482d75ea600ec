// Notification benchmark (issue 29 target 2): the calls that notify many answer as fast with 100,000 recipients as
// with none, because they only queue a job, and the room service's workers deliver it at the rate printed here.
//
//   1. Baselines, nobody to notify: the DJ's "notify my fans" (POST /notifications/dj-fans, what starting a song
//      asks of the room service) for a DJ without fans, the admin's send to all devices with no device, and the
//      admin's web push to every subscription (POST /web-notifications/push-notification without user ids) with
//      no subscription.
//   2. 100,000 fans of one DJ, each with a phone (FCM), one in ten with a browser too (web push); browsers of other
//      users up to 100,000 subscriptions in all (BENCH_SUBSCRIPTIONS).
//   3. Delivery rate: one notification to the 100,000 fans, then one to all devices, then one web push to every
//      subscription, timed from the call until the recording fakes of FCM and web push have every push; duplicates
//      and misses counted.
//   4. The same calls as in 1 for the DJ with 100,000 fans, with 100,000 devices and with 100,000 subscriptions,
//      while the worker delivers (every call queues another 100,000): p50/p99 and their ratio to the baseline
//      (target ≤ 1.2).
// The user and room services run in one host on a fresh PostgreSQL database and a NATS deployment of their own
// (the work queue is a JetStream stream), behind the real gateway and HTTP server, called over REST; the worker
// (BENCH_WORKER) and the recording fakes each in a process of their own.
// BENCH_CORES=apart (the default on two cores or more) stands in for the chart's topology on one machine: the worker
// runs in pods of its own (room-notify) and FCM and the push services are elsewhere, so the process answering the
// calls is pinned to the first core and the worker and the fakes to the others, at the lowest priority (nice 19):
// PostgreSQL and NATS, which every process shares, are not left to queue behind a delivery at full speed. Pushes go
// out more slowly so. BENCH_CORES=apart-db also moves the worker's PostgreSQL sessions to the other cores, in the
// idle class: what a database with cores to spare for them gives, where the calls meet the worker's queries only
// inside PostgreSQL (on two cores, the sessions serving a delivery otherwise take turns on the calls' core).
// BENCH_CORES=shared pins nothing.
//
//   npm run bench:notify   (NATS_URL, BENCH_DATABASE_URL, BENCH_FANS, BENCH_SUBSCRIPTIONS, BENCH_CALLS, BENCH_CORES)
import { createECDH, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism, setPriority } from "node:os";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import type { MikroORM } from "@mikro-orm/postgresql";
import { serveHostThroughGateway } from "@tt/gateway";
import { createLogger, createNatsBus, initServiceOrm, startServiceHost } from "@tt/kit";
import { closedLoop, loadAverage, percentiles, restCall } from "@tt/kit/bench";
import { createTestDatabase, removeDeploymentFromNats, uniqueDeploymentName } from "@tt/kit/testing";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../src/index.ts";
import { NOTIFY_STREAM } from "../src/modules/notifications/jobs.ts";
import { RoomSlug } from "../src/modules/rooms/room-slug.entity.ts";
import { insertFans, insertSubscriptions } from "../src/testing/notification-seeds.ts";
import { Room } from "../src/modules/rooms/room.entity.ts";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const FANS = Number(process.env.BENCH_FANS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const WEB_EVERY = 10;
/** Browser subscriptions in all: the fans' (one in WEB_EVERY), then other users' up to this many. */
const SUBSCRIPTIONS = Math.max(Number(process.env.BENCH_SUBSCRIPTIONS ?? FANS), Math.ceil(FANS / WEB_EVERY));
/** process (default): the worker runs in a process of its own; in-process: in the process answering the calls. */
const WORKER_APART = (process.env.BENCH_WORKER ?? "process") === "process";
const CORES = process.env.BENCH_CORES ?? (availableParallelism() >= 2 ? "apart" : "shared");
const CORES_APART = CORES === "apart" || CORES === "apart-db";
const DB_APART = CORES === "apart-db";
/** Pins a process, every thread of it, to these cores (`taskset`, util-linux). */
const pin = (pid: number, cores: string) =>
  execFileSync("taskset", ["-a", "-cp", cores, String(pid)], { stdio: "ignore" });
/**
 * Pins the worker or the fakes to the cores the calls' process does not use, at the lowest priority: every thread
 * (Linux keeps a nice value per thread; threads started later inherit it).
 */
const setApart = (pid: number) => {
  pin(pid, OTHER_CORES);
  for (const thread of readdirSync(`/proc/${pid}/task`)) setPriority(Number(thread), 19);
};
/**
 * BENCH_CORES=apart-db: the worker's PostgreSQL sessions (the backends of its connections, found by their client
 * ports) go to the other cores in the idle class (SCHED_IDLE), looked for once a second as its pool opens more. The
 * returned function stops looking.
 */
function sessionsApart(workerPid: number, databaseUrl: string, orm: MikroORM): () => void {
  const port = new URL(databaseUrl).port || "5432";
  const moved = new Set<number>();
  const look = async () => {
    const sockets = execFileSync("ss", ["-tnpH", "state", "established", `( dport = :${port} )`]).toString();
    const ports = sockets
      .split("\n")
      .filter((line) => line.includes(`pid=${workerPid},`))
      .map((line) => Number(line.trim().split(/\s+/)[2]!.split(":").pop()));
    if (ports.length === 0) return;
    const rows: { pid: number }[] = await orm.em
      .getConnection()
      .execute(`select pid from pg_stat_activity where client_port in (${ports.join(",")})`);
    for (const { pid } of rows) {
      if (moved.has(pid)) continue;
      moved.add(pid);
      pin(pid, OTHER_CORES);
      execFileSync("chrt", ["--idle", "--pid", "0", String(pid)], { stdio: "ignore" });
    }
  };
  const timer = setInterval(() => void look().catch((err: unknown) => console.error("sessions apart:", err)), 1000);
  return () => clearInterval(timer);
}
const SERVING_CORES = "0";
const OTHER_CORES = `1-${availableParallelism() - 1}`;
/** A call's latency over CALLS calls (ms), and what its process did meanwhile. */
interface Latency {
  p50: number;
  p99: number;
  max: number;
  /** The longest event-loop delay in the calls' process during the calls (its own work, or time off the CPU). */
  loopMax: number;
  /** Its longest garbage collection during the calls. */
  gcMax: number;
}
const ADMIN = { email: "bench-admin@bench.test", password: "bench-admin-password-1" };

/** The room service's environment here: FCM and web push at the fakes, no interval between two notifications. */
const serviceEnv = (fakeUrl: string, serviceAccountJson: string, role: "all" | "api" | "notify") => ({
  LOG_LEVEL: "warn",
  MOBILE_PUSH_PROVIDER: "fcm",
  FCM_SERVICE_ACCOUNT_JSON: serviceAccountJson,
  FCM_API_BASE_URL: fakeUrl,
  FCM_TOKEN_URL: `${fakeUrl}/token`,
  WEB_PUSH_ALLOW_HTTP: "true",
  // Every call claims the DJ's slot and queues a job (no interval between two).
  DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: "0",
  ROOM_ROLE: role,
});

// ---------------------------------------------------------------- the worker process (BENCH_WORKER=process)
// A replica of the room service that only delivers (the one answering the calls has ROOM_ROLE=api), as the chart
// runs the worker Deployment room-notify apart from the replicas that answer.
if (process.argv[2] === "worker") {
  const env = JSON.parse(process.env.BENCH_WORKER_ENV!) as Record<string, string>;
  const logger = createLogger({ service: "bench-worker", level: "warn" });
  const bus = await createNatsBus({ url: NATS_URL, name: "bench-notify-worker", logger, deployment: env.DEPLOYMENT! });
  const host = await startServiceHost({
    definitions: [userServiceDefinition, roomServiceDefinition],
    databaseUrl: env.DATABASE_URL!,
    bus,
    logger,
    env: serviceEnv(env.FAKE_URL!, env.SERVICE_ACCOUNT!, "notify"),
  });
  process.send!("ready");
  process.on("message", () => {
    void (async () => {
      await host.close();
      await bus.close();
      process.exit(0);
    })();
  });
} else if (process.argv[2] === "fakes") {
  await serveFakes();
} else {
  await main();
}

// ---------------------------------------------------------------- the recording fakes of FCM and web push
// In a process of their own, as FCM's and the browsers' push services are elsewhere: in the process answering the
// calls they took its event loop for every push the worker sent (about 1,000 a second). The parent asks what they
// recorded over IPC.

/** What the fakes recorded: distinct recipients, recipients pushed to more than once, pushes in all. */
interface Recorded {
  fcm: number;
  web: number;
  fcmTwice: number;
  webTwice: number;
  total: number;
}
type FakesRequest = { id: number; ask: "recorded" | "clear-fcm" | "clear-web" };

async function serveFakes(): Promise<void> {
  const fcmSends = new Map<string, number>();
  const webSends = new Map<string, number>();
  let total = 0;
  const fake = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path === "/token") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ access_token: "at", expires_in: 3600 }));
      }
      if (path.endsWith("/messages:send")) {
        const token = (JSON.parse(Buffer.concat(chunks).toString()) as { message: { token: string } }).message.token;
        fcmSends.set(token, (fcmSends.get(token) ?? 0) + 1);
        total++;
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"name":"projects/p/messages/1"}');
      }
      if (path.startsWith("/push/")) {
        webSends.set(path, (webSends.get(path) ?? 0) + 1);
        total++;
        res.writeHead(201);
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const twice = (sends: Map<string, number>) => [...sends.values()].filter((n) => n > 1).length;
  process.on("message", ({ id, ask }: FakesRequest) => {
    if (ask === "clear-fcm") fcmSends.clear();
    if (ask === "clear-web") webSends.clear();
    const recorded: Recorded = {
      fcm: fcmSends.size,
      web: webSends.size,
      fcmTwice: ask === "recorded" ? twice(fcmSends) : 0,
      webTwice: ask === "recorded" ? twice(webSends) : 0,
      total,
    };
    process.send!({ id, recorded });
  });
  process.send!({ url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` });
}

/** The fakes' process: its URL, and what they recorded (after clearing one side's record, when asked). */
async function startFakes() {
  const child = fork(import.meta.filename, ["fakes"]);
  if (CORES_APART) setApart(child.pid!);
  const url = await new Promise<string>((resolve) => child.once("message", (m: { url: string }) => resolve(m.url)));
  let next = 0;
  const ask = (what: FakesRequest["ask"]) =>
    new Promise<Recorded>((resolve) => {
      const id = next++;
      const onMessage = (m: { id: number; recorded: Recorded }) => {
        if (m.id !== id) return;
        child.off("message", onMessage);
        resolve(m.recorded);
      };
      child.on("message", onMessage);
      child.send({ id, ask: what } satisfies FakesRequest);
    });
  return {
    url,
    recorded: () => ask("recorded"),
    clear: (side: "fcm" | "web") => ask(side === "fcm" ? "clear-fcm" : "clear-web"),
    close: () => new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.kill())),
  };
}

async function main(): Promise<void> {
  const fakes = await startFakes();
  const fakeUrl = fakes.url;
  const serviceAccount = {
    project_id: "p",
    client_email: "push@p.test",
    private_key: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  };

  // ---------------------------------------------------------------- the platform under test
  const logger = createLogger({ service: "bench", level: "warn" });
  const database = await createTestDatabase(DATABASE_URL);
  const deployment = uniqueDeploymentName("bench-notify");
  const bus = await createNatsBus({ url: NATS_URL, name: "bench-notify", logger, deployment });
  const host = await startServiceHost({
    definitions: [userServiceDefinition, roomServiceDefinition],
    databaseUrl: database.url,
    bus,
    logger,
    env: {
      ...serviceEnv(fakeUrl, JSON.stringify(serviceAccount), WORKER_APART ? "api" : "all"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });
  if (CORES_APART) pin(process.pid, SERVING_CORES);
  const worker: ChildProcess | undefined = WORKER_APART
    ? fork(import.meta.filename, ["worker"], {
        env: {
          ...process.env,
          BENCH_WORKER_ENV: JSON.stringify({
            DEPLOYMENT: deployment,
            DATABASE_URL: database.url,
            FAKE_URL: fakeUrl,
            SERVICE_ACCOUNT: JSON.stringify(serviceAccount),
          }),
        },
      })
    : undefined;
  if (worker && CORES_APART) setApart(worker.pid!);
  if (worker) await new Promise((resolve) => worker.once("message", resolve));
  const server = await serveHostThroughGateway(host, logger);
  const orm = await initServiceOrm(database.url, roomServiceDefinition);
  const stopSessionsApart = worker && DB_APART ? sessionsApart(worker.pid!, database.url, orm) : undefined;
  const call = restCall(`${server.url}/api`);

  const ms = (x: number) => x.toFixed(1).padStart(8);
  const until = async (what: string, done: () => boolean, timeoutMs = 900_000, probe?: () => Promise<void>) => {
    const start = performance.now();
    // A benchmark's wait for the fakes' counters (no test): a poll every 50 ms.
    while (!done()) {
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
      await probe?.();
    }
  };

  /** Until what the fakes recorded satisfies `done`; what they recorded then. */
  async function untilRecorded(what: string, done: (r: Recorded) => boolean): Promise<Recorded> {
    let last = await fakes.recorded();
    await until(
      what,
      () => done(last),
      900_000,
      async () => void (last = await fakes.recorded()),
    );
    return last;
  }

  /** Until the outbox has relayed every job and the work queue holds none. */
  async function drained(): Promise<void> {
    const left = async () => {
      const [row] = (await orm.em
        .getConnection()
        .execute(`select count(*)::int as n from "room"."outbox_message" where "published_at" is null`)) as {
        n: number;
      }[];
      return (row?.n ?? 0) + (await bus.streamInfo(NOTIFY_STREAM)).messages;
    };
    let last = await left();
    await until(
      "the work queue to drain",
      () => last === 0,
      600_000,
      async () => void (last = await left()),
    );
  }

  /**
   * CALLS calls of `one`, one after another (a DJ starts one song at a time), after 20 to warm up; beside their
   * percentiles, how late the calls' process's event loop ran at worst meanwhile (its own work, or time off the CPU)
   * and its longest garbage collection, to tell a slow call stalled in the process from one that waited elsewhere.
   */
  async function latency(one: () => Promise<unknown>): Promise<Latency> {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    let gcMax = 0;
    const gcs = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
    });
    gcs.observe({ entryTypes: ["gc"] });
    loop.enable();
    try {
      const r = await closedLoop({ requests: CALLS, concurrency: 1, warmup: 20 }, one);
      const [p50, p99, max] = percentiles(r.samples, 0.5, 0.99, 1);
      for (const entry of gcs.takeRecords()) gcMax = Math.max(gcMax, entry.duration);
      return { p50: p50!, p99: p99!, max: max!, loopMax: loop.max / 1e6, gcMax };
    } finally {
      loop.disable();
      gcs.disconnect();
    }
  }

  async function signUp(): Promise<{ id: string; token: string }> {
    const res = await call("POST", "/user-service/users/sign-up", undefined, {
      email: `${randomUUID()}@bench.test`,
      password: "bench-password-1",
    });
    return { id: res.user.uuid as string, token: res.accessToken.token as string };
  }

  /** A public room of `ownerId` (straight into the table, as the rooms benchmark seeds them). */
  async function seedRoom(ownerId: string): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await orm.em.fork().insertMany(Room, [
      {
        id,
        slug: `bench-${id.slice(0, 8)}`,
        name: `Bench ${id.slice(0, 8)}`,
        description: "",
        ownerId,
        type: "PUBLIC",
        design: "CLUB",
        djType: "EVERYONE",
        numberOfDjs: 5,
        isLive: false,
        playedSeconds: 0,
        liveAudio: false,
        pinnedMessages: [],
        promoted: false,
        promotedAt: null,
        musicProviders: ["youtube"],
        createdAt: now,
        updatedAt: now,
      },
    ]);
    await orm.em.fork().insertMany(RoomSlug, [{ slug: `bench-${id.slice(0, 8)}`, roomId: id, createdAt: now }]);
    return id;
  }

  try {
    const loginRes = await call("POST", "/user-service/auth/login", undefined, ADMIN);
    const admin = loginRes.accessToken.token as string;
    const quietDj = await signUp();
    const bigDj = await signUp();
    const quietRoom = await seedRoom(quietDj.id);
    const bigRoom = await seedRoom(bigDj.id);

    // 1. Baselines: nobody to notify.
    const fans0 = await latency(() =>
      call("POST", "/room-service/notifications/dj-fans", quietDj.token, { roomId: quietRoom }),
    );
    const devices0 = await latency(() =>
      call("POST", "/room-service/mobileNotification/all-devices", admin, { title: "Bench", body: "to all" }),
    );
    const webPushToAll = () =>
      call("POST", "/room-service/web-notifications/push-notification", admin, { title: "Bench", body: "to all" });
    const browsers0 = await latency(webPushToAll);

    // The baselines' jobs are all delivered (to nobody) before anybody is seeded.
    await drained();

    // 2. FANS fans of the big DJ, each with a phone; one in WEB_EVERY with a browser subscription.
    const t0 = performance.now();
    const browser = createECDH("prime256v1").generateKeys().toString("base64url");
    const auth = randomBytes(16).toString("base64url");
    const keys = { p256dh: browser, auth };
    const fans = Array.from({ length: FANS }, (_, i) => ({ id: randomUUID(), token: `fan-${i}` }));
    await insertFans(orm.em.fork(), bigDj.id, fans);
    const fanBrowsers = fans.filter((_, i) => i % WEB_EVERY === 0);
    await insertSubscriptions(
      orm.em.fork(),
      fanBrowsers.map((f) => ({ userId: f.id, endpoint: `${fakeUrl}/push/${f.token}` })),
      keys,
    );
    // Other users' browsers, up to SUBSCRIPTIONS subscriptions in all.
    const webWanted = fanBrowsers.length;
    const others = Array.from({ length: Math.max(0, SUBSCRIPTIONS - webWanted) }, (_, k) => ({
      userId: randomUUID(),
      endpoint: `${fakeUrl}/push/browser-${k}`,
    }));
    await insertSubscriptions(orm.em.fork(), others, keys);
    for (const table of ["dj_fan", "device", "web_push_subscription"]) {
      await orm.em.getConnection().execute(`vacuum analyze "room"."${table}"`);
    }
    console.log(
      `seeded ${FANS} fans (${webWanted} with a browser) and ${SUBSCRIPTIONS} browser subscriptions in all ` +
        `in ${Math.round(performance.now() - t0)} ms`,
    );
    if ((await fakes.recorded()).total > 0) throw new Error("the baselines' jobs pushed to somebody");

    // 3. Delivery: one notification to the fans, then one to every device.
    await fakes.clear("fcm");
    await fakes.clear("web");
    let start = performance.now();
    await call("POST", "/room-service/notifications/dj-fans", bigDj.token, { roomId: bigRoom });
    const fansAnswerMs = performance.now() - start;
    await untilRecorded("the fans' pushes", (r) => r.fcm >= FANS && r.web >= webWanted);
    const fansMs = performance.now() - start;
    await new Promise((r) => setTimeout(r, 1000)); // a late duplicate would show in the next second
    const toFans = await fakes.recorded();
    const fansDuplicates = toFans.fcmTwice + toFans.webTwice;
    const fansPushes = toFans.fcm + toFans.web;

    await fakes.clear("fcm");
    start = performance.now();
    await call("POST", "/room-service/mobileNotification/all-devices", admin, { title: "Bench", body: "to all" });
    const allAnswerMs = performance.now() - start;
    await untilRecorded("every device's push", (r) => r.fcm >= FANS);
    const allMs = performance.now() - start;
    await new Promise((r) => setTimeout(r, 1000));
    const devices = await fakes.recorded();
    const allDuplicates = devices.fcmTwice;

    await fakes.clear("web");
    start = performance.now();
    await webPushToAll();
    const browsersAnswerMs = performance.now() - start;
    await untilRecorded("every subscription's web push", (r) => r.web >= SUBSCRIPTIONS);
    const browsersMs = performance.now() - start;
    await new Promise((r) => setTimeout(r, 1000));
    const browsers = await fakes.recorded();
    const browsersDuplicates = browsers.webTwice;
    const browsersPushed = browsers.web;

    // 4. The same calls with FANS recipients each, while the worker delivers.
    const load = loadAverage();
    const fansN = await latency(() =>
      call("POST", "/room-service/notifications/dj-fans", bigDj.token, { roomId: bigRoom }),
    );
    const devicesN = await latency(() =>
      call("POST", "/room-service/mobileNotification/all-devices", admin, { title: "Bench", body: "to all" }),
    );
    const browsersN = await latency(webPushToAll);
    const pushedDuringCalls = (await fakes.recorded()).total;

    console.log(`\nworker: ${WORKER_APART ? "a process of its own" : "in the process answering the calls"}`);
    console.log(
      CORES_APART
        ? `cores: the calls' process on ${SERVING_CORES}, the worker and the fakes on ${OTHER_CORES} at nice 19${DB_APART ? ", the worker's PostgreSQL sessions there too in the idle class" : ""} (BENCH_CORES=${CORES})`
        : "cores: shared by every process (BENCH_CORES=shared)",
    );
    console.log(`load average at the start of the loaded calls: ${load}; now: ${loadAverage()}`);
    console.log(`\ncalls (REST through the gateway, ${CALLS} one after another; ms)`);
    console.log(
      `${"call".padEnd(64)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"p99 ratio".padStart(10)} ` +
        `${"slowest".padStart(8)} ${"loop late".padStart(10)} ${"GC".padStart(6)}`,
    );
    for (const [name, r, base] of [
      ["POST /notifications/dj-fans, DJ without fans", fans0, fans0],
      [`POST /notifications/dj-fans, DJ with ${FANS} fans`, fansN, fans0],
      ["POST /mobileNotification/all-devices, no device", devices0, devices0],
      [`POST /mobileNotification/all-devices, ${FANS} devices`, devicesN, devices0],
      ["POST /web-notifications/push-notification (all), no subscription", browsers0, browsers0],
      [`POST /web-notifications/push-notification (all), ${SUBSCRIPTIONS} subs`, browsersN, browsers0],
    ] as const) {
      console.log(
        `${name.padEnd(64)} ${ms(r.p50)} ${ms(r.p99)} ${(r.p99 / base.p99).toFixed(2).padStart(10)} ` +
          `${ms(r.max)} ${ms(r.loopMax).padStart(10)} ${r.gcMax.toFixed(1).padStart(6)}`,
      );
    }
    console.log(`(the worker delivered ${pushedDuringCalls} pushes in all by the end of these calls)`);
    console.log(
      "(loop late: the calls' process's longest event-loop delay during the calls; GC: its longest collection)",
    );
    console.log(`\ndelivery through the work queue to the recording fakes`);
    console.log(
      `  DJ fans: ${fansPushes} pushes (${FANS} FCM + ${webWanted} web push) in ${(fansMs / 1000).toFixed(1)} s = ` +
        `${Math.round(fansPushes / (fansMs / 1000))} pushes/s; answered in ${fansAnswerMs.toFixed(1)} ms; ` +
        `duplicates ${fansDuplicates}, missing ${FANS + webWanted - fansPushes}`,
    );
    console.log(
      `  all devices: ${devices.fcm} FCM pushes in ${(allMs / 1000).toFixed(1)} s = ` +
        `${Math.round(devices.fcm / (allMs / 1000))} pushes/s; answered in ${allAnswerMs.toFixed(1)} ms; ` +
        `duplicates ${allDuplicates}, missing ${Math.max(0, FANS - devices.fcm)}`,
    );
    console.log(
      `  every subscription: ${browsersPushed} web pushes in ${(browsersMs / 1000).toFixed(1)} s = ` +
        `${Math.round(browsersPushed / (browsersMs / 1000))} pushes/s; answered in ${browsersAnswerMs.toFixed(1)} ms; ` +
        `duplicates ${browsersDuplicates}, missing ${Math.max(0, SUBSCRIPTIONS - browsersPushed)}`,
    );
    const ratios = [fansN.p99 / fans0.p99, devicesN.p99 / devices0.p99, browsersN.p99 / browsers0.p99];
    console.log(`\np99 ratios ${ratios.map((r) => r.toFixed(2)).join(", ")} (target ≤ 1.2)`);
  } finally {
    stopSessionsApart?.();
    if (worker) {
      worker.send("stop");
      await new Promise((resolve) => worker.once("exit", resolve));
    }
    await server.close();
    await host.close();
    await orm.close(true);
    await bus.close();
    await removeDeploymentFromNats(NATS_URL, deployment).catch(() => undefined);
    await database.drop();
    await fakes.close();
  }
}
