// The demo catalogue: every demo synthesises with FFmpeg, seeding is idempotent, and a seeded demo is packaged
// like an upload into a public, labelled, VERIFIED song announced to the catalogue as a demo.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger, FsObjectStore, OutboxMessage } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadServiceDefinition } from "../../index.ts";
import { defaultFfmpegPath, runFfmpeg } from "../../packaging/ffmpeg.ts";
import { ADMIN_ENV } from "../../testing/fixtures.ts";
import { Song } from "../songs/song.entity.ts";
import { DEMO_OWNER, DEMO_SONGS, demoUuid, seedDemoSongs } from "./demo-songs.ts";

let h: ServiceHarness;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-upload-demo-"));
  h = await createServiceHarness(uploadServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { ...ADMIN_ENV, MEDIA_DIR: mediaDir },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

describe("demo songs", () => {
  it.each(DEMO_SONGS.map((d) => [d.slug, d] as const))("%s synthesises (aevalsrc)", async (_slug, demo) => {
    const flac = await runFfmpeg(defaultFfmpegPath(), [
      ...["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi"],
      ...["-i", `aevalsrc=exprs=${demo.expression}:s=44100:d=1`, "-c:a", "flac", "-f", "flac", "pipe:1"],
    ]);
    expect(flac.subarray(0, 4).toString("latin1")).toBe("fLaC");
    expect(demo.seconds).toBeGreaterThanOrEqual(20);
    expect(demo.seconds).toBeLessThanOrEqual(40);
  });

  it("seeding twice adds a demo once; it ends VERIFIED, public, labelled and announced as a demo", async () => {
    const opts = {
      orm: h.orm,
      store: new FsObjectStore(mediaDir),
      ffmpeg: defaultFfmpegPath(),
      shards: 4,
      logger: createLogger({ service: "demo-test", level: "silent" }),
      songs: [{ ...DEMO_SONGS[0]!, seconds: 3 }],
    };
    expect(await seedDemoSongs(opts)).toBe(1);
    expect(await seedDemoSongs(opts)).toBe(0);
    const uuid = demoUuid(DEMO_SONGS[0]!.slug);
    const song = await eventually(
      "the demo VERIFIED",
      async () => {
        const s = await h.orm.em.fork().findOneOrFail(Song, { uuid });
        return s.status === "VERIFIED" && s;
      },
      { timeoutMs: 60_000 },
    );
    expect(song).toMatchObject({ owner: DEMO_OWNER, public: true, demo: true, trackName: "Demo: Sine Arpeggio" });
    expect(await h.orm.em.fork().count(Song, { uuid })).toBe(1);
    const events = (await h.orm.em.fork().find(OutboxMessage, { subject: "tt.upload.song.published" })).map((m) =>
      fromBinary(UploadedSongPublishedSchema, m.payload as Uint8Array),
    );
    expect(events.filter((e) => e.songUuid === uuid)).toEqual([
      expect.objectContaining({ demo: true, public: true, artistName: "turntable demo" }),
    ]);
  }, 90_000);
});
