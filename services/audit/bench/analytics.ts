// Analytics intake benchmark: POST /api/audit-service/kinesis through the real gateway and HTTP server, 32
// callers at once — events accepted per second and the p99 of the answer — against the baseline of writing the
// same events straight to PostgreSQL (one INSERT per event, 32 at once) in the same run; then how long the
// batch writer takes to have every accepted event in PostgreSQL. The audit service runs on a fresh database and
// the real NATS JetStream (the stream is the point), as the all-in-one serves it.
//
//   npm run bench:audit   (BENCH_DATABASE_URL, BENCH_NATS_URL, BENCH_REQUESTS, BENCH_CONCURRENCY to change them)
import { randomUUID } from "node:crypto";
import { serveHostThroughGateway } from "@tt/gateway";
import { createLogger, createNatsBus, startServiceHost } from "@tt/kit";
import { closedLoop } from "@tt/kit/bench";
import { createTestDatabase } from "@tt/kit/testing";
import { userServiceDefinition } from "@tt/user-service";
import { auditServiceDefinition } from "../src/index.ts";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const logger = createLogger({ service: "bench", level: "warn" });
const db = await createTestDatabase(DATABASE_URL);
const bus = await createNatsBus({ url: NATS_URL, name: "bench-audit", logger, deployment: "bench" });
const host = await startServiceHost({
  definitions: [userServiceDefinition, auditServiceDefinition], // the user service holds the token keys
  databaseUrl: db.url,
  bus,
  logger,
  // One stream and writer for every run on this machine (the writer resumes after what earlier runs wrote).
  env: { LOG_LEVEL: "warn", AUDIT_ANALYTICS_SUBJECT: "bench-audit-analytics" },
});
const server = await serveHostThroughGateway(host, logger);

const body = JSON.stringify({
  topic: "page-view",
  record: { path: "/rooms/some-room", referrer: "https://example.com/" },
  deviceData: { platform: "web", isDiscord: false, isLoggedIn: false },
});

async function accept(): Promise<void> {
  const res = await fetch(`${server.url}/api/audit-service/kinesis`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  if (res.status !== 200) throw new Error(`POST /kinesis answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/** REQUESTS calls of `one` by CONCURRENCY callers at once, after 200 to warm up: calls/s and p99 latency (ms). */
const load = (one: () => Promise<unknown>) =>
  closedLoop({ requests: REQUESTS, concurrency: CONCURRENCY, warmup: 200 }, () => one());

// The service's own ORM (its schema and connection pool) for the baseline and the row count.
const deps = host.deps.get("audit");
if (!deps) throw new Error("the audit service did not start");
const direct = deps.orm;
const table = `"${direct.config.get("schema") ?? "audit"}"."analytics_event"`;
const insertOne = () =>
  direct.em
    .fork()
    .getConnection()
    .execute(
      `insert into ${table} ("id", "topic", "record", "platform", "is_discord", "is_logged_in", "user_uuid", "created_at") values (?, ?, ?::jsonb, ?, ?, ?, ?, ?)`,
      [randomUUID(), "page-view", JSON.stringify({ path: "/rooms/some-room" }), "web", false, false, null, new Date()],
      "run",
    );
const count = async () =>
  Number(
    (await direct.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from ${table}`))[0]?.n ?? 0,
  );

/** The gateway's floor: an anonymous call that touches neither the bus nor the database. */
async function floor(): Promise<void> {
  const res = await fetch(`${server.url}/api/audit-service/geolocate`);
  if (res.status !== 200) throw new Error(`GET /geolocate answered ${res.status}`);
  await res.arrayBuffer();
}

const gatewayFloor = await load(floor);
const viaGateway = await load(accept);
const accepted = REQUESTS + 200;
const t0 = performance.now();
while ((await count()) < accepted) await new Promise((resolve) => setTimeout(resolve, 20));
const drainMs = performance.now() - t0;
const before = await count();
const directWrite = await load(insertOne);
const written = (await count()) - before;

const f = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`analytics intake, ${REQUESTS} events, ${CONCURRENCY} in flight`);
console.log(
  `  POST /kinesis via the gateway (JetStream)   ${f(viaGateway.rps).padStart(8)} events/s   p99 ${viaGateway.p99.toFixed(1)} ms`,
);
console.log(
  `  direct INSERT per event (baseline)          ${f(directWrite.rps).padStart(8)} events/s   p99 ${directWrite.p99.toFixed(1)} ms`,
);
console.log(
  `  GET /geolocate (gateway floor, no I/O)      ${f(gatewayFloor.rps).padStart(8)} calls/s    p99 ${gatewayFloor.p99.toFixed(1)} ms`,
);
console.log(`  ratio gateway / direct: ${(viaGateway.rps / directWrite.rps).toFixed(2)}`);
console.log(`  ratio gateway / gateway floor: ${(viaGateway.rps / gatewayFloor.rps).toFixed(2)}`);
console.log(`  batch writer: every accepted event in PostgreSQL ${drainMs.toFixed(0)} ms after the last answer`);
if (written < REQUESTS) throw new Error(`direct baseline wrote ${written} of ${REQUESTS}`);

await server.close();
await host.close();
await bus.close();
await db.drop();
