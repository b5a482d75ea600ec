// Gateway benchmark on loopback: (a) REST through the gateway to a unary RPC over the kit's in-process
// transport, (b) the same RPC over Connect (HTTP/1.1 JSON, connectNodeAdapter), (c) a bare node:http JSON
// hello; and for comparison (d) the gateway over Connect's router transport. The servers run in a child process; this process only generates load: CONCURRENCY requests in
// flight over keep-alive connections (undici), WARMUP_MS then MEASURE_MS per case.
//
//   node --experimental-transform-types gateway/bench/run.ts            (or: npm run bench:gateway)
//   BENCH_MEASURE_MS=2000 node --experimental-transform-types gateway/bench/run.ts
import { load, startServer, type Case, type Result } from "./load.ts";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 5000);

const { child, line } = await startServer("./servers.ts");
try {
  const urls = JSON.parse(line) as { bare: string; direct: string; gateway: string; gatewayRouter: string };

  const cases: Case[] = [
    {
      name: "gateway REST (in-process)",
      origin: urls.gateway,
      method: "GET",
      path: "/api/fixture/files/music/crates/a%20b.mp3",
      expect: '"path":"crates/a b.mp3"',
    },
    {
      name: "direct Connect JSON",
      origin: urls.direct,
      method: "POST",
      path: "/tt.fixture.v1.FixtureService/GetFile",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bucket: "music", path: "crates/a b.mp3" }),
      expect: '"path":"crates/a b.mp3"',
    },
    { name: "bare node:http", origin: urls.bare, method: "GET", path: "/", expect: "world" },
    {
      name: "gateway REST (router tr.)",
      origin: urls.gatewayRouter,
      method: "GET",
      path: "/api/fixture/files/music/crates/a%20b.mp3",
      expect: '"path":"crates/a b.mp3"',
    },
  ];

  console.log(`node ${process.version}, ${CONCURRENCY} in flight, ${WARMUP_MS} ms warm-up + ${MEASURE_MS} ms per case`);
  const results: Result[] = [];
  for (const c of cases) {
    await load(c, WARMUP_MS, CONCURRENCY);
    results.push(await load(c, MEASURE_MS, CONCURRENCY));
  }
  const fmt = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `${"case".padEnd(28)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"requests".padStart(10)}`,
  );
  for (const r of results) {
    console.log(`${r.name.padEnd(28)}${fmt(r.rps)}${fmt(r.p50, 2)}${fmt(r.p99, 2)}${String(r.requests).padStart(10)}`);
  }
  const [gw, direct, bare] = results as [Result, Result, Result, Result];
  const ratio = gw.rps / direct.rps;
  const overhead = gw.p99 - direct.p99;
  console.log(`gateway/direct throughput: ${ratio.toFixed(2)} (target >= 0.85) ${ratio >= 0.85 ? "OK" : "MISSED"}`);
  console.log(
    `gateway p99 overhead over direct: ${overhead.toFixed(2)} ms (target <= 1 ms) ${overhead <= 1 ? "OK" : "MISSED"}`,
  );
  console.log(
    `gateway/bare throughput: ${(gw.rps / bare.rps).toFixed(2)}; direct/bare: ${(direct.rps / bare.rps).toFixed(2)}`,
  );
} finally {
  child.kill();
}
