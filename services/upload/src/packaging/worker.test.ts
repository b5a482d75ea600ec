// Packaging is a durable job: a worker stopped halfway (its FFmpeg killed) hands the job back, another worker
// takes it up, and the song ends VERIFIED exactly once, with one catalogue event.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger, FsObjectStore, OutboxMessage } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadServiceDefinition } from "../index.ts";
import { sourceKey } from "../modules/songs/song-keys.ts";
import { Song } from "../modules/songs/song.entity.ts";
import { ADMIN_ENV, makeAudio } from "../testing/fixtures.ts";
import { defaultFfmpegPath } from "./ffmpeg.ts";
import { enqueuePackaging } from "./jobs.ts";
import type { PackagingOutcome } from "./packager.ts";
import { startPackagingWorker, type PackagingWorker } from "./worker.ts";

let h: ServiceHarness;
let mediaDir: string;
let store: FsObjectStore;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-upload-worker-"));
  store = new FsObjectStore(mediaDir);
  // UPLOAD_ROLE=api: the instance itself packages nothing; the test's workers do.
  h = await createServiceHarness(uploadServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { ...ADMIN_ENV, MEDIA_DIR: mediaDir, UPLOAD_ROLE: "api" },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

function worker(outcomes: Array<[string, PackagingOutcome]>): Promise<PackagingWorker> {
  return startPackagingWorker({
    bus: h.bus,
    orm: h.orm,
    store,
    ffmpeg: defaultFfmpegPath(),
    logger: createLogger({ service: "worker-test", level: "silent" }),
    shards: 4,
    concurrency: 1,
    timeoutMs: 120_000,
    onOutcome: (uuid, outcome) => outcomes.push([uuid, outcome]),
  });
}

describe("the packaging worker", () => {
  it("a worker stopped mid-job leaves the song to another, which makes it VERIFIED once", async () => {
    const uuid = randomUUID();
    const audio = await makeAudio({ seconds: 40, format: "flac" });
    await store.put(sourceKey(uuid), audio, "audio/flac");
    await h.orm.em.fork().transactional(async (em) => {
      em.create(Song, {
        uuid,
        owner: randomUUID(),
        trackName: "Long",
        artistName: "Worker Test",
        duration: 40,
        status: "UNVERIFIED",
        fileType: "flac",
        sourceBytes: audio.length,
        hlsKey: randomBytes(16),
        hlsIv: randomBytes(16),
      });
      enqueuePackaging(em, uuid, 4);
    });

    const first: Array<[string, PackagingOutcome]> = [];
    const a = await worker(first);
    await eventually("the first worker to be packaging", async () => a.running() === 1, { timeoutMs: 30_000 });
    await eventually("some progress", async () => (await h.orm.em.fork().findOneOrFail(Song, { uuid })).progress > 0, {
      timeoutMs: 30_000,
    });
    await a.close();
    const halfway = await h.orm.em.fork().findOneOrFail(Song, { uuid });
    expect(halfway.status).toBe("UNVERIFIED");
    expect(halfway.mediaVersion).toBe("");
    expect(first).toEqual([]);

    const second: Array<[string, PackagingOutcome]> = [];
    const b = await worker(second);
    try {
      const done = await eventually(
        "VERIFIED",
        async () => {
          const song = await h.orm.em.fork().findOneOrFail(Song, { uuid });
          return song.status === "VERIFIED" && song;
        },
        { timeoutMs: 120_000 },
      );
      expect(done.progress).toBe(100);
      // The worker reports its outcome after the song's commit: wait for the report too, not the row alone.
      await eventually("the second worker's outcome", async () => second.some(([id]) => id === uuid), {
        timeoutMs: 30_000,
      });
      expect(second.filter(([id, outcome]) => id === uuid && outcome === "verified")).toHaveLength(1);
      const events = (await h.orm.em.fork().find(OutboxMessage, { subject: "tt.upload.song.published" }))
        .map((m) => fromBinary(UploadedSongPublishedSchema, m.payload as Uint8Array))
        .filter((e) => e.songUuid === uuid);
      expect(events).toHaveLength(1);
    } finally {
      await b.close();
    }
  }, 180_000);
});
