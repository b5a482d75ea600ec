// Packages one song: the original from the object store → FFmpeg → every rendition's files into the store →
// one transaction that makes the song VERIFIED and announces it (tt.upload.song.published). Nothing is visible
// before that transaction: the segment URLs name the media version, which the song only gets there.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LockMode } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { publishEvent, type ObjectStore } from "@tt/kit";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import type { Logger } from "pino";
import { FfmpegError, packageHls, QUALITIES } from "./ffmpeg.ts";
import { mediaVersionOf, renditionPrefix, sourceKey } from "../modules/songs/song-keys.ts";
import { awaitsPackaging, transition, type SongStatusName } from "../modules/songs/song-states.ts";
import { publishedEvent } from "../modules/songs/song-view.ts";
import { Song } from "../modules/songs/song.entity.ts";

export interface PackagerDeps {
  orm: MikroORM;
  store: ObjectStore;
  ffmpeg: string;
  logger: Logger;
  timeoutMs: number;
}

export type PackagingOutcome = "verified" | "skipped" | "failed";

/**
 * Packages the song if it still awaits packaging. Throws (so the job comes again) when the attempt failed for a
 * passing reason or `signal` stopped it; a file FFmpeg cannot decode ends VERIFICATION_ERROR.
 */
export async function packageSong(deps: PackagerDeps, uuid: string, signal: AbortSignal): Promise<PackagingOutcome> {
  const song = await deps.orm.em.fork().findOne(Song, { uuid });
  if (!song || !awaitsPackaging(song.status)) return "skipped";
  const work = await mkdtemp(join(tmpdir(), "tt-upload-"));
  try {
    const source = await deps.store.get(sourceKey(uuid));
    if (!source) {
      await setOutcome(deps, uuid, "packagingFailed", "the uploaded file is missing from the object store");
      return "failed";
    }
    const version = mediaVersionOf(uuid, createHash("sha256").update(source.body).digest("hex"));
    const input = join(work, "source");
    await writeFile(input, source.body);
    const out = join(work, "out");
    let reported = 0;
    let writing = Promise.resolve();
    try {
      await packageHls({
        ffmpeg: deps.ffmpeg,
        input,
        outDir: out,
        key: song.hlsKey,
        iv: song.hlsIv,
        duration: song.duration,
        signal,
        timeoutMs: deps.timeoutMs,
        onProgress: (fraction) => {
          // Encoding is 90 % of the work, the upload of the files the rest; one write per 5 %.
          const percent = Math.floor(fraction * 90);
          if (percent < reported + 5) return;
          reported = percent;
          writing = writing.then(() => saveProgress(deps, uuid, percent)).catch(() => undefined);
        },
      });
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof FfmpegError) {
        await setOutcome(deps, uuid, "packagingFailed", err.message.slice(0, 500));
        return "failed";
      }
      throw err;
    }
    await writing;
    for (const q of QUALITIES) {
      const dir = join(out, q.name);
      const names = (await readdir(dir)).filter((n) => /^seg_\d{5}\.ts$/.test(n) || n === "index.m3u8").sort();
      // Segments first, the playlist last: a playlist in the store always names segments that are there.
      for (const name of [...names.filter((n) => n !== "index.m3u8"), "index.m3u8"]) {
        if (signal.aborted) throw signal.reason as Error;
        const type = name.endsWith(".ts") ? "video/mp2t" : "application/vnd.apple.mpegurl";
        await deps.store.put(
          `${renditionPrefix(uuid, version, q.name)}/${name}`,
          await readFile(join(dir, name)),
          type,
        );
      }
    }
    const verified = await deps.orm.em.fork().transactional(async (em) => {
      const current = await em.findOne(Song, { uuid }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!current || !awaitsPackaging(current.status)) return false;
      current.status = transition(current.status as SongStatusName, "packaged");
      current.mediaVersion = version;
      current.progress = 100;
      current.statusMessage = "";
      publishEvent(em, UploadedSongPublishedSchema, publishedEvent(current));
      return true;
    });
    return verified ? "verified" : "skipped";
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function saveProgress(deps: PackagerDeps, uuid: string, percent: number): Promise<void> {
  await deps.orm.em
    .fork()
    .nativeUpdate(Song, { uuid, status: { $in: ["UNVERIFIED", "VERIFICATION_POSTPONED"] } }, { progress: percent });
}

/** Records a failed or postponed attempt (when the song still awaits packaging). */
export async function setOutcome(
  deps: Pick<PackagerDeps, "orm">,
  uuid: string,
  event: "packagingFailed" | "packagingPostponed",
  message: string,
): Promise<void> {
  await deps.orm.em.fork().transactional(async (em) => {
    const song = await em.findOne(Song, { uuid }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!song || !awaitsPackaging(song.status)) return;
    song.status = transition(song.status as SongStatusName, event);
    song.statusMessage = message.slice(0, 500);
    if (event === "packagingFailed") song.progress = 0;
  });
}
