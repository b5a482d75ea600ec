import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { CrateSchema, CrateSongSchema, type Crate, type CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import type { SongInput } from "@tt/proto/tt/playlist/v1/song_pb";

export const TEST_USER_UUID = "00000000-0000-4000-8000-000000000001";

interface StoredCrate {
  crate: Crate;
  songs: CrateSong[];
}

/** A hold on one call: the call waits until `release` (or `fail`) is called. */
export interface Gate {
  reached: Promise<void>;
  release: () => void;
  fail: (error: Error) => void;
}

export interface TestCrateService {
  routes: (router: ConnectRouter) => void;
  /** Every call in order, by method name ("ClearQueueSongs", "CopyCrate"…). */
  calls: string[];
  crates: Map<string, StoredCrate>;
  queue: StoredCrate;
  likes: StoredCrate;
  addCrate(name: string, songs: string[], init?: MessageInitShape<typeof CrateSchema>): StoredCrate;
  /** The next call of `method` fails with this error. */
  failNext(method: string, error: ConnectError): void;
  /** The next call of `method` waits for the returned gate. */
  hold(method: string): Gate;
}

let counter = 0;
const uuid = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, "0")}`;

export function songOf(name: string, index = 0): CrateSong {
  return create(CrateSongSchema, {
    crateSongUuid: uuid(),
    position: index,
    songId: uuid(),
    trackName: name,
    artistName: `${name} artist`,
    duration: 180 + index,
    available: true,
  });
}

/**
 * A small, honest in-memory playlist service (the crate calls) for the crates app's component tests, served
 * through Connect's router transport, so the screens are tested against the real protocol and shapes.
 */
export function createTestCrateService(): TestCrateService {
  const calls: string[] = [];
  const failures = new Map<string, ConnectError>();
  const holds = new Map<string, { wait: Promise<void>; arrived: () => void }>();
  const crates = new Map<string, StoredCrate>();

  const make = (name: string, songs: CrateSong[], init: MessageInitShape<typeof CrateSchema> = {}) => {
    const stored: StoredCrate = {
      crate: create(CrateSchema, { crateUuid: uuid(), crateName: name, userUuid: TEST_USER_UUID, ...init }),
      songs,
    };
    crates.set(stored.crate.crateUuid, stored);
    return stored;
  };
  const queue = make("default", [], { special: "queue" });
  const likes = make("tt-stars", [], { special: "likes" });

  const view = (stored: StoredCrate, withSongs: boolean): Crate => {
    stored.songs.forEach((song, index) => (song.position = index));
    return create(CrateSchema, {
      ...stored.crate,
      crateSongsNumber: stored.songs.length,
      count: withSongs ? Math.min(stored.songs.length, 300) : 0,
      songs: withSongs ? stored.songs.slice(0, 300).map((song) => create(CrateSongSchema, song)) : [],
    });
  };

  const enter = async (method: string) => {
    calls.push(method);
    const hold = holds.get(method);
    if (hold) {
      holds.delete(method);
      hold.arrived();
      await hold.wait;
    }
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      throw failure;
    }
  };

  const find = (id: string) => {
    const stored = crates.get(id);
    if (!stored) throw new ConnectError("crate not found", Code.NotFound);
    return stored;
  };
  const page = (stored: StoredCrate, offset: number, limit: number) => {
    view(stored, false);
    return {
      songs: stored.songs.slice(offset, offset + (limit || 300)),
      total: stored.songs.length,
      limit: limit || 300,
      offset,
    };
  };
  const move = (stored: StoredCrate, crateSongUuid: string, newPosition: number) => {
    const from = stored.songs.findIndex((song) => song.crateSongUuid === crateSongUuid);
    if (from < 0) throw new ConnectError("crate song not found", Code.NotFound);
    const [song] = stored.songs.splice(from, 1);
    stored.songs.splice(Math.min(newPosition, stored.songs.length), 0, song as CrateSong);
    view(stored, false);
    return { song };
  };
  const remove = (stored: StoredCrate, crateSongUuid: string) => {
    const before = stored.songs.length;
    stored.songs = stored.songs.filter((song) => song.crateSongUuid !== crateSongUuid);
    if (stored.songs.length === before) throw new ConnectError("crate song not found", Code.NotFound);
    return { crate: view(stored, false) };
  };
  const add = (stored: StoredCrate, inputs: SongInput[]) => {
    const added = inputs.map((input) =>
      create(CrateSongSchema, {
        crateSongUuid: uuid(),
        songId: input.songId || uuid(),
        trackName: input.trackName,
        artistName: input.artistName,
        duration: input.duration,
        available: true,
      }),
    );
    stored.songs.push(...added);
    return { songs: added, skipped: [], crate: view(stored, false) };
  };
  const shuffle = (stored: StoredCrate) => {
    stored.songs.reverse();
    return { crate: view(stored, true) };
  };

  const routes = (router: ConnectRouter) =>
    router.service(CrateService, {
      listMyCrates: async ({ limit, offset }) => {
        await enter("ListMyCrates");
        const all = [...crates.values()].map((stored) => view(stored, false));
        return { crates: all.slice(offset, offset + (limit || 100)), total: all.length, limit, offset };
      },
      createCrate: async (request) => {
        await enter("CreateCrate");
        const name = request.crateName || `New Playlist #${crates.size - 1}`;
        const stored = make(name, [], request.import ? { importStatus: "IN_PROGRESS" } : {});
        return { crate: view(stored, true) };
      },
      getCrate: async ({ crateId }) => {
        await enter("GetCrate");
        return { crate: view(find(crateId), true) };
      },
      listCrateSongs: async ({ crateUuid, offset, limit }) => {
        await enter("ListCrateSongs");
        return page(find(crateUuid), offset, limit);
      },
      addCrateSongs: async ({ crateUuid, songs }) => {
        await enter("AddCrateSongs");
        return add(find(crateUuid), songs);
      },
      moveCrateSong: async ({ crateUuid, crateSongUuid, newPosition }) => {
        await enter("MoveCrateSong");
        return move(find(crateUuid), crateSongUuid, newPosition);
      },
      removeCrateSong: async ({ crateUuid, crateSongUuid }) => {
        await enter("RemoveCrateSong");
        return remove(find(crateUuid), crateSongUuid);
      },
      shuffleCrateSongs: async ({ crateUuid }) => {
        await enter("ShuffleCrateSongs");
        return shuffle(find(crateUuid));
      },
      deleteCrate: async ({ crateUuid }) => {
        await enter("DeleteCrate");
        const stored = find(crateUuid);
        if (stored.crate.special) throw new ConnectError("special crates cannot be deleted", Code.PermissionDenied);
        crates.delete(crateUuid);
        return {};
      },
      updateCrate: async ({ crateUuid, crateName, description }) => {
        await enter("UpdateCrate");
        const stored = find(crateUuid);
        if (crateName !== undefined) stored.crate.crateName = crateName;
        if (description !== undefined) stored.crate.description = description;
        return { crate: view(stored, false) };
      },
      copyCrate: async ({ crateId, srcCrateId }) => {
        await enter("CopyCrate");
        const target = find(crateId);
        const source = find(srcCrateId);
        target.songs.push(...source.songs.map((song) => create(CrateSongSchema, { ...song, crateSongUuid: uuid() })));
        return { crate: view(target, false) };
      },
      getQueue: async () => {
        await enter("GetQueue");
        return { crate: view(queue, true) };
      },
      listQueueSongs: async ({ offset, limit }) => {
        await enter("ListQueueSongs");
        return page(queue, offset, limit);
      },
      addQueueSongs: async ({ songs }) => {
        await enter("AddQueueSongs");
        return add(queue, songs);
      },
      moveQueueSong: async ({ crateSongUuid, newPosition }) => {
        await enter("MoveQueueSong");
        return move(queue, crateSongUuid, newPosition);
      },
      removeQueueSong: async ({ crateSongUuid }) => {
        await enter("RemoveQueueSong");
        return remove(queue, crateSongUuid);
      },
      clearQueueSongs: async () => {
        await enter("ClearQueueSongs");
        queue.songs = [];
        return { crate: view(queue, true) };
      },
      shuffleQueueSongs: async () => {
        await enter("ShuffleQueueSongs");
        return shuffle(queue);
      },
      getLikes: async () => {
        await enter("GetLikes");
        return { crate: view(likes, true) };
      },
      listLikesSongs: async ({ offset, limit }) => {
        await enter("ListLikesSongs");
        return page(likes, offset, limit);
      },
      addLikesSongs: async ({ songs }) => {
        await enter("AddLikesSongs");
        return add(likes, songs);
      },
      moveLikesSong: async ({ crateSongUuid, newPosition }) => {
        await enter("MoveLikesSong");
        return move(likes, crateSongUuid, newPosition);
      },
      removeLikesSong: async ({ crateSongUuid }) => {
        await enter("RemoveLikesSong");
        return remove(likes, crateSongUuid);
      },
      clearLikesSongs: async () => {
        await enter("ClearLikesSongs");
        likes.songs = [];
        return { crate: view(likes, true) };
      },
      shuffleLikesSongs: async () => {
        await enter("ShuffleLikesSongs");
        return shuffle(likes);
      },
    });

  return {
    routes,
    calls,
    crates,
    queue,
    likes,
    addCrate: (name, songs, init) =>
      make(
        name,
        songs.map((song, index) => songOf(song, index)),
        init,
      ),
    failNext: (method, error) => failures.set(method, error),
    hold: (method) => {
      let release!: () => void;
      let fail!: (error: Error) => void;
      let arrived!: () => void;
      const wait = new Promise<void>((resolve, reject) => {
        release = resolve;
        fail = reject;
      });
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      holds.set(method, { wait, arrived });
      return { reached, release, fail };
    },
  };
}
