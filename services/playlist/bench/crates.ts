// Crate benchmark through the gateway (REST, one request at a time, so the figures are latencies): add, move
// and page through a 10,000-song crate, and how a move's cost grows from a 100- to a 10,000-song crate.
// The user and playlist services run in one host on a fresh PostgreSQL database (the in-process bus), behind
// the real gateway and HTTP server, exactly as the all-in-one serves them.
//
//   npm run bench:crates                 (BENCH_DATABASE_URL, BENCH_MOVES, BENCH_SONGS to change the defaults)
import { randomUUID } from "node:crypto";
import { serveHostThroughGateway } from "@tt/gateway";
import { createLogger, createMemoryBus, startServiceHost } from "@tt/kit";
import { percentile as pct, restCall } from "@tt/kit/bench";
import { createTestDatabase } from "@tt/kit/testing";
import { userServiceDefinition } from "@tt/user-service";
import { playlistServiceDefinition } from "../src/index.ts";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const MOVES = Number(process.env.BENCH_MOVES ?? 200);
const BIG = Number(process.env.BENCH_SONGS ?? 10_000);
const BATCH = 100;

const logger = createLogger({ service: "bench", level: "warn" });
const db = await createTestDatabase(DATABASE_URL);
const bus = createMemoryBus();
const env = { LOG_LEVEL: "warn", CRATE_MAX_SONGS: String(BIG + 1000) };
const host = await startServiceHost({
  definitions: [userServiceDefinition, playlistServiceDefinition],
  databaseUrl: db.url,
  bus,
  logger,
  env,
});
const server = await serveHostThroughGateway(host, logger);

let token = "";
const rest = restCall(`${server.url}/api`);
/** A REST call as the signed-up user (once `token` is set). */
const call = (method: string, path: string, body?: unknown) => rest(method, path, token || undefined, body);

async function timed<T>(samples: number[], f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await f();
  samples.push(performance.now() - t0);
  return out;
}

const rows: [string, number[]][] = [];

const songsOf = (n: number, start: number) =>
  Array.from({ length: n }, (_, i) => ({
    trackName: `Bench track ${start + i}`,
    artistName: `Bench artist ${(start + i) % 97}`,
    duration: 120 + ((start + i) % 200),
    musicProviders: { spotify: `bench-${start + i}-${randomUUID().slice(0, 8)}` },
    thumbnails: { spotify: `https://img.test/${start + i}.jpg` },
  }));

const rand = (n: number) => Math.floor(Math.random() * n);

try {
  const signUp = await call("POST", "/user-service/users/sign-up", {
    email: `${randomUUID()}@bench.test`,
    password: "bench-password-1",
  });
  token = (signUp.accessToken as { token: string }).token;
  const p = (path: string) => `/playlist-service${path}`;

  // Baseline in the same run: reading the (empty) queue crate.
  const baseline: number[] = [];
  for (let i = 0; i < 100; i++) await timed(baseline, () => call("GET", p("/crate/special/queue")));
  rows.push(["baseline GET queue", baseline]);

  // Add: fill the big crate 100 new songs per call (each new to the catalogue too).
  const big = await call("POST", p("/crate"), { crateName: "bench 10k" });
  const addBatch: number[] = [];
  const songIds: string[] = [];
  for (let start = 0; start < BIG; start += BATCH) {
    const added = await timed(addBatch, () =>
      call("POST", p(`/crate/${big.crateUuid}/songs`), { songs: songsOf(BATCH, start) }),
    );
    for (const s of added.songs as { songId: string }[]) songIds.push(s.songId);
  }
  rows.push([`add ${BATCH} new songs (to ${BIG})`, addBatch]);

  // Add one catalogue song at an early position of the full crate (thumbnails refreshed each time).
  const addOne: number[] = [];
  const extra = await call("POST", p("/crate"), { crateName: "bench extra" });
  const extraSongs = (await call("POST", p(`/crate/${extra.crateUuid}/songs`), { songs: songsOf(100, BIG) })).songs as {
    songId: string;
  }[];
  for (const s of extraSongs) {
    await timed(addOne, () =>
      call("POST", p(`/crate/${big.crateUuid}/songs`), { songs: [{ songId: s.songId }], position: rand(32) }),
    );
  }
  rows.push([`add 1 song at position ≤ 32 (${BIG} songs)`, addOne]);

  // Page through the big crate, 300 songs per page.
  const page: number[] = [];
  const total = (await call("GET", p(`/crate/${big.crateUuid}/songs?limit=1`))).total as number;
  for (let round = 0; round < 2; round++) {
    for (let offset = 0; offset < total; offset += 300) {
      await timed(page, () => call("GET", p(`/crate/${big.crateUuid}/songs?limit=300&offset=${offset}`)));
    }
  }
  rows.push([`page 300 songs (${total} songs)`, page]);

  // Move: random song to a random position in crates of growing size (the smaller ones by catalogue id).
  const moveBySize: [number, number[]][] = [];
  for (const size of [100, 1_000, BIG]) {
    let crateUuid = big.crateUuid as string;
    if (size !== BIG) {
      crateUuid = (await call("POST", p("/crate"), { crateName: `bench ${size}` })).crateUuid as string;
      for (let i = 0; i < size; i += 300) {
        await call("POST", p(`/crate/${crateUuid}/songs`), {
          songs: songIds.slice(i, Math.min(size, i + 300)).map((songId) => ({ songId })),
        });
      }
    }
    const n = (await call("GET", p(`/crate/${crateUuid}/songs?limit=1`))).total as number;
    // The crate song ids to move, read page by page.
    const ids: string[] = [];
    for (let offset = 0; offset < n; offset += 300) {
      const got = await call("GET", p(`/crate/${crateUuid}/songs?limit=300&offset=${offset}`));
      for (const s of got.songs as { crateSongUuid: string }[]) ids.push(s.crateSongUuid);
    }
    const moves: number[] = [];
    for (let i = 0; i < MOVES; i++) {
      await timed(moves, () =>
        call("PUT", p(`/crate/${crateUuid}/songs/${ids[rand(ids.length)]}/position`), { newPosition: rand(n) }),
      );
    }
    moveBySize.push([n, moves]);
    rows.push([`move 1 song (${n} songs)`, moves]);
  }

  const fmt = (n: number) => n.toFixed(2).padStart(9);
  console.log(
    `node ${process.version}; user + playlist services behind the gateway, PostgreSQL ${new URL(DATABASE_URL).host}`,
  );
  console.log(`${"operation".padEnd(40)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"calls".padStart(7)}`);
  for (const [name, xs] of rows)
    console.log(`${name.padEnd(40)}${fmt(pct(xs, 0.5))}${fmt(pct(xs, 0.99))}${String(xs.length).padStart(7)}`);
  const base = pct(baseline, 0.5);
  const [small] = moveBySize[0]!;
  const smallP50 = pct(moveBySize[0]![1], 0.5);
  console.log(
    `ratio to the baseline (p50): ${rows.map(([name, xs]) => `${name}: ${(pct(xs, 0.5) / base).toFixed(2)}`).join("; ")}`,
  );
  console.log(
    `move cost growth (p50 vs the ${small}-song crate): ${moveBySize.map(([n, xs]) => `${n}: ${(pct(xs, 0.5) / smallP50).toFixed(2)}x`).join(", ")}`,
  );
} finally {
  await server.close();
  await host.close();
  await db.drop();
}
