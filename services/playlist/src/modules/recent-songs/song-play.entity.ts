import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { SongSchema } from "../catalogue/song.entity.ts";

/** One play of a song in a room, stored by the room's uuid (a new slug keeps the history). */
export const SongPlaySchema = defineEntity({
  name: "SongPlay",
  tableName: "song_play",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    roomUuid: p.uuid(),
    song: () => p.manyToOne(SongSchema).deleteRule("cascade").index(),
    djUuid: p.uuid().nullable(),
    playedAt: p.datetime(),
  },
  indexes: [{ properties: ["roomUuid", "playedAt"] }],
});

export class SongPlay extends SongPlaySchema.class {}
SongPlaySchema.setClass(SongPlay);
