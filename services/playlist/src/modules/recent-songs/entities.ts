import { RoomSlugSchema } from "./room-slug.entity.ts";
import { SongPlaySchema } from "./song-play.entity.ts";

/** The recent-songs area's entities. */
export const recentSongEntities = [SongPlaySchema, RoomSlugSchema];
