import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { ArtistSchema } from "./artist.entity.ts";

/** A catalogue album: one per artist and album name (compared without case). */
export const AlbumSchema = defineEntity({
  name: "Album",
  tableName: "album",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    shortId: p.string().length(16).unique(),
    name: p.string().length(300),
    nameKey: p.string().length(300),
    artist: () => p.manyToOne(ArtistSchema).deleteRule("cascade"),
    releaseYear: p.integer().default(0),
    thumbnail: p.string().length(2048).default(""),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ["artist", "nameKey"] }],
});

export class Album extends AlbumSchema.class {}
AlbumSchema.setClass(Album);
