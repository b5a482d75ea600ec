import { AlbumSchema } from "./album.entity.ts";
import { ArtistSchema } from "./artist.entity.ts";
import { SongProviderIdSchema } from "./song-provider-id.entity.ts";
import { SongSchema } from "./song.entity.ts";

/** The catalogue area's entities. */
export const catalogueEntities = [ArtistSchema, AlbumSchema, SongSchema, SongProviderIdSchema];
