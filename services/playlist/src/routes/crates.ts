// CrateService: the caller's crates, another user's public view, a crate's songs, and the two special crates
// (the queue and the likes crate) under /crate/special/{queue,likes}. Each change runs in one transaction with
// the crate's row locked (modules/crates/crate-store.ts).
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, callIdentity, checkLimit, isUuid, UNAUTHORIZED } from "@tt/kit";
import { create } from "@bufbuild/protobuf";
import { SongInputSchema, type SongInput } from "@tt/proto/tt/playlist/v1/song_pb";
import type { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { resolveSongInputs } from "../modules/catalogue/catalogue.ts";
import type { Song } from "../modules/catalogue/song.entity.ts";
import {
  addSongs,
  clearSongs,
  copySongs,
  CRATE_PAGE,
  crateMessage,
  crateSongAt,
  cratePage,
  createCrate,
  deleteCrate,
  ensureSpecialCrates,
  lockOwnCrate,
  moveSong,
  readableCrate,
  removeSong,
  setCurrentPosition,
  shuffleSongs,
  SONG_PAGE,
  songPage,
  specialCrateId,
  type SpecialKind,
  updateCrate,
} from "../modules/crates/crate-store.ts";
import { Crate } from "../modules/crates/crate.entity.ts";
import { ImportJob } from "../modules/imports/import-job.entity.ts";
import { createImportedCrate } from "../modules/imports/imports.ts";

/** Songs one add may carry (a page). */
export const MAX_ADD = 300;
/** The first songs a crate preview lists when the caller does not say. */
export const PREVIEW_SONGS = 3;

type Impl = ServiceImpl<typeof CrateService>;

/** The caller's uuid; the special crates are created on their first call of any crate RPC. */
async function caller(em: EntityManager, ctx: HandlerContext): Promise<string> {
  const me = callIdentity(ctx).subject;
  // Users' and bots' subjects are their account uuids; anything else owns no crate.
  if (!isUuid(me)) throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
  await ensureSpecialCrates(em, me.toLowerCase());
  return me.toLowerCase();
}

/** Runs `work` in one transaction with the caller's crate locked. */
async function withOwnCrate<T>(
  ctx: HandlerContext,
  crateId: string | { special: SpecialKind },
  work: (em: EntityManager, crate: Crate) => Promise<T>,
): Promise<T> {
  return callEm(ctx).transactional(async (em) => {
    const me = await caller(em, ctx);
    const id = typeof crateId === "string" ? crateId : await specialCrateId(em, me, crateId.special);
    const crate = await lockOwnCrate(em, id, me);
    return work(em, crate);
  });
}

async function resolveSongs(em: EntityManager, inputs: SongInput[]): Promise<Song[]> {
  if (inputs.length === 0) throw new ConnectError("songs missing in request", Code.InvalidArgument);
  if (inputs.length > MAX_ADD)
    throw new ConnectError(`songs must hold between 1 and ${MAX_ADD} songs`, Code.InvalidArgument);
  return resolveSongInputs(em, inputs, "songs");
}

export function crateRoutes(svc: PlaylistServiceContext): Impl {
  const maxSongs = svc.config.crates.CRATE_MAX_SONGS;

  const getCrate = async (
    ctx: HandlerContext,
    crateId: string | { special: SpecialKind },
    limit = SONG_PAGE,
    offset = 0,
  ) => {
    const em = callEm(ctx);
    const me = await caller(em, ctx);
    const id = typeof crateId === "string" ? crateId : await specialCrateId(em, me, crateId.special);
    const crate = await readableCrate(em, id, me);
    return crateMessage(crate, await songPage(em, crate.id, limit, offset));
  };

  const listSongs = async (
    ctx: HandlerContext,
    crateId: string | { special: SpecialKind },
    limitIn: number,
    offset: number,
  ) => {
    const limit = checkLimit(limitIn, SONG_PAGE, SONG_PAGE);
    const em = callEm(ctx);
    const me = await caller(em, ctx);
    const id = typeof crateId === "string" ? crateId : await specialCrateId(em, me, crateId.special);
    const crate = await readableCrate(em, id, me);
    return { songs: await songPage(em, crate.id, limit, offset), total: crate.songsCount, limit, offset };
  };

  const add = (
    ctx: HandlerContext,
    crateId: string | { special: SpecialKind },
    inputs: SongInput[],
    position: number | undefined,
  ) =>
    callEm(ctx).transactional(async (em) => {
      const me = await caller(em, ctx);
      // Catalogue first (its locks), then the crate's row: the same order in every transaction.
      const songs = await resolveSongs(em, inputs);
      const id = typeof crateId === "string" ? crateId : await specialCrateId(em, me, crateId.special);
      const crate = await lockOwnCrate(em, id, me);
      const outcome = await addSongs(em, crate, songs, position, maxSongs);
      return {
        songs: outcome.added,
        skipped: outcome.skipped.map((s) => ({ ...s, reason: "already in crate" })),
        crate: crateMessage(crate),
      };
    });

  const setPosition = (ctx: HandlerContext, crateId: string | { special: SpecialKind }, position: number) =>
    withOwnCrate(ctx, crateId, async (em, crate) => {
      setCurrentPosition(em, crate, position);
      return { crate: crateMessage(crate) };
    });

  const remove = (ctx: HandlerContext, crateId: string | { special: SpecialKind }, crateSongUuid: string) =>
    withOwnCrate(ctx, crateId, async (em, crate) => {
      await removeSong(em, crate, crateSongUuid);
      return { crate: crateMessage(crate) };
    });

  const move = (
    ctx: HandlerContext,
    crateId: string | { special: SpecialKind },
    crateSongUuid: string,
    newPosition: number,
  ) =>
    withOwnCrate(ctx, crateId, async (em, crate) => ({ song: await moveSong(em, crate, crateSongUuid, newPosition) }));

  const shuffle = (ctx: HandlerContext, crateId: string | { special: SpecialKind }) =>
    withOwnCrate(ctx, crateId, async (em, crate) => {
      await shuffleSongs(em, crate);
      await em.flush();
      return { crate: crateMessage(crate, await songPage(em, crate.id, SONG_PAGE, 0)) };
    });

  const clear = (ctx: HandlerContext, crateId: { special: SpecialKind }) =>
    withOwnCrate(ctx, crateId, async (em, crate) => {
      await clearSongs(em, crate);
      return { crate: crateMessage(crate) };
    });

  const queue = { special: "queue" } as const;
  const likes = { special: "likes" } as const;

  return {
    async createCrate(req, ctx) {
      const imported = req.import;
      return callEm(ctx).transactional(async (em) => {
        const me = await caller(em, ctx);
        // With an import, the imports area creates the crate IN_PROGRESS and its background job.
        const crate = imported
          ? await createImportedCrate(
              em,
              svc.music.providers,
              me,
              { crateName: req.crateName, description: req.description, import: imported },
              svc.config.crates.CRATE_MAX_CRATES,
            )
          : await createCrate(em, me, req.crateName, req.description, svc.config.crates.CRATE_MAX_CRATES);
        await em.flush();
        return { crate: crateMessage(crate) };
      });
    },

    async copyCrate(req, ctx) {
      return callEm(ctx).transactional(async (em) => {
        const me = await caller(em, ctx);
        const target = await lockOwnCrate(em, req.crateId, me);
        const source = await readableCrate(em, req.srcCrateId, me);
        await copySongs(em, target, source, maxSongs);
        await em.flush();
        return { crate: crateMessage(target, await songPage(em, target.id, SONG_PAGE, 0)) };
      });
    },

    async listMyCrates(req, ctx) {
      const limit = checkLimit(req.limit, CRATE_PAGE, CRATE_PAGE);
      const em = callEm(ctx);
      const me = await caller(em, ctx);
      const { crates, total } = await cratePage(em, { userUuid: me, ordinaryOnly: false }, limit, req.offset);
      return { crates: crates.map((c) => crateMessage(c)), total, limit, offset: req.offset };
    },

    async listUserCrates(req, ctx) {
      const limit = checkLimit(req.limit, CRATE_PAGE, CRATE_PAGE);
      const em = callEm(ctx);
      const me = await caller(em, ctx);
      const user = req.userUuid.toLowerCase();
      const { crates, total } = await cratePage(em, { userUuid: user, ordinaryOnly: user !== me }, limit, req.offset);
      return { crates: crates.map((c) => crateMessage(c)), total, limit, offset: req.offset };
    },

    async getCrate(req, ctx) {
      return { crate: await getCrate(ctx, req.crateId) };
    },

    async listCrateSongs(req, ctx) {
      return listSongs(ctx, req.crateUuid, req.limit, req.offset);
    },

    async addCrateSongs(req, ctx) {
      return add(ctx, req.crateUuid, req.songs, req.position);
    },

    async setCrateCurrentPosition(req, ctx) {
      return setPosition(ctx, req.crateUuid, req.currentPosition);
    },

    async removeCrateSong(req, ctx) {
      return remove(ctx, req.crateUuid, req.crateSongUuid);
    },

    async moveCrateSong(req, ctx) {
      return move(ctx, req.crateUuid, req.crateSongUuid, req.newPosition);
    },

    async deleteCrate(req, ctx) {
      await withOwnCrate(ctx, req.crateUuid, async (em, crate) => {
        await deleteCrate(em, crate);
        await em.flush();
      });
      return {};
    },

    async updateCrate(req, ctx) {
      return withOwnCrate(ctx, req.crateUuid, async (em, crate) => {
        updateCrate(em, crate, req.crateName, req.description);
        return { crate: crateMessage(crate) };
      });
    },

    async shuffleCrateSongs(req, ctx) {
      return shuffle(ctx, req.crateUuid);
    },

    // The queue (the special crate "default").
    async getQueue(req, ctx) {
      return { crate: await getCrate(ctx, queue, checkLimit(req.limit, SONG_PAGE, SONG_PAGE), req.offset) };
    },
    async listQueueSongs(req, ctx) {
      return listSongs(ctx, queue, req.limit, req.offset);
    },
    async addQueueSongs(req, ctx) {
      return add(ctx, queue, req.songs, req.position);
    },
    async setQueueCurrentPosition(req, ctx) {
      return setPosition(ctx, queue, req.currentPosition);
    },
    async removeQueueSong(req, ctx) {
      return remove(ctx, queue, req.crateSongUuid);
    },
    async moveQueueSong(req, ctx) {
      return move(ctx, queue, req.crateSongUuid, req.newPosition);
    },
    async clearQueueSongs(_req, ctx) {
      return clear(ctx, queue);
    },
    async shuffleQueueSongs(_req, ctx) {
      return shuffle(ctx, queue);
    },

    // The likes crate ("tt-stars").
    async getLikes(req, ctx) {
      return { crate: await getCrate(ctx, likes, checkLimit(req.limit, SONG_PAGE, SONG_PAGE), req.offset) };
    },
    async listLikesSongs(req, ctx) {
      return listSongs(ctx, likes, req.limit, req.offset);
    },
    async addLikesSongs(req, ctx) {
      return add(ctx, likes, req.songs, req.position);
    },
    async setLikesCurrentPosition(req, ctx) {
      return setPosition(ctx, likes, req.currentPosition);
    },
    async removeLikesSong(req, ctx) {
      return remove(ctx, likes, req.crateSongUuid);
    },
    async moveLikesSong(req, ctx) {
      return move(ctx, likes, req.crateSongUuid, req.newPosition);
    },
    async clearLikesSongs(_req, ctx) {
      return clear(ctx, likes);
    },
    async shuffleLikesSongs(_req, ctx) {
      return shuffle(ctx, likes);
    },

    // Service-only (the live stage): the DJ's next song, which moves to the back of their queue.
    async serviceTakeQueueSong(req, ctx) {
      return callEm(ctx).transactional(async (em) => {
        const user = req.userUuid.toLowerCase();
        const crate = await lockOwnCrate(em, await specialCrateId(em, user, "queue"), user);
        const count = crate.songsCount;
        for (let tries = 0; tries < count; tries++) {
          const at = crate.currentPosition < count ? crate.currentPosition : 0;
          const [song] = await songPage(em, crate.id, 1, at);
          if (!song) break;
          await moveSong(em, crate, song.crateSongUuid, count - 1);
          if (song.available) return { song };
        }
        return {};
      });
    },

    // Service-only (the live stage): a like stars the song (likes crate), a grab copies it to a crate.
    async serviceAddUserCrateSong(req, ctx) {
      return callEm(ctx).transactional(async (em) => {
        const user = req.userUuid.toLowerCase();
        const songs = await resolveSongInputs(em, [create(SongInputSchema, { songId: req.songId })], "songId");
        const id = req.crateUuid || (await specialCrateId(em, user, req.special === "queue" ? "queue" : "likes"));
        // Another user's ordinary crate is "not found" here too: the stage names only the caller's crates.
        const crate = await lockOwnCrate(em, id, user).catch((err: unknown) => {
          throw err instanceof ConnectError && err.code === Code.PermissionDenied
            ? new ConnectError("crate not found", Code.NotFound)
            : err;
        });
        const outcome = await addSongs(em, crate, songs, undefined, maxSongs);
        const added = outcome.added[0];
        if (added) return { song: added, added: true, crateUuid: crate.id };
        return {
          song: await crateSongAt(em, crate.id, outcome.skipped[0]!.crateSongUuid),
          added: false,
          crateUuid: crate.id,
        };
      });
    },

    // Service-only (the live room's chat): a crate link sent in chat becomes a playlist preview.
    async serviceGetCratePreview(req, ctx) {
      const em = callEm(ctx);
      const crate = await em.findOne(Crate, { id: req.crateUuid.toLowerCase() });
      // The special crates are their owner's alone; a chat message is read by others.
      if (!crate || crate.special !== null) throw new ConnectError("crate not found", Code.NotFound);
      const [songs, job] = await Promise.all([
        songPage(em, crate.id, req.songs || PREVIEW_SONGS, 0),
        em.findOne(ImportJob, { crateId: crate.id }),
      ]);
      return {
        preview: {
          crateUuid: crate.id,
          crateName: crate.name,
          userUuid: crate.userUuid,
          totalSongs: crate.songsCount,
          thumbnails: crate.thumbnails,
          provider: job?.provider ?? "",
          songs: songs.map((s) => ({
            trackName: s.trackName,
            artistName: s.artistName,
            artwork: Object.values(s.thumbnails)[0] ?? "",
          })),
        },
      };
    },
  };
}
