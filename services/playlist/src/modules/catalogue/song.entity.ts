import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { AlbumSchema } from "./album.entity.ts";
import { ArtistSchema } from "./artist.entity.ts";

export interface StreamUrlsValue {
  http?: string;
  hls?: string;
}

/**
 * A catalogue song: every song a crate holds is one of these (002 §3's crate-song fields without the crate's).
 * Two descriptions of the same track (002 §5) resolve to one row (catalogue.ts, findOrCreateSong).
 */
export const SongSchema = defineEntity({
  name: "Song",
  tableName: "song",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    shortId: p.string().length(16).unique(),
    // Upper-cased; null when unknown.
    isrc: p.string().length(15).nullable().index(),
    trackName: p.string().length(300),
    artistName: p.string().length(300),
    // lower(trackName) and lower(artistName): the name part of the same-track rule looks songs up by both.
    trackKey: p.string().length(300),
    artistKey: p.string().length(300),
    duration: p.double().runtimeType("number").$type<number>().default(0),
    explicit: p.boolean().default(false),
    genre: p.string().length(100).default(""),
    albumName: p.string().length(300).default(""),
    releaseYear: p.integer().default(0),
    album: () => p.manyToOne(AlbumSchema).nullable().deleteRule("set null"),
    artist: () => p.manyToOne(ArtistSchema).nullable().deleteRule("set null"),
    musicProviders: p.json<Record<string, string>>().default("{}"),
    thumbnails: p.json<Record<string, string>>().default("{}"),
    links: p.json<Record<string, string>>().default("{}"),
    previews: p.json<string[]>().default("[]"),
    streamUrls: p.json<Record<string, StreamUrlsValue>>().default("{}"),
    // A SongStatus wire value.
    status: p.string().length(32),
    playbackToken: p.string().length(2048).default(""),
    // Uploaded songs: the upload service's song uuid and uploader; demo songs of the embedded default.
    uploadSongUuid: p.uuid().nullable().unique(),
    ownerUuid: p.uuid().nullable(),
    public: p.boolean().default(true),
    demo: p.boolean().default(false),
    // False once the only provider removed it (an uploaded song deleted): crates keep it, search leaves it out.
    available: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ["trackKey", "artistKey"] }, { properties: ["createdAt"] }],
});

export class Song extends SongSchema.class {}
SongSchema.setClass(Song);
