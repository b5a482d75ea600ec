// Distributed-mode benchmark on loopback: REST through the gateway process to the user service in another
// process (GET /api/user-service → Hello over HTTP/2), against the same Hello called directly on the user
// service process over Connect (HTTP/1.1 JSON), and through the least hop a Node process can be (bare-hop.ts: the
// ceiling of the gateway's ratio on this machine). The platform is started as `npm run start:distributed` does
// (one process per chart workload), once per gateway→service protocol (Connect binary, the default, then gRPC). This
// process only generates load: CONCURRENCY requests in flight over keep-alive connections (undici).
// Needs PostgreSQL and NATS: DATABASE_URL (a fresh database is created in it and dropped) and NATS_URL,
// defaulting to the local servers on their standard ports.
//
//   node --experimental-transform-types gateway/bench/distributed.ts
//   BENCH_MEASURE_MS=2000 BENCH_PROTOCOLS=connect node --experimental-transform-types gateway/bench/distributed.ts
import { availableParallelism, loadavg } from "node:os";
import { DEFAULT_SERVER_LIMITS } from "@tt/kit";
import { createTestDatabase } from "@tt/kit/testing";
import { startDistributed } from "@tt/platform/distributed";
import { load, startServer, type Case, type Result } from "./load.ts";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
// Long enough for V8 to finish optimising the gateway's path: after 1.5 s its CPU per request was still falling
// round by round (338 → 208 → 184 → 172 → 129 µs in 3 s rounds), so a short warm-up measured a half-compiled gateway.
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 15_000);
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 3000);
// The cases take turns, ROUNDS times each, and the median round counts: on a shared machine the load of
// other processes drifts, and alternating keeps the drift out of the ratio.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PROTOCOLS = (process.env.BENCH_PROTOCOLS ?? "connect,grpc").split(",").map((p) => p.trim());
// Issue 29: the hop through the gateway costs at most a fifth of a direct call's throughput over Connect, 40 % over gRPC.
const TARGETS: Record<string, number> = { connect: 0.8, grpc: 0.6 };
const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

// What the user service's Hello answers, whichever way it is reached.
const HELLO = '"version":"1.8.0"';

/** Warms the cases up, then takes them in turn ROUNDS times; returns each case's median round (by req/s). */
async function measure(cases: Case[], pids: Record<string, number>): Promise<Result[]> {
  for (const c of cases) await load(c, WARMUP_MS, CONCURRENCY);
  const rounds: Result[][] = cases.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [n, c] of cases.entries()) rounds[n]!.push(await load(c, MEASURE_MS, CONCURRENCY, pids));
  }
  return rounds.map((rs) => [...rs].sort((x, y) => x.rps - y.rps)[Math.floor(rs.length / 2)]!);
}

/** Starts bare-hop.ts in front of the user service; resolves with the process and its URL. */
async function startBareHop(userUrl: string, protocol: string) {
  const { child, line: port } = await startServer("./bare-hop.ts", [userUrl, protocol]);
  return { child, url: `http://127.0.0.1:${port}` };
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(9);
const row = (r: Result) =>
  `${r.name.padEnd(34)}${fmt(r.rps)}${fmt(r.p50, 2)}${fmt(r.p99, 2)}${String(r.requests).padStart(10)}\n` +
  `  CPU per request: ${Object.entries(r.cpuUs)
    .map(([name, us]) => `${name} ${us.toFixed(0)} µs`)
    .join(", ")}`;

console.log(
  `node ${process.version}, ${CONCURRENCY} in flight, ${WARMUP_MS} ms warm-up + ${MEASURE_MS} ms per round, ` +
    `median of ${ROUNDS} rounds taken in turn; gateway, bare hop, user service and load generator in four processes ` +
    `on ${availableParallelism()} cores (load average ${loadavg()[0]!.toFixed(1)})`,
);
console.log(
  `${"case".padEnd(34)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"requests".padStart(10)}`,
);

let missed = false;
for (const protocol of PROTOCOLS) {
  const db = await createTestDatabase(DATABASE_URL);
  try {
    const platform = await startDistributed({
      databaseUrl: db.url,
      natsUrl: NATS_URL,
      port: 0,
      forwardOutput: false,
      env: {
        LOG_LEVEL: "warn",
        BACKEND_PROTOCOL: protocol,
        // Every load-generator connection comes from 127.0.0.1: no per-address cap (the servers' default would
        // refuse BENCH_CONCURRENCY above it), and room for all of them under the global cap.
        MAX_CONNECTIONS_PER_ADDRESS: "0",
        MAX_CONNECTIONS: String(Math.max(DEFAULT_SERVER_LIMITS.maxConnections, 2 * CONCURRENCY)),
      },
    });
    const user = platform.processes.find((p) => p.name === "user")!;
    let hop: Awaited<ReturnType<typeof startBareHop>> | undefined;
    try {
      hop = await startBareHop(user.url, protocol);
      const gatewayPid = platform.processes.find((p) => p.name === "gateway")!.pid;
      const [gateway, bare, direct] = await measure(
        [
          {
            name: `gateway REST → user (${protocol}, h2c)`,
            origin: platform.url,
            method: "GET",
            path: "/api/user-service",
            expect: HELLO,
          },
          {
            name: `bare Node hop → user (${protocol}, h2c)`,
            origin: hop.url,
            method: "GET",
            path: "/",
            expect: HELLO,
          },
          {
            name: "direct Connect JSON → user",
            origin: user.url,
            method: "POST",
            path: "/tt.user.v1.AuthService/Hello",
            headers: { "content-type": "application/json" },
            body: "{}",
            expect: HELLO,
          },
        ],
        { gateway: gatewayPid, "bare hop": hop.child.pid!, user: user.pid },
      );
      console.log(row(gateway!));
      console.log(row(bare!));
      console.log(row(direct!));
      const ratio = gateway!.rps / direct!.rps;
      const target = TARGETS[protocol] ?? 0;
      if (ratio < target) missed = true;
      console.log(
        `  gateway/direct throughput (${protocol}): ${ratio.toFixed(2)} (target >= ${target}) ${ratio >= target ? "OK" : "MISSED"}; ` +
          `p99 overhead ${(gateway!.p99 - direct!.p99).toFixed(2)} ms; the bare hop's ratio ${(bare!.rps / direct!.rps).toFixed(2)}`,
      );
    } finally {
      hop?.child.kill();
      await platform.close();
    }
  } finally {
    await db.drop();
  }
}
process.exitCode = missed ? 1 : 0;
