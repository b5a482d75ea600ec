// Issue 14: the live stage served by two social processes on a real NATS of this test's own (so it can be
// restarted without disturbing the other suites). The user, room and playlist services run in one harness host
// on the same NATS; the two social processes are the service's own entry (services/social/src/main.ts) as a
// Deployment's replicas run it, with the deployment's service key and the harness's URL for the services they call.
// - listeners split across both processes see the same versions and rebuild the same stage;
// - the process that holds a room's song timer (its lease) killed outright mid-song: the song still ends, and the
//   next starts, within 2 s of its end (the lease's TTL is 1 s here);
// - NATS restarted mid-room: listeners that rejoin get the stage again within 3 s of NATS being back;
// - NATS stopped across a song's end (issue 28): both processes' listeners see the next song within 3 s of NATS
//   being back (late by the outage, not by a request's timeout on top), one play, the DJ's next song.
// It starts its own processes whatever the mode, so it runs in the all-in-one e2e project only.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import path from "node:path";
import { fromBinary, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import {
  createServiceHarness,
  createTestDatabase,
  startTestNatsServer,
  type ServiceHarness,
  type TestDatabase,
  type TestNatsServer,
} from "@tt/kit/testing";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { applyPatch } from "rfc6902";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnNodeProcess, waitUntilReady, type ChildHandle } from "@tt/platform/processes";
import { bearerTransport } from "./support/platform.ts";

const distributed = process.env.TT_E2E_MODE === "distributed";
const repo = path.resolve(import.meta.dirname, "../..");
const key = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let h: ServiceHarness;
let db: TestDatabase;
const socials: { handle: ChildHandle; url: string }[] = [];

/** A nats-server of the test's own (same port and store across a restart), stopped and started again. */
let natsServer: TestNatsServer | undefined;
const startNats = () => natsServer!.start();
const stopNats = () => natsServer!.stop();

async function startSocial(): Promise<{ handle: ChildHandle; url: string }> {
  const handle = spawnNodeProcess({
    name: `social-${socials.length}`,
    entry: "services/social/src/main.ts",
    cwd: repo,
    // SOCIAL_INSTANCES_LOGS=1 shows the processes' warnings (a failure's cause).
    forwardOutput: process.env.SOCIAL_INSTANCES_LOGS === "1",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: db.url,
      NATS_URL: natsServer!.url,
      // The harness's deployment: the social processes share its streams and buckets (issue 23).
      DEPLOYMENT_NAME: h.deploymentName,
      HOST: "127.0.0.1",
      PORT: "0",
      METRICS_PORT: "0",
      METRICS_HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SERVICE_TOKEN_PRIVATE_KEY: key,
      USER_SERVICE_URL: h.url,
      ROOM_SERVICE_URL: h.url,
      PLAYLIST_SERVICE_URL: h.url,
      SOCIAL_LEASE_TTL_MS: "1000",
      SOCIAL_PRESENCE_INTERVAL_MS: "200",
      SOCIAL_DJ_GRACE_MS: "60000",
    },
  });
  const ready = await waitUntilReady(handle, 120_000, { metrics: true });
  const social = { handle, url: ready.url };
  socials.push(social);
  return social;
}

beforeAll(async () => {
  if (distributed) return;
  natsServer = await startTestNatsServer();
  h = await createServiceHarness(roomServiceDefinition, {
    alongside: [userServiceDefinition, playlistServiceDefinition],
    natsUrl: natsServer!.url,
    env: { SERVICE_TOKEN_PRIVATE_KEY: key },
  });
  db = await createTestDatabase(inject("databaseUrl"));
  // One after the other: the first applies the migrations.
  await startSocial();
  await startSocial();
}, 300_000);

afterAll(async () => {
  for (const s of socials) await s.handle.stop(5_000);
  await h?.close();
  await db?.drop();
  await natsServer?.dispose();
}, 120_000);

async function account(): Promise<{ uuid: string; token: string }> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "a-long-password-1" });
  // The user service's own token: the social processes verify it with the user service's published key.
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

function stageClient(url: string, token: string) {
  return createClient(StageService, bearerTransport(url, token));
}

/** A join stream on one process: the stage rebuilt from the state and the patches, version by version. */
function watch(url: string, token: string, room: string) {
  const abort = new AbortController();
  let json: JsonValue | null = null;
  let version = -1n;
  let ended = false;
  let failure: unknown;
  const versions: bigint[] = [];
  /** The rebuilt stage's JSON text at each version seen. */
  const byVersion = new Map<bigint, string>();
  const done = (async () => {
    try {
      for await (const m of stageClient(url, token).join({ room }, { signal: abort.signal })) {
        if (m.kind.case === "state") {
          json = toJson(StageSchema, m.kind.value);
          version = m.kind.value.version;
        } else if (m.kind.case === "patch") {
          if (m.kind.value.version !== version + 1n) throw new Error(`gap: ${version} → ${m.kind.value.version}`);
          if (!applyPatch(json, JSON.parse(m.kind.value.operations)).every((e) => e === null)) {
            throw new Error("a patch failed");
          }
          version = m.kind.value.version;
        } else continue;
        versions.push(version);
        byVersion.set(version, JSON.stringify(json));
      }
    } catch (err) {
      failure = err;
      if (!abort.signal.aborted) throw err;
    } finally {
      ended = true;
    }
  })();
  done.catch(() => {});
  return {
    versions,
    byVersion,
    done,
    get ended() {
      return ended;
    },
    get version() {
      return version;
    },
    stage: (): Stage | null => (json === null ? null : fromJson(StageSchema, json)),
    json: () => json,
    close: () => abort.abort(),
    async until(test: (s: Stage) => boolean, timeoutMs = 30_000, what = "the stage"): Promise<Stage> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = json === null ? null : fromJson(StageSchema, json);
        if (s && test(s)) return s;
        if (ended) throw new Error(`the stream ended: ${String(failure)}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stage: ${JSON.stringify(json)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

const endOf = (s: Stage) => timestampDate(s.play!.startedAt!).getTime() + s.play!.duration * 1000;

describe.skipIf(distributed)("two social processes", () => {
  let room: { uuid: string };
  let dj: { uuid: string; token: string };
  let onA: ReturnType<typeof watch>;
  let onB: ReturnType<typeof watch>;
  afterAll(() => {
    onA?.close();
    onB?.close();
  });

  it("listeners split across both see the same versions", async () => {
    const [a, b] = socials as [(typeof socials)[0], (typeof socials)[0]];
    dj = await account();
    const listener = await account();
    room = (await h.client(RoomService, { token: dj.token }).createRoom({ name: `Instances ${randomUUID()}` })).room!;
    await h.client(CrateService, { token: dj.token }).addQueueSongs({
      songs: [8, 8, 8].map((duration, i) => ({
        trackName: `Instance ${i} ${randomUUID().slice(0, 6)}`,
        artistName: "Two Processes",
        duration,
        musicProviders: { spotify: `sp-${randomUUID()}` },
      })),
    });
    // The DJ listens on A, the listener on B; the DJ takes the seat through B.
    onA = watch(a.url, dj.token, room.uuid);
    onB = watch(b.url, listener.token, room.uuid);
    await onA.until((s) => (s.listeners?.users ?? 0) === 2);
    await stageClient(b.url, dj.token).takeSeat({ room: room.uuid });
    const first = await onB.until((s) => s.play !== undefined);
    await onA.until((s) => s.version >= first.version);
    const target = onA.version > onB.version ? onA.version : onB.version;
    await onA.until((s) => s.version >= target);
    await onB.until((s) => s.version >= target);
    // Every version both saw is the same stage on both (they may have started at different versions).
    const common = onA.versions.filter((v) => onB.byVersion.has(v));
    expect(common.length).toBeGreaterThan(3);
    for (const v of common) expect(JSON.parse(onA.byVersion.get(v)!)).toEqual(JSON.parse(onB.byVersion.get(v)!));
  }, 120_000);

  // Regression (issue 14): a joining listener's driver used to stop before the listener was added, so the
  // process that had not acted never took a dead holder's timer over (in about half of the runs).
  it("the process holding the song timer killed outright mid-song: the next song starts within 2 s of the end", async () => {
    const [a, b] = socials as [(typeof socials)[0], (typeof socials)[0]];
    // Mid-song: at least 1.5 s played and 3 s left.
    const playing = await onB.until(
      (s) =>
        s.play !== undefined &&
        Date.now() - timestampDate(s.play.startedAt!).getTime() >= 1_500 &&
        endOf(s) - Date.now() > 3_000,
      30_000,
      "a song 1.5 s in with 3 s left",
    );
    const holderIsA = (await holderListeners(room.uuid)).includes(dj.uuid);
    const survivor = holderIsA ? onB : onA;
    const victim = holderIsA ? a : b;
    process.kill(-victim.handle.pid, "SIGKILL");
    const end = endOf(playing);
    const killedBefore = end - Date.now();
    const next = await survivor
      .until(
        (s) => s.play !== undefined && s.play.playId !== playing.play!.playId,
        20_000,
        `the next song on the survivor (${holderIsA ? "A" : "B"} killed ${killedBefore} ms before the end)`,
      )
      .catch(async (err: unknown) => {
        // What the store holds, to tell a stuck stage from a stuck stream.
        const stored = await (await h.bus.kv("social-stage")).get(room.uuid);
        const lease = await (await h.bus.kv("social-lease", { ttlMs: 1000 })).get(room.uuid);
        const v = stored ? fromBinary(StageSchema, stored.value).version : -1n;
        throw new Error(
          `${String(err)}; stored version ${v}; lease ${lease ? new TextDecoder().decode(lease.value) : "none"}`,
        );
      });
    const startedAt = timestampDate(next.play!.startedAt!).getTime();
    expect(startedAt - end).toBeLessThanOrEqual(2_000);
    expect(Date.now() - end).toBeLessThan(5_000);
  }, 120_000);
});

describe.skipIf(distributed)("NATS restarted mid-room", () => {
  it("listeners are back on the stage within 3 s of NATS being back", async () => {
    const alive = socials.filter((p) => p.handle.child.exitCode === null && p.handle.child.signalCode === null);
    const social = alive[0]!;
    const dj = await account();
    const room = (await h.client(RoomService, { token: dj.token }).createRoom({ name: `Restart ${randomUUID()}` }))
      .room!;
    await h.client(CrateService, { token: dj.token }).addQueueSongs({
      songs: [{ trackName: `Restart ${randomUUID().slice(0, 6)}`, artistName: "NATS", duration: 60 }],
    });
    const before = watch(social.url, dj.token, room.uuid);
    await stageClient(social.url, dj.token).takeSeat({ room: room.uuid });
    const playing = await before.until((s) => s.play !== undefined);
    before.close();

    await stopNats();
    await startNats();
    const back = Date.now();
    // A listener who lost the room rejoins until the stage answers again, then acts: the patch comes back.
    let after: ReturnType<typeof watch> | undefined;
    let rejoined: Stage | undefined;
    while (!rejoined && Date.now() - back < 30_000) {
      after?.close();
      after = watch(social.url, dj.token, room.uuid);
      rejoined = await after.until(() => true, 500).catch(() => undefined);
    }
    const rejoinMs = Date.now() - back;
    expect(rejoined?.play?.playId).toBe(playing.play!.playId);
    await stageClient(social.url, dj.token).leaveSeat({ room: room.uuid });
    await after!.until((s) => s.seats.length === 0, 5_000);
    const actMs = Date.now() - back;
    after!.close();
    expect(rejoinMs).toBeLessThanOrEqual(3_000);
    expect(actMs).toBeLessThanOrEqual(3_000 + 2_000);
  }, 120_000);
});

describe.skipIf(distributed)("NATS stopped across a song's end (issue 28)", () => {
  it("the next song is late by at most the outage, on both processes, and starts once", async () => {
    // The process kill above left one: a second one again, so the lease may move between two.
    while (socials.filter((p) => p.handle.child.exitCode === null && p.handle.child.signalCode === null).length < 2) {
      await startSocial();
    }
    const [a, b] = socials.filter((p) => p.handle.child.exitCode === null && p.handle.child.signalCode === null) as [
      (typeof socials)[0],
      (typeof socials)[0],
    ];
    const dj = await account();
    const listener = await account();
    const room = (await h.client(RoomService, { token: dj.token }).createRoom({ name: `Outage ${randomUUID()}` }))
      .room!;
    const titles = [3, 60, 60].map((_, i) => `Outage ${i} ${randomUUID().slice(0, 6)}`);
    await h.client(CrateService, { token: dj.token }).addQueueSongs({
      songs: [3, 60, 60].map((duration, i) => ({
        trackName: titles[i]!,
        artistName: "NATS Outage",
        duration,
        musicProviders: { spotify: `sp-${randomUUID()}` },
      })),
    });
    const onA = watch(a.url, dj.token, room.uuid);
    const onB = watch(b.url, listener.token, room.uuid);
    await onA.until((s) => (s.listeners?.users ?? 0) === 2);
    await stageClient(b.url, dj.token).takeSeat({ room: room.uuid });
    const playing = await onA.until((s) => s.play !== undefined);
    const end = endOf(playing);

    // Down a second before the song's end, for 6 s (wall-clock time passing is the scenario, not a synchronisation):
    // a request made during the outage waited for its 5 s timeout after NATS was back, before issue 28.
    await new Promise((r) => setTimeout(r, Math.max(0, end - 1_000 - Date.now())));
    await stopNats();
    const down = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
    await startNats();
    const back = Date.now();

    const isNext = (s: Stage) => s.play !== undefined && s.play.playId !== playing.play!.playId;
    const [nextA, nextB] = await Promise.all([
      onA.until(isNext, 20_000, "the next song on A"),
      onB.until(isNext, 20_000, "the next song on B"),
    ]);
    const seenMs = Date.now() - back;
    // Both processes' listeners come to the same version, with the same play (one start, not one per process).
    const target = onA.version > onB.version ? onA.version : onB.version;
    const [lastA, lastB] = await Promise.all([
      onA.until((s) => s.version >= target),
      onB.until((s) => s.version >= target),
    ]);
    onA.close();
    onB.close();
    const startedAt = timestampDate(nextA.play!.startedAt!).getTime();
    process.stdout.write(
      `two processes, NATS down ${back - down} ms across a song's end: next song ${startedAt - end} ms after its ` +
        `scheduled start, seen on both ${seenMs} ms after NATS was back\n`,
    );
    // Within 3 s of NATS being back: the defect waited for a request's 5 s timeout first; 3 s leaves a loaded CI room.
    expect(seenMs).toBeLessThanOrEqual(3_000);
    expect(startedAt).toBeGreaterThanOrEqual(end);
    expect(startedAt - back).toBeLessThanOrEqual(3_000);
    expect(nextB.play!.playId).toBe(nextA.play!.playId);
    expect(lastA.play!.playId).toBe(nextA.play!.playId);
    expect(lastB.play!.playId).toBe(nextA.play!.playId);
    // The DJ's second song: none was passed over, the DJ kept the seat, the versions only went up.
    expect(nextA.play!.song!.trackName).toBe(titles[1]);
    expect(lastA.seats.map((s) => s.userUuid)).toEqual([dj.uuid]);
    for (const w of [onA, onB]) {
      for (let i = 1; i < w.versions.length; i++) expect(w.versions[i]!).toBeGreaterThan(w.versions[i - 1]!);
    }
  }, 180_000);
});

/** The signed-in listeners of the process holding the room's song-timer lease (its instance's presence entry). */
async function holderListeners(roomUuid: string): Promise<string[]> {
  // The buckets' options as the social service opens them (lease TTL as configured above, presence 15 s).
  const holder = await (await h.bus.kv("social-lease", { ttlMs: 1000 })).get(roomUuid);
  if (!holder) throw new Error("no lease holder");
  const instance = new TextDecoder().decode(holder.value);
  const entry = await (await h.bus.kv("social-presence", { ttlMs: 15_000 })).get(`${roomUuid}.${instance}`);
  if (!entry) throw new Error("no presence entry of the lease holder");
  return (JSON.parse(new TextDecoder().decode(entry.value)) as { users: [string, number][] }).users.map(([u]) => u);
}
