import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { SongSchema } from "../catalogue/song.entity.ts";
import { CrateSchema } from "./crate.entity.ts";

/**
 * A song at a place of a crate. `rank` orders the crate (gapped: neighbours are RANK_GAP apart when written, a
 * move takes the midpoint of its new neighbours and touches one row; the crate is renumbered only when two
 * neighbours have no room left). A song is in a crate at most once (002 §5's same-track rule resolves a track to
 * one catalogue song, so the unique (crate, song) is the merge rule).
 */
export const CrateSongSchema = defineEntity({
  name: "CrateSong",
  tableName: "crate_song",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    crate: () => p.manyToOne(CrateSchema).deleteRule("cascade"),
    song: () => p.manyToOne(SongSchema).index(),
    rank: p.bigint("number"),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ["crate", "rank"] }, { properties: ["crate", "song"] }],
});

export class CrateSong extends CrateSongSchema.class {}
CrateSongSchema.setClass(CrateSong);
