import type { Client } from "@connectrpc/connect";
import type { Crate, CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import type { Song, SongInput } from "@tt/proto/tt/playlist/v1/song_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { SongInputSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { PAGE_SIZE, queryKeys } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";

export { CrateService };
export type { Crate, CrateSong, SongInput };
export type CrateClient = Client<typeof CrateService>;
export type SongInputInit = MessageInitShape<typeof SongInputSchema>;

/** Which crate a screen shows: one of the two special ones, or a crate by uuid. */
export type CrateTarget = { special: "queue" | "likes" } | { crateUuid: string };

export const targetKey = (target: CrateTarget): string =>
  "special" in target ? `special:${target.special}` : target.crateUuid;

/** A page of a crate's songs as every list call answers it; the first page also carries the crate. */
export interface SongPage {
  songs: CrateSong[];
  total: number;
  offset: number;
  crate?: Crate | undefined;
}

/**
 * Query keys of the crates app. All of them start with the kit's "crates" family, so they carry the spec's
 * 60-second staleness (002 §9) from the query client's defaults.
 */
export const crateKeys = {
  all: (userUuid: string) => queryKeys.crates(userUuid),
  list: (userUuid: string) => [...queryKeys.crates(userUuid), "list"] as const,
  songs: (userUuid: string, target: CrateTarget) =>
    [...queryKeys.crates(userUuid), "songs", targetKey(target)] as const,
};

export function useCrateClient(): CrateClient {
  return useClient(CrateService);
}

/** The calls on one crate, whichever paths it lives under (the special crates have their own). */
export interface CrateOps {
  get(): Promise<Crate | undefined>;
  listSongs(offset: number, limit?: number): Promise<SongPage>;
  move(crateSongUuid: string, newPosition: number): Promise<unknown>;
  remove(crateSongUuid: string): Promise<unknown>;
  shuffle(): Promise<Crate | undefined>;
  add(songs: SongInputInit[]): Promise<unknown>;
  /** Only the special crates can be cleared. */
  clear?: () => Promise<Crate | undefined>;
}

export function crateOps(client: CrateClient, target: CrateTarget): CrateOps {
  const limit = PAGE_SIZE.crateSongs;
  if ("crateUuid" in target) {
    const crateUuid = target.crateUuid;
    return {
      get: async () => (await client.getCrate({ crateId: crateUuid })).crate,
      listSongs: async (offset, pageSize = limit) => {
        const page = await client.listCrateSongs({ crateUuid, offset, limit: pageSize });
        return { songs: page.songs, total: page.total, offset };
      },
      move: (crateSongUuid, newPosition) => client.moveCrateSong({ crateUuid, crateSongUuid, newPosition }),
      remove: (crateSongUuid) => client.removeCrateSong({ crateUuid, crateSongUuid }),
      shuffle: async () => (await client.shuffleCrateSongs({ crateUuid })).crate,
      add: (songs) => client.addCrateSongs({ crateUuid, songs }),
    };
  }
  if (target.special === "queue") {
    return {
      get: async () => (await client.getQueue({ limit })).crate,
      listSongs: async (offset, pageSize = limit) => {
        const page = await client.listQueueSongs({ offset, limit: pageSize });
        return { songs: page.songs, total: page.total, offset };
      },
      move: (crateSongUuid, newPosition) => client.moveQueueSong({ crateSongUuid, newPosition }),
      remove: (crateSongUuid) => client.removeQueueSong({ crateSongUuid }),
      shuffle: async () => (await client.shuffleQueueSongs({})).crate,
      add: (songs) => client.addQueueSongs({ songs }),
      clear: async () => (await client.clearQueueSongs({})).crate,
    };
  }
  return {
    get: async () => (await client.getLikes({ limit })).crate,
    listSongs: async (offset, pageSize = limit) => {
      const page = await client.listLikesSongs({ offset, limit: pageSize });
      return { songs: page.songs, total: page.total, offset };
    },
    move: (crateSongUuid, newPosition) => client.moveLikesSong({ crateSongUuid, newPosition }),
    remove: (crateSongUuid) => client.removeLikesSong({ crateSongUuid }),
    shuffle: async () => (await client.shuffleLikesSongs({})).crate,
    add: (songs) => client.addLikesSongs({ songs }),
    clear: async () => (await client.clearLikesSongs({})).crate,
  };
}

/** Moves the item at `from` to `to` (both 0-based), as the server will. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** What a crate needs to add a search result: its catalogue id, or its data when it has none yet. */
export function songInputOf(song: Song): SongInputInit {
  if (song.songId) return { songId: song.songId };
  return {
    isrc: song.isrc,
    trackName: song.trackName,
    artistName: song.artistName,
    duration: song.duration,
    explicit: song.explicit,
    musicProviders: song.musicProviders,
    thumbnails: song.thumbnails,
    links: song.links,
    previews: song.previews,
    genre: song.genre,
    albumName: song.albumName,
    releaseYear: song.releaseYear,
  };
}
