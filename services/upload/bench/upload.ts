// `npm run bench:upload`: figures of the upload service, each with its baseline measured in the same run.
//  1. Packaging: time for a generated BENCH_SONG_SECONDS (default 180) file to become HLS, one quality at a time
//     (low, medium, high) and all three in one FFmpeg run (what the worker does before VERIFIED).
//  2. Concurrency: 1, 2, 3 and 4 packagings at once on this machine (os.availableParallelism() cores): wall time
//     and songs per minute, so the best UPLOAD_WORKER_CONCURRENCY shows.
//  3. Serving: encrypted segments through the platform (all-in-one gateway → upload service → object store)
//     against a bare node:http server sending the same file from disk; requests per second and the ratio.
// Needs PostgreSQL and NATS (TEST_DATABASE_URL / NATS_URL, default the local ones) for part 3.
import { createServer } from "node:http";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { createTestDatabase } from "@tt/kit/testing";
import { startAllInOne } from "../../platform/src/all-in-one.ts";
import { defaultFfmpegPath, packageHls, QUALITIES, type Quality } from "../src/packaging/ffmpeg.ts";
import { makeAudio } from "../src/testing/fixtures.ts";

const SONG_SECONDS = Number(process.env.BENCH_SONG_SECONDS ?? 180);
const SERVE_MS = Number(process.env.BENCH_SERVE_MS ?? 5000);
const SERVE_CONCURRENCY = Number(process.env.BENCH_SERVE_CONCURRENCY ?? 16);
const ffmpeg = defaultFfmpegPath();
const work = await mkdtemp(join(tmpdir(), "tt-bench-upload-"));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function packageOnce(input: string, qualities: readonly Quality[]): Promise<number> {
  const out = join(work, randomUUID());
  const t0 = performance.now();
  await packageHls({
    ffmpeg,
    input,
    outDir: out,
    key: randomBytes(16),
    iv: randomBytes(16),
    duration: SONG_SECONDS,
    qualities,
  });
  const ms = performance.now() - t0;
  await rm(out, { recursive: true, force: true });
  return ms;
}

try {
  console.log(`upload bench: a ${SONG_SECONDS} s song, ${availableParallelism()} cores`);
  const input = join(work, "song.mp3");
  await writeFile(input, await makeAudio({ seconds: SONG_SECONDS, format: "mp3", title: "Bench", artist: "Bench" }));

  console.log("\n1. packaging time (FFmpeg, AES-128 HLS)");
  for (const q of QUALITIES) {
    const ms = await packageOnce(input, [q]);
    console.log(
      `  ${q.name.padEnd(7)} ${q.kbps} kbit/s  ${seconds(ms)} s  (${(SONG_SECONDS / (ms / 1000)).toFixed(0)}× real time)`,
    );
  }
  const all = await packageOnce(input, QUALITIES);
  console.log(`  all three (one run, what precedes VERIFIED)  ${seconds(all)} s`);

  console.log("\n2. packagings at once");
  let baseline = 0;
  for (const n of [1, 2, 3, 4]) {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, () => packageOnce(input, QUALITIES)));
    const ms = performance.now() - t0;
    const perMinute = (n / ms) * 60_000;
    if (n === 1) baseline = perMinute;
    console.log(
      `  ${n} at once: ${seconds(ms)} s wall, ${perMinute.toFixed(1)} songs/min (${(perMinute / baseline).toFixed(2)}× one at a time)`,
    );
  }

  console.log("\n3. segment serving");
  const db = await createTestDatabase(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const mediaDir = join(work, "media");
  const admin = { email: "bench@example.org", password: "bench admin password 1" };
  const platform = await startAllInOne({
    databaseUrl: db.url,
    natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
    port: 0,
    host: "127.0.0.1",
    env: { LOG_LEVEL: "warn", MEDIA_DIR: mediaDir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
  });
  try {
    const api = async (method: string, path: string, token?: string, body?: unknown | FormData) => {
      const res = await fetch(platform.url + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
        },
        body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const login = (await (await api("POST", "/api/user-service/auth/login", undefined, admin)).json()) as {
      user: { uuid: string };
      accessToken: { token: string };
    };
    const user = (await (
      await api("POST", "/api/user-service/users/sign-up", undefined, {
        email: `${randomUUID()}@example.org`,
        password: "bench uploader password 1",
      })
    ).json()) as { user: { uuid: string }; accessToken: { token: string } };
    await api("PUT", `/api/user-service/users/${user.user.uuid}/capabilities/uploadMusic`, login.accessToken.token, {});
    const token = user.accessToken.token;
    const form = new FormData();
    const audio = await makeAudio({ seconds: 30, title: "Serve", artist: "Bench" });
    form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>]), "s.mp3");
    const song = (await (await api("POST", "/api/room-service/upload/song", token, form)).json()) as { songId: string };
    for (let status = ""; status !== "VERIFIED";) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (
        (await (await api("GET", `/api/room-service/songs/${song.songId}`, token)).json()) as { status: string }
      ).status;
    }
    const playlist = await (await api("GET", `/api/upload-service/songs/${song.songId}/hls/high`, token)).text();
    const segmentPath = playlist.split("\n").find((l) => l.startsWith("/api/upload-service/media/"))!;
    const [, , , , uuid, version, quality, name] = segmentPath.split("/");
    const file = join(mediaDir, "songs", uuid!, version!, quality!, name!);
    const size = (await readFile(file)).length;

    // The baseline: the same file, read and sent by a bare node:http server.
    const bare = createServer((_req, res) => {
      readFile(file).then(
        (body) => {
          res.writeHead(200, { "content-type": "video/mp2t", "cache-control": "public, max-age=31536000, immutable" });
          res.end(body);
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    const serve = async (origin: string, path: string) => {
      const pool = new Pool(origin, { connections: SERVE_CONCURRENCY });
      let requests = 0;
      const t0 = performance.now();
      const deadline = t0 + SERVE_MS;
      await Promise.all(
        Array.from({ length: SERVE_CONCURRENCY }, async () => {
          while (performance.now() < deadline) {
            const res = await pool.request({ method: "GET", path });
            const body = await res.body.arrayBuffer();
            if (res.statusCode !== 200 || body.byteLength !== size) throw new Error(`${origin}: ${res.statusCode}`);
            requests++;
          }
        }),
      );
      const elapsed = performance.now() - t0;
      await pool.close();
      return (requests / elapsed) * 1000;
    };
    const viaGateway = await serve(platform.url, segmentPath);
    const viaBare = await serve(bareUrl, "/segment.ts");
    bare.close();
    const mb = (rps: number) => ((rps * size) / 1e6).toFixed(1);
    console.log(
      `  segment of ${(size / 1024).toFixed(0)} KiB, ${SERVE_CONCURRENCY} connections, ${SERVE_MS / 1000} s each`,
    );
    console.log(`  through the gateway: ${viaGateway.toFixed(0)} req/s (${mb(viaGateway)} MB/s)`);
    console.log(`  bare node:http:      ${viaBare.toFixed(0)} req/s (${mb(viaBare)} MB/s)`);
    console.log(`  ratio gateway / bare: ${(viaGateway / viaBare).toFixed(2)}`);
  } finally {
    await platform.close();
    await db.drop();
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
