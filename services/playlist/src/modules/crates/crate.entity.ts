import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * A crate (playlist) of one user. `special` is "queue" or "likes" for the two special crates (one each per user,
 * the unique index) and null for an ordinary one. `version` grows with every change of its songs.
 */
export const CrateSchema = defineEntity({
  name: "Crate",
  tableName: "crate",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    shortId: p.string().length(16).unique(),
    userUuid: p.uuid(),
    name: p.string().length(100),
    description: p.string().length(1000).default(""),
    special: p.string().length(8).nullable(),
    // A CrateImportStatus wire value; null when not imported.
    importStatus: p.string().length(16).nullable(),
    thumbnails: p.json<string[]>().default("[]"),
    currentPosition: p.integer().default(0),
    songsCount: p.integer().default(0),
    version: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ["userUuid", "createdAt"] }],
  uniques: [{ properties: ["userUuid", "special"] }],
});

export class Crate extends CrateSchema.class {}
CrateSchema.setClass(Crate);
