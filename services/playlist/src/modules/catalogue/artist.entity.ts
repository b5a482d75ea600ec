import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A catalogue artist: one row per artist name (compared without case). */
export const ArtistSchema = defineEntity({
  name: "Artist",
  tableName: "artist",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    shortId: p.string().length(16).unique(),
    name: p.string().length(300),
    // lower(name): the unique key.
    nameKey: p.string().length(300).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Artist extends ArtistSchema.class {}
ArtistSchema.setClass(Artist);
