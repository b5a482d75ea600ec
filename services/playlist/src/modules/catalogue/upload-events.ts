// The upload service's songs enter the catalogue through its events (proto/tt/upload/v1/events.proto, the
// contract): a published song is created or updated as a catalogue song with musicProviders.uploadService = its
// numeric id and its HLS playlist as streamUrls.uploadService.hls; a removed one stays in crates but is no
// longer available (search and GET /api/v1/songs leave it out). Exactly once per event (consumeEvents).
import type { EntityManager } from "@mikro-orm/postgresql";
import { consumeEvents, deploymentDurable, type Subscription } from "@tt/kit";
import {
  UploadedSongPublishedSchema,
  UploadedSongRemovedSchema,
  type UploadedSongPublished,
  type UploadedSongRemoved,
} from "@tt/proto/tt/upload/v1/events_pb";
import type { PlaylistServiceContext } from "../../context.ts";
import { findOrCreateSong } from "./catalogue.ts";
import { Song } from "./song.entity.ts";

/** The catalogue song of an uploaded song, created or brought up to date with the event's whole song. */
export async function applyUploadedSongPublished(em: EntityManager, event: UploadedSongPublished): Promise<Song> {
  const uploadId = event.songId.toString();
  const thumbnails: Record<string, string> = event.thumbnailUrl ? { uploadService: event.thumbnailUrl } : {};
  return findOrCreateSong(
    em,
    {
      isrc: event.isrc,
      trackName: event.trackName || "Untitled",
      artistName: event.artistName || "Unknown artist",
      duration: event.duration,
      explicit: event.explicit,
      musicProviders: { uploadService: uploadId },
      thumbnails,
      genre: event.genre,
      albumName: event.albumName,
      releaseYear: event.releaseYear,
      streamUrls: { uploadService: { hls: event.hlsPlaylistUrl } },
    },
    {
      field: "uploadedSong",
      upload: { uploadSongUuid: event.songUuid, ownerUuid: event.ownerUuid, public: event.public, demo: event.demo },
    },
  );
}

/** Marks the uploaded song unavailable (crates keep it; it can no longer be played or found). */
export async function applyUploadedSongRemoved(em: EntityManager, event: UploadedSongRemoved): Promise<void> {
  const song = await em.findOne(Song, { uploadSongUuid: event.songUuid });
  if (!song) return;
  song.available = false;
  song.streamUrls = Object.fromEntries(Object.entries(song.streamUrls).filter(([k]) => k !== "uploadService"));
  await em.flush();
}

/** Subscribes to both upload events; `unsubscribe` ends both. */
export async function startUploadConsumer(svc: PlaylistServiceContext): Promise<{ unsubscribe(): Promise<void> }> {
  const durable = deploymentDurable(svc.orm, "playlist-catalogue-uploads", {
    configured: svc.config.catalogue.CATALOGUE_UPLOAD_DURABLE,
  });
  const subs: Subscription[] = [];
  subs.push(
    await consumeEvents(
      svc.bus,
      UploadedSongPublishedSchema,
      (event, ctx) => applyUploadedSongPublished(ctx.em, event).then(() => undefined),
      {
        durable: `${durable}-published`,
        orm: svc.orm,
        logger: svc.logger,
      },
    ),
  );
  subs.push(
    await consumeEvents(svc.bus, UploadedSongRemovedSchema, (event, ctx) => applyUploadedSongRemoved(ctx.em, event), {
      durable: `${durable}-removed`,
      orm: svc.orm,
      logger: svc.logger,
    }),
  );
  return {
    async unsubscribe() {
      await Promise.all(subs.map((s) => s.unsubscribe()));
    },
  };
}
