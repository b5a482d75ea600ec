// Room benchmark through the gateway (REST, as clients call it): the public room list (GET /rooms/public, pages
// of 20 at random offsets) and the join call (POST /rooms/{id}/join, random rooms, one account per caller) with
// 10,000 rooms, 32 callers at once; requests/s and p99 of each, and their ratio to the hello check measured the
// same way in the same run (the baseline: the gateway, the host and one request without the database). Then the
// query plans of the list queries (EXPLAIN), which must use an index, never a sequential scan.
// The user and room services run in one host on a fresh PostgreSQL database (the in-process bus), behind the real
// gateway and HTTP server, as the all-in-one serves them.
//
//   npm run bench:rooms        (BENCH_DATABASE_URL, BENCH_ROOMS, BENCH_REQUESTS, BENCH_CONCURRENCY to change them)
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createGateway } from "@tt/gateway";
import { createLogger, createMemoryBus, createServer, initServiceOrm, startServiceHost } from "@tt/kit";
import { closedLoop, restCall } from "@tt/kit/bench";
import { createTestDatabase } from "@tt/kit/testing";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../src/index.ts";
import { Room } from "../src/modules/rooms/room.entity.ts";
import { RoomSlug } from "../src/modules/rooms/room-slug.entity.ts";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROOMS = Number(process.env.BENCH_ROOMS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PAGE = 20;

const logger = createLogger({ service: "bench", level: "warn" });
const db = await createTestDatabase(DATABASE_URL);
const host = await startServiceHost({
  definitions: [userServiceDefinition, roomServiceDefinition],
  databaseUrl: db.url,
  bus: createMemoryBus(),
  logger,
  env: { LOG_LEVEL: "warn" },
});
const gateway = createGateway({
  backends: [{ services: host.services, transport: host.transport, connect: { handler: host.handler } }],
  logger,
});
const server = await createServer({
  handler: gateway.handler,
  port: 0,
  host: "127.0.0.1",
  ready: host.ready,
  logger,
});
const orm = await initServiceOrm(db.url, roomServiceDefinition);

const call = restCall(`${server.url}/api`);

/** REQUESTS calls of `one` by CONCURRENCY callers at once, after 100 to warm up: requests/s and p99 latency (ms). */
const load = (one: (caller: number, i: number) => Promise<unknown>) =>
  closedLoop({ requests: REQUESTS, concurrency: CONCURRENCY, warmup: 100 }, one);

const rand = (n: number) => Math.floor(Math.random() * n);

try {
  // Callers: one account each (joins record their visits).
  const callers: { token: string }[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const res = await call("POST", "/user-service/users/sign-up", undefined, {
      email: `${randomUUID()}@bench.test`,
      password: "bench-password-1",
    });
    callers.push({ token: res.accessToken.token as string });
  }
  const ownerId = randomUUID();

  // 10,000 rooms straight into the table (1 in 10 private, 1 in 20 live, 1 in 50 promoted), in batches.
  const t0 = performance.now();
  const roomIds: string[] = [];
  const designs = ["CLUB", "BARN", "FESTIVAL", "YACHT"];
  for (let start = 0; start < ROOMS; start += 1000) {
    const em = orm.em.fork();
    const rows = [];
    const slugs = [];
    for (let i = start; i < Math.min(ROOMS, start + 1000); i++) {
      const id = randomUUID();
      roomIds.push(id);
      const created = new Date(Date.now() - (ROOMS - i) * 60_000);
      rows.push({
        id,
        slug: `bench-room-${i}`,
        name: `Bench room ${i}`,
        description: "",
        ownerId,
        type: i % 10 === 0 ? "PRIVATE" : "PUBLIC",
        design: designs[i % designs.length]!,
        djType: "EVERYONE",
        numberOfDjs: 5,
        isLive: i % 20 === 0,
        playedSeconds: 0,
        liveAudio: false,
        pinnedMessages: [],
        promoted: i % 50 === 5,
        promotedAt: i % 50 === 5 ? created : null,
        musicProviders: ["youtube"],
        createdAt: created,
        updatedAt: created,
      });
      slugs.push({ slug: `bench-room-${i}`, roomId: id, createdAt: created });
    }
    await em.insertMany(Room, rows);
    await em.insertMany(RoomSlug, slugs);
  }
  await orm.em.getConnection().execute(`vacuum analyze "room"."room"`);
  console.log(`seeded ${ROOMS} rooms in ${Math.round(performance.now() - t0)} ms`);
  const publicIds = roomIds.filter((_, i) => i % 10 !== 0);

  const hello = await load(() => call("GET", "/room-service"));
  const profiling = process.env.BENCH_CPU_PROFILE ? new Session() : undefined;
  if (profiling) {
    profiling.connect();
    await profiling.post("Profiler.enable");
    await profiling.post("Profiler.start");
  }
  const list = await load((c) =>
    call(
      "GET",
      `/room-service/rooms/public?limit=${PAGE}&offset=${rand(Math.floor(ROOMS * 0.9) - PAGE)}`,
      callers[c]!.token,
    ),
  );
  if (profiling) {
    const { profile } = await profiling.post("Profiler.stop");
    writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify(profile));
    profiling.disconnect();
  }
  const get = await load((c) =>
    call("GET", `/room-service/rooms/${publicIds[rand(publicIds.length)]}`, callers[c]!.token),
  );
  const join = await load((c) =>
    call("POST", `/room-service/rooms/${publicIds[rand(publicIds.length)]}/join`, callers[c]!.token, {}),
  );

  console.log(`\n${REQUESTS} requests per call, ${CONCURRENCY} callers at once, ${ROOMS} rooms`);
  console.log(`${"call".padEnd(40)} ${"req/s".padStart(8)} ${"p99 ms".padStart(8)} ${"ratio".padStart(7)}`);
  for (const [name, r] of [
    ["GET /api/room-service (baseline)", hello],
    ["GET /rooms/public?limit=20&offset=…", list],
    ["GET /rooms/{id} (one room, for scale)", get],
    ["POST /rooms/{id}/join", join],
  ] as const) {
    console.log(
      `${name.padEnd(40)} ${Math.round(r.rps).toString().padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${(r.rps / hello.rps).toFixed(2).padStart(7)}`,
    );
  }

  // The plans of the list queries, as the handlers issue them (MikroORM's SQL for these filters and orders).
  const owner = (await orm.em.fork().findOneOrFail(Room, { id: roomIds[0]! })).ownerId;
  const plans: [string, string][] = [
    [
      "public list page's ids (GET /rooms/public)",
      `select "id", "is_live", "created_at" from "room"."room" where "type" = 'PUBLIC' order by "is_live" desc, "created_at" desc, "id" desc limit 20 offset 4000`,
    ],
    [
      "public list page's rooms (GET /rooms/public)",
      `select * from "room"."room" where "id" in (${roomIds
        .slice(0, 20)
        .map((id) => `'${id}'`)
        .join(", ")})`,
    ],
    ["public list total (GET /rooms/public)", `select count(*) from "room"."room" where "type" = 'PUBLIC'`],
    [
      "promoted rooms (GET /rooms/promoted-rooms)",
      `select * from "room"."room" where "promoted" = true and "type" = 'PUBLIC' order by "promoted_at" desc, "id" desc limit 20`,
    ],
    [
      "owned rooms (GET /rooms/owned-rooms/list)",
      `select * from "room"."room" where "owner_id" = '${owner}' order by "created_at" desc, "id" desc limit 20`,
    ],
    ["private count (GET /rooms/private-count)", `select count(*) from "room"."room" where "type" = 'PRIVATE'`],
    ["room by slug (GET /rooms/{slug}, join)", `select * from "room"."room" where "slug" = 'bench-room-77' limit 1`],
  ];
  let seqScans = 0;
  for (const [name, sql] of plans) {
    const rows = (await orm.em.getConnection().execute(`explain (analyze, costs off) ${sql}`)) as {
      "QUERY PLAN": string;
    }[];
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n  ");
    if (/Seq Scan/.test(plan)) seqScans++;
    console.log(`\n${name}\n  ${plan}`);
  }
  console.log(
    `\n${seqScans === 0 ? "no sequential scan in any list query" : `${seqScans} list queries use a sequential scan`}`,
  );
  if (seqScans > 0) process.exitCode = 1;
} finally {
  await server.close();
  await host.close();
  await orm.close(true);
  await db.drop();
}
