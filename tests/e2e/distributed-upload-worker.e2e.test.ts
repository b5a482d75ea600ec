// Issue 12: in distributed mode packaging runs in the upload service's worker process of its own (the chart's
// upload-worker Deployment, UPLOAD_ROLE=worker), never in the process behind its Service (UPLOAD_ROLE=api); and
// a worker killed outright (SIGKILL of its whole process group, as a node losing the pod would) halfway through
// a packaging leaves the song unpublished, and its replacement takes the job up and makes the song VERIFIED
// exactly once: one publication in the outbox, and no job left pending on the work queue.
//
// FFmpeg reads the song at its own pace here (support/paced-ffmpeg.sh): a short song is still being packaged
// when the worker is killed, on any machine, and packaging it twice costs little CPU (the 150 s song this used
// made its packagings take minutes on a loaded two-core machine). A dead worker's job waits
// UPLOAD_JOB_ACK_WAIT_MS (5 s here instead of 30 s) before the replacement takes it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createTestDatabase,
  eventually,
  removeDeploymentFromNats,
  TEST_DATABASE_POOL_MAX,
  uniqueDeploymentName,
} from "@tt/kit/testing";
import { deploymentNames } from "@tt/kit";
import { startDistributed, type Distributed } from "@tt/platform/distributed";
import { alive } from "@tt/platform/orphans";
import { defaultFfmpegPath } from "@tt/upload-service/packaging/ffmpeg";
import { jobDurable } from "@tt/upload-service/packaging/jobs";
import { makeAudio } from "@tt/upload-service/testing";

const ADMIN = { email: "admin@example.test", password: "admin-password-1" };
const SHARDS = 4; // UPLOAD_PACKAGING_SHARDS' default, which the chart keeps
/** Packaging takes about this long (paced FFmpeg): the kill comes after the first 5 %, far from the end. */
const SONG_SECONDS = 10;

let platform: Distributed;
let db: { url: string; drop(): Promise<void> };

/** The pids of the FFmpeg processes whose parent is `pid` (Linux /proc). */
function ffmpegChildrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (ppid === pid && cmd.split("\0")[0]!.endsWith("ffmpeg")) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

async function call(method: string, path: string, token?: string, body?: unknown | FormData) {
  const form = body instanceof FormData;
  const res = await fetch(platform.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !form ? { "content-type": "application/json" } : {}),
    },
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** This file's platform's name on the run's NATS (issue 23). */
const deployment = deploymentNames(uniqueDeploymentName("upload-worker"));

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  platform = await startDistributed({
    databaseUrl: db.url,
    natsUrl: inject("natsUrl"),
    port: 0,
    forwardOutput: false,
    env: {
      LOG_LEVEL: "warn",
      DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      FFMPEG_PATH: path.resolve(import.meta.dirname, "support/paced-ffmpeg.sh"),
      PACED_FFMPEG: defaultFfmpegPath(),
      UPLOAD_JOB_ACK_WAIT_MS: "5000",
      DEPLOYMENT_NAME: deployment.deployment,
    },
  });
}, 240_000);

afterAll(async () => {
  await platform?.close();
  await db?.drop();
  await removeDeploymentFromNats(inject("natsUrl"), deployment.deployment);
});

describe("issue 12: the upload worker process", () => {
  it("packages in the worker process; killed halfway, its replacement makes the song VERIFIED exactly once", async () => {
    const worker = () => platform.processes.find((p) => p.name === "upload-worker")!;
    const api = platform.processes.find((p) => p.name === "upload")!;
    expect(worker()).toBeDefined();

    const signUp = await call("POST", "/api/user-service/users/sign-up", undefined, {
      email: "packager@example.test",
      password: "correct-horse-1",
    });
    expect(signUp.status).toBe(200);
    const owner = signUp.body as { user: { uuid: string }; accessToken: { token: string } };
    const login = await call("POST", "/api/user-service/auth/login", undefined, ADMIN);
    const admin = (login.body.accessToken as { token: string }).token;
    const grant = await call("PUT", `/api/user-service/users/${owner.user.uuid}/capabilities/uploadMusic`, admin, {});
    expect(grant.status).toBe(200);

    const audio = await makeAudio({ seconds: SONG_SECONDS, title: "Killed Halfway", artist: "Worker" });
    const form = new FormData();
    form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "long.mp3");
    const uploaded = await call("POST", "/api/room-service/upload/song", owner.accessToken.token, form);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.status).toBe("UNVERIFIED");
    const songId = uploaded.body.songId as string;
    const song = async () =>
      (await call("GET", `/api/room-service/songs/${songId}`, owner.accessToken.token)).body as {
        status: string;
        progress: number;
      };

    // FFmpeg runs under the worker, and under no process that serves the API.
    await eventually("FFmpeg under the worker process", async () => ffmpegChildrenOf(worker().pid).length > 0, {
      timeoutMs: 120_000,
    });
    expect(ffmpegChildrenOf(api.pid)).toEqual([]);
    await eventually("some packaging progress", async () => (await song()).progress > 0, { timeoutMs: 120_000 });

    const killed = worker().pid;
    const ffmpeg = ffmpegChildrenOf(killed);
    // Its own process group (the supervisor starts each child detached): FFmpeg goes down with it.
    process.kill(-killed, "SIGKILL");
    await eventually("the worker and its FFmpeg gone", async () => ![killed, ...ffmpeg].some(alive));

    const halfway = await song();
    expect(halfway.status).toBe("UNVERIFIED");
    expect(halfway.progress).toBeLessThan(100);
    const unplayable = await call("GET", `/api/room-service/songs/${songId}/hls-playlist`, owner.accessToken.token);
    expect(unplayable).toMatchObject({ status: 403, body: { message: "Song is not verified" } });

    // The cluster replaces the pod.
    const replacement = await platform.restart("upload-worker");
    expect(replacement.pid).not.toBe(killed);
    const done = await eventually(
      "VERIFIED",
      async () => {
        const now = await song();
        return now.status === "VERIFIED" && now;
      },
      { timeoutMs: 240_000 },
    );
    expect(done.progress).toBe(100);

    // Exactly once: the killed worker's job comes back after its ack wait and finds the song done; wait until no
    // job is pending or unacknowledged on any shard, then count the publications.
    const nats = await connect({ servers: inject("natsUrl") });
    try {
      const jsm = await jetstreamManager(nats);
      await eventually(
        "every packaging job acknowledged",
        async () => {
          for (let shard = 0; shard < SHARDS; shard++) {
            const info = await jsm.consumers.info(
              deployment.stream("TT_UPLOAD"),
              deployment.consumer(jobDurable(shard)),
            );
            if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
          }
          return true;
        },
        { timeoutMs: 120_000 },
      );
    } finally {
      await nats.close();
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const published = await client.query(
        `select count(*)::int as n from "upload"."outbox_message" where subject = 'tt.upload.song.published'`,
      );
      expect(published.rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
    expect((await song()).status).toBe("VERIFIED");
  }, 600_000);
});
