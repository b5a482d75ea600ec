// ImportService (002 §4, §5, §7, §8): one track into the catalogue, a catalogue song into a crate, and the
// progress of a playlist import (the job itself: modules/imports/imports.ts).
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { ImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { getSong, songMessage } from "../modules/catalogue/catalogue.ts";
import {
  addSongs,
  crateSongAt,
  ensureSpecialCrates,
  lockOwnCrate,
  readableCrate,
} from "../modules/crates/crate-store.ts";
import { ImportJob } from "../modules/imports/import-job.entity.ts";
import { catalogueSongOf, resolveProviderSong } from "../modules/song-data/provider-songs.ts";
import { isImportProvider, NO_SUPPORTED_PROVIDER, NOT_IN_CATALOG } from "../music/import-providers.ts";

type Impl = ServiceImpl<typeof ImportService>;

export function importRoutes(svc: PlaylistServiceContext): Impl {
  const providers = svc.music.providers;
  const maxSongs = svc.config.crates.CRATE_MAX_SONGS;

  return {
    async importTrack(req, ctx) {
      // 002 §5: only these providers, checked in this order (a track names one provider here).
      if (!isImportProvider(req.musicProvider)) throw new ConnectError(NO_SUPPORTED_PROVIDER, Code.InvalidArgument);
      const providerId = req.providerId.trim();
      const song = await callEm(ctx).transactional(async (em) => {
        if (req.musicProvider === "uploadService") {
          // Uploaded songs enter the catalogue through the upload service's events only.
          const known = await catalogueSongOf(em, "uploadService", providerId);
          if (!known) throw new ConnectError(NOT_IN_CATALOG, Code.NotFound);
          return known;
        }
        return resolveProviderSong(em, providers, req.musicProvider, providerId, req.country || "us", NOT_IN_CATALOG);
      });
      return { id: song.id, song: songMessage(song) };
    },

    async addPlaylistTrack(req, ctx) {
      const me = callIdentity(ctx).subject;
      return callEm(ctx).transactional(async (em) => {
        await ensureSpecialCrates(em, me);
        const song = await getSong(em, req.songId);
        const crate = await lockOwnCrate(em, req.crateUuid, me);
        const outcome = await addSongs(em, crate, [song], req.append ? undefined : 0, maxSongs);
        await em.flush();
        const added = outcome.added[0];
        if (added) return { crateSong: added, added: true };
        const existing = outcome.skipped[0]!;
        return { crateSong: await crateSongAt(em, crate.id, existing.crateSongUuid), added: false };
      });
    },

    async getCrateImport(req, ctx) {
      const em = callEm(ctx);
      const me = callIdentity(ctx).subject;
      const crate = await readableCrate(em, req.crateUuid, me);
      if (crate.userUuid !== me) throw new ConnectError("crate belongs to another user", Code.PermissionDenied);
      const job = await em.findOne(ImportJob, { crateId: crate.id });
      if (!job) throw new ConnectError("crate not found", Code.NotFound);
      return {
        progress: {
          crateUuid: crate.id,
          importStatus: job.status,
          musicProvider: job.provider,
          total: job.total,
          processed: job.processed,
          added: job.added,
          skipped: job.skipped,
          message: job.message,
        },
      };
    },
  };
}
