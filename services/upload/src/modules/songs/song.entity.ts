import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * An uploaded song. `id` is the numeric id of the REST paths (`/songs/{id}`); `uuid` names its objects in the
 * store: the original under `uploads/<uuid>/source`, the packaged media under `songs/<uuid>/<mediaVersion>/`.
 * `status` holds a SongStatus wire name (song-states.ts decides every change).
 */
export const SongSchema = defineEntity({
  name: "Song",
  tableName: "song",
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p
      .uuid()
      .unique()
      .onCreate(() => randomUUID()),
    owner: p.uuid().index(),
    trackName: p.string().length(200).default(""),
    artistName: p.string().length(200).default(""),
    albumName: p.string().length(200).default(""),
    genre: p.string().length(100).default(""),
    releaseYear: p.integer().default(0),
    duration: p.double().runtimeType("number").$type<number>().default(0),
    explicit: p.boolean().default(false),
    isrc: p.string().length(12).default(""),
    status: p.string().length(32),
    statusMessage: p.string().length(500).default(""),
    progress: p.integer().default(0),
    public: p.boolean().default(false),
    demo: p.boolean().default(false),
    fileType: p.string().length(8),
    sourceBytes: p.integer().default(0),
    // The AES-128 key and IV of the segments (never leave the service but through GET /songs/hls/key).
    hlsKey: p.blob(),
    hlsIv: p.blob(),
    // Set once every rendition is in the store; the segment URLs name it, so they never change.
    mediaVersion: p.string().length(32).default(""),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class Song extends SongSchema.class {}
SongSchema.setClass(Song);
