// Live stage benchmark, part 3 (issue 14): "sync" — N headless Chromium pages (default 10) in one room, each
// playing the room's song; the drift of each page's player from the server's position of the play.
//
// What runs: the all-in-one platform in this process (gateway, social and every other service, on a fresh
// PostgreSQL database and the real NATS) serving the built web apps (built first if their sources are newer, as
// the browser journeys do), and one headless Chromium (playwright-core, /usr/bin/chromium) with autoplay allowed.
// A DJ uploads a generated song (FFmpeg sine, packaged into HLS by the upload service, as in the journey
// tests/e2e/web-room-live), queues it and takes a seat over REST; the room's driver starts the play. Each listener
// is a signed-in user in a browser context of their own (fresh storage) who logs in through the login page and
// opens the room: the page's live room plays the song with the web kit's player (an <audio> element fed by hls.js),
// at the position its own clock sync (GetClock) gives, and corrects drift every second (LiveRoom.tsx, the kit's
// drift.ts: nothing within DRIFT_TOLERANCE_S, a ±5 % rate nudge up to the seek threshold, jumps on a start).
//
// What is measured, and how:
//   - the page's position: `media.currentTime` of [data-testid=tt-player-media], read in the page together with
//     the page's Date.now() in one evaluate (one task, so both are read within microseconds). currentTime is the
//     media pipeline's playback position (Chromium interpolates it from the audio renderer's clock); its own error
//     is the renderer's clock granularity (a few ms) and whatever offset the decoded stream's timeline has from the
//     song's start (hls.js normalises the HLS timeline to 0; an encoder's priming samples can add tens of ms, and
//     that would be a constant part of every page's drift, not a player error). The audio goes to Chromium's
//     output (headless, --mute-audio: the renderer still consumes the audio at the output's rate, so media time
//     advances in real time; the bench checks that each page's position advances at 1 s/s over the window).
//   - the server's position of the play: (server time at the sample − play.startedAt) / 1 000, where startedAt is
//     the stage's server-stamped start (GET /api/social-service/rooms/{uuid}/stage) and the server time at the
//     sample is the page's Date.now() minus the offset of this machine's clock from the server's, measured by THIS
//     process with the stage's clock RPC (StageService.GetClock, NTP-style: the lowest-round-trip samples' median,
//     measured before and after the sampling window), not the page's own estimate. The pages, this process and the
//     server share one machine, hence one system clock: the offset is ~0 and its own error is ± half the best
//     round trip (reported), plus 1 ms for Date.now()'s resolution.
//   - drift = page position − server position (ms; positive: the page is ahead), every page every round; p50/p95/max
//     of |drift| over all pages and rounds, each page's median drift, the load average. Target p95 ≤ 25 ms.
// The sampling starts once every page plays and a settle time has passed (the start's alignment jumps are over):
// it measures the steady state of a room, not how fast a page gets there (that is printed separately: the time
// from "open the room" to playing within the player's tolerance).
//
//   node --experimental-transform-types services/social/bench/sync.ts [--pages 10 --samples 30 --interval-ms 500 --settle-ms 8000 --no-build]
//   (BENCH_DATABASE_URL, BENCH_NATS_URL to change where the platform keeps its data; CHROMIUM_PATH; BENCH_WEB_ROOT
//   to build and serve the web apps of another checkout's frontends/, e.g. a clean one while this tree's do not build)
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { timestampMs, timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { loadAverage as load, percentile as pct, restCall, type Json } from "@tt/kit/bench";
import { chromium, type Browser, type Page } from "playwright-core";
import { makeAudio } from "@tt/upload-service/testing";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const ADMIN = { email: "bench-admin@bench.test", password: "bench-admin-password-1" };
const PASSWORD = "bench-password-1";
const TARGET_P95_MS = 25;

export interface SyncOptions {
  /** Listener pages in the room. Default 10. */
  pages?: number;
  /** Sampling rounds (each reads every page once). Default 30. */
  samples?: number;
  /** Between rounds (ms). Default 500. */
  intervalMs?: number;
  /** After every page plays, before the first round (ms). Default 8 000. */
  settleMs?: number;
  /**
   * Build the web apps first when their sources are newer than their last build (default true); false serves what
   * their dist folders hold (a shared working tree whose sources do not build at the moment).
   */
  build?: boolean;
  /** The web apps' folder (frontends/ of some checkout) to build and serve; default BENCH_WEB_ROOT, else this one's. */
  webRoot?: string;
  log?: (line: string) => void;
}

export interface SyncResult {
  pages: number;
  rounds: number;
  /** |drift| over all pages and rounds, ms. */
  p50: number;
  p95: number;
  max: number;
  /** Each page's median drift (signed, ms; positive: ahead of the server). */
  perPage: number[];
  /** This process's clock minus the server's (ms), and the best GetClock round trip (ms), before and after. */
  clock: { offsetMs: number; rttMs: number }[];
  load: string;
  met: boolean;
}

/** Polls `check` every 100 ms until it answers something truthy (a readiness poll, not a synchronisation sleep). */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * This process's clock minus the server's (ms), NTP-style over the stage's GetClock: of `n` calls the `keep` with
 * the lowest round trips, their median offset; known to ± rtt / 2 of the best.
 */
async function serverClock(url: string, n = 30, keep = 5): Promise<{ offsetMs: number; rttMs: number }> {
  const client = createClient(StageService, createConnectTransport({ baseUrl: url, httpVersion: "1.1" }));
  const samples: { offsetMs: number; rttMs: number }[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = Date.now(); // Date.now(), the clock the pages' samples are taken with
    const answer = await client.getClock({ clientTime: timestampNow() });
    const t1 = Date.now();
    const receive = timestampMs(answer.receiveTime!);
    const send = timestampMs(answer.sendTime!);
    samples.push({ offsetMs: (t0 - receive + (t1 - send)) / 2, rttMs: t1 - t0 - Math.max(0, send - receive) });
  }
  const best = samples.sort((a, b) => a.rttMs - b.rttMs).slice(0, keep);
  return {
    offsetMs: pct(
      best.map((s) => s.offsetMs),
      0.5,
    ),
    rttMs: best[0]!.rttMs,
  };
}

/** The page's player: position (s), paused, rate, and the page's Date.now() at the read. */
function readPlayer(page: Page) {
  return page.evaluate(() => {
    const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
    return {
      now: Date.now(),
      position: media?.currentTime ?? Number.NaN,
      paused: media?.paused ?? true,
      rate: media?.playbackRate ?? Number.NaN,
    };
  });
}

export async function measureSync(opts: SyncOptions = {}): Promise<SyncResult> {
  const pages = opts.pages ?? 10;
  const rounds = opts.samples ?? 30;
  const intervalMs = opts.intervalMs ?? 500;
  const settleMs = opts.settleMs ?? 8_000;
  const log = opts.log ?? ((line: string) => console.log(line));
  // Long enough for the logins, the settle time and the rounds, with room to spare on a loaded machine.
  // (A two-core machine at load 20-30 once took 7 minutes to open ten pages; the bench then says so and stops.)
  const songSeconds = Math.ceil(150 + pages * 20 + (settleMs + rounds * intervalMs * 2) / 1000);

  const { createTestDatabase } = await import("@tt/kit/testing");
  const { startAllInOne } = await import("@tt/platform");
  const { buildFrontendsIfStale, chromiumLaunchOptions, createFrontendHandler } = await import("@tt/web-server");

  const closers: (() => Promise<unknown>)[] = [];
  try {
    const distRoot = opts.webRoot ?? process.env.BENCH_WEB_ROOT;
    if (opts.build ?? true) {
      const built = await buildFrontendsIfStale({ distRoot, log: (line) => log(`  ${line}`) });
      if (built.built.length > 0) log(`  built ${built.built.join(", ")}`);
    } else log("  serving the web apps' last build (not rebuilt)");
    if (distRoot) log(`  the web apps of ${distRoot}`);
    const db = await createTestDatabase(DATABASE_URL);
    closers.push(() => db.drop());
    const mediaDir = await mkdtemp(path.join(os.tmpdir(), "tt-bench-sync-media-"));
    closers.push(() => rm(mediaDir, { recursive: true, force: true }));
    const { generateKeyPairSync } = await import("node:crypto");
    const frontends = createFrontendHandler({ distRoot });
    const platform = await startAllInOne({
      databaseUrl: db.url,
      natsUrl: NATS_URL,
      port: 0,
      host: "127.0.0.1",
      staticHandler: (req, res) => frontends(req, res),
      env: {
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_PRIVATE_KEY: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        MEDIA_DIR: mediaDir,
        // The DJ holds no join stream of their own here; keep the seat for the whole run.
        SOCIAL_DJ_GRACE_MS: String(3_600_000),
        // Every listener logs in from 127.0.0.1.
        LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: "100000",
        LOGIN_ATTEMPTS_PER_IP: "100000",
      },
    });
    closers.push(() => platform.close());
    const url = platform.url;
    const api = restCall(url);

    // The DJ: an uploaded song, packaged into HLS, queued; a room; listeners' accounts.
    const signUp = async () => {
      const email = `sync-${randomUUID()}@bench.test`;
      const body = await api("POST", "/api/user-service/users/sign-up", undefined, { email, password: PASSWORD });
      return { uuid: body.user.uuid as string, email, token: body.accessToken.token as string };
    };
    const admin = (await api("POST", "/api/user-service/auth/login", undefined, ADMIN)).accessToken.token as string;
    const dj = await signUp();
    await api("PUT", `/api/user-service/users/${dj.uuid}/capabilities/uploadMusic`, admin, {});
    const title = `Sync ${randomUUID().slice(0, 8)}`;
    const form = new FormData();
    form.append("public", "true");
    const audio = await makeAudio({ seconds: songSeconds, title, artist: "Bench" });
    form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "song.mp3");
    const upload = await fetch(`${url}/api/room-service/upload/song`, {
      method: "POST",
      headers: { authorization: `Bearer ${dj.token}` },
      body: form,
    });
    if (upload.status !== 200) throw new Error(`the upload answered ${upload.status}: ${await upload.text()}`);
    const songId = String(((await upload.json()) as { songId: string }).songId);
    await until(
      "the song packaged",
      async () => (await api("GET", `/api/room-service/songs/${songId}`, dj.token)).status === "VERIFIED",
      // FFmpeg packages three renditions of a few minutes of audio: long on a loaded machine.
      600_000,
    );
    log(`  the ${songSeconds} s song uploaded and packaged; load ${load()}`);
    await api("POST", "/api/playlist-service/crate/special/queue/songs", dj.token, {
      songs: [
        { trackName: title, artistName: "Bench", duration: songSeconds, musicProviders: { uploadService: songId } },
      ],
    });
    await until("the queued song's stream", async () => {
      const queue = await api("GET", "/api/playlist-service/crate/special/queue/songs?limit=5", dj.token);
      return (queue.songs as Json[] | undefined)?.[0]?.streamUrls?.uploadService?.hls as string | undefined;
    });
    const room = (
      await api("POST", "/api/room-service/rooms/infrastructure", dj.token, { name: title, numberOfDjs: 1 })
    ).room as { uuid: string; slug: string };
    await api("POST", `/api/social-service/rooms/${room.uuid}/seats`, dj.token, {});
    const play = await until("the room's driver to start the play", async () => {
      const stage = await api("GET", `/api/social-service/rooms/${room.uuid}/stage`, dj.token);
      return stage.play?.startedAt ? (stage.play as { playId: string; startedAt: string }) : undefined;
    });
    let startedAt = Date.parse(play.startedAt);
    const listeners: { uuid: string; email: string; token: string }[] = [];
    for (let i = 0; i < pages; i++) listeners.push(await signUp());
    log(
      `  platform ${url} (all-in-one in this process, fresh database, NATS ${NATS_URL}); ` +
        `a ${songSeconds} s uploaded song (HLS) playing since ${play.startedAt}; load ${load()}`,
    );

    // The browser: headless, autoplay without a gesture, audio muted at the output (media time still advances).
    const browser: Browser = await chromium.launch({
      ...chromiumLaunchOptions,
      args: [...chromiumLaunchOptions.args, "--autoplay-policy=no-user-gesture-required", "--mute-audio"],
    });
    closers.push(() => browser.close());
    const problems: string[] = [];
    const opened: Page[] = [];
    const toPlaying: number[] = [];
    const openListener = async (who: { email: string }, i: number) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // Diagnosis: the page's GetClock calls as its fetch sees them (local times around the call, the server's
      // receive and send times), to tell its clock sync's error from its player's drift.
      // A loaded machine (other work, ten pages decoding audio) takes its time to load a page.
      context.setDefaultTimeout(120_000);
      const page = await context.newPage();
      page.on("pageerror", (error) => problems.push(`page ${i}: ${error.message}`));
      await page.goto(`${url}/login?lang=en`);
      await page.getByLabel("E-mail").fill(who.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByTestId("signed-in-user").waitFor({ timeout: 60_000 });
      const t0 = Date.now();
      await page.goto(`${url}/room/r/${room.slug}?lang=en`);
      // Autoplay is allowed; should the page still ask, the listener starts it.
      const listen = page.getByRole("button", { name: "Listen in sync" });
      await Promise.race([
        listen.waitFor({ timeout: 30_000 }).then(() => listen.click()),
        page.waitForFunction(
          () => !document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]")?.paused,
          undefined,
          { timeout: 30_000 },
        ),
      ]).catch(() => undefined);
      await page
        .waitForFunction(
          () => {
            const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
            return media !== null && !media.paused && media.currentTime > 0.5;
          },
          undefined,
          { timeout: 60_000 },
        )
        .catch((error: unknown) => {
          throw new Error(`page ${i}'s player did not play; ${problems.join("; ")}`, { cause: error });
        });
      // Time to play within the player's own tolerance (250 ms) of the server's position.
      await until(
        `page ${i} within 250 ms`,
        async () => {
          const s = await readPlayer(page);
          return Math.abs(s.position - (s.now - startedAt) / 1000) < 0.25;
        },
        60_000,
      ).then(
        () => toPlaying.push(Date.now() - t0),
        () => toPlaying.push(Number.NaN),
      );
      opened[i] = page;
    };
    // Two at a time: ten logins at once on a loaded two-core machine time out.
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(2, pages) }, async () => {
        while (next < pages) {
          const i = next++;
          await openListener(listeners[i]!, i);
        }
      }),
    );
    log(
      `  ${pages} pages play; open the room → within 250 ms of the server: p50 ` +
        `${pct(toPlaying.filter(Number.isFinite), 0.5).toFixed(0)} ms, max ` +
        `${pct(toPlaying.filter(Number.isFinite), 1).toFixed(0)} ms (not within 60 s: ` +
        `${toPlaying.filter((x) => !Number.isFinite(x)).length}); settling ${settleMs} ms; load ${load()}`,
    );
    await new Promise((resolve) => setTimeout(resolve, settleMs));

    // The rounds: every page read at once, against the server's clock measured from here, for the play the stage
    // has now (the same as at the start unless the pages took longer than the song, which is an error).
    const current = async () =>
      (await api("GET", `/api/social-service/rooms/${room.uuid}/stage`, dj.token)).play as
        { playId: string; startedAt: string } | undefined;
    const playing = await current();
    if (playing?.playId !== play.playId)
      throw new Error(
        `the play changed before the rounds (${play.playId} since ${play.startedAt} → ` +
          `${playing ? `${playing.playId} since ${playing.startedAt}` : "none"}, now ${new Date().toISOString()}): ` +
          `the pages took longer than the song, or the room's driver ended it early`,
      );
    startedAt = Date.parse(playing.startedAt);
    const before = await serverClock(url);
    const drifts: number[][] = Array.from({ length: pages }, () => []);
    const firstLast: { now: number; position: number }[][] = Array.from({ length: pages }, () => []);
    let nudged = 0;
    let pausedReads = 0;
    const roundsStarted = Date.now();
    for (let r = 0; r < rounds; r++) {
      const due = roundsStarted + r * intervalMs;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const reads = await Promise.all(opened.map((page) => readPlayer(page)));
      reads.forEach((s, i) => {
        if (s.paused) pausedReads++;
        if (s.rate !== 1) nudged++;
        const server = (s.now - before.offsetMs - startedAt) / 1000;
        drifts[i]!.push((s.position - server) * 1000);
        if (r === 0 || r === rounds - 1) firstLast[i]!.push({ now: s.now, position: s.position });
      });
    }
    const after = await serverClock(url);
    if ((await current())?.playId !== play.playId) throw new Error("the play changed during the rounds");
    const abs = drifts.flat().map(Math.abs);
    const perPage = drifts.map((d) => pct(d, 0.5));
    const rates = firstLast.map(([a, b]) => (b!.position - a!.position) / ((b!.now - a!.now) / 1000));
    const result: SyncResult = {
      pages,
      rounds,
      p50: pct(abs, 0.5),
      p95: pct(abs, 0.95),
      max: pct(abs, 1),
      perPage,
      clock: [before, after],
      load: load(),
      met: pct(abs, 0.95) <= TARGET_P95_MS,
    };
    log(
      `  server clock from this process (GetClock, best 5 of 30): offset ${before.offsetMs.toFixed(1)} ms ` +
        `(rtt ${before.rttMs} ms) before, ${after.offsetMs.toFixed(1)} ms (rtt ${after.rttMs} ms) after`,
    );
    log(
      `  ${rounds} rounds × ${pages} pages every ${intervalMs} ms; reads with a nudged rate (≠ 1): ${nudged}, ` +
        `paused: ${pausedReads}; each page's media time per wall second over the window: ` +
        `${pct(rates, 0).toFixed(3)}–${pct(rates, 1).toFixed(3)}`,
    );
    log(`  per-page median drift (ms, + ahead): ${perPage.map((x) => x.toFixed(0)).join(" ")}`);
    log(
      `  |drift| from the server's position: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ` +
        `max ${result.max.toFixed(1)} ms; load ${result.load}; target p95 ≤ ${TARGET_P95_MS} ms: ` +
        `${result.met ? "met" : "NOT met"}`,
    );
    if (problems.length > 0) log(`  page errors: ${problems.slice(0, 5).join("; ")}`);
    return result;
  } finally {
    for (const close of closers.reverse()) {
      await close().catch((err: unknown) => log(`  closing failed: ${String(err)}`));
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      pages: { type: "string", default: "10" },
      samples: { type: "string", default: "30" },
      "interval-ms": { type: "string", default: "500" },
      "settle-ms": { type: "string", default: "8000" },
      "no-build": { type: "boolean", default: false },
    },
  });
  console.log(`load average at start: ${load()} (${os.cpus().length} cores)`);
  console.log(`\n3. sync: ${values.pages} headless Chromium pages in one room`);
  await measureSync({
    pages: Number(values.pages),
    samples: Number(values.samples),
    intervalMs: Number(values["interval-ms"]),
    settleMs: Number(values["settle-ms"]),
    build: !values["no-build"],
  });
  process.exit(0);
}
