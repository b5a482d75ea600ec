// Playlist imports (002 §4, §5, §8): POST /crate with an import creates the crate IN_PROGRESS, its ImportJob
// row and a CrateImportRequested event in one transaction; the import worker (a durable JetStream consumer,
// one delivery per job across replicas) reads the provider's playlist page by page and commits each page's
// songs with the job's progress. A worker that dies mid-job leaves the event unacknowledged: it comes again
// and the job resumes at its first uncommitted page; songs already in the crate are never added twice.
import { Code, ConnectError } from "@connectrpc/connect";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { consumeEvents, HandBack, publishEvent, wireName, type Subscription } from "@tt/kit";
import { ProviderError } from "@tt/providers";
import { CrateImportStatus, CrateImportStatusSchema } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { CrateImport } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { CrateImportRequestedSchema } from "@tt/proto/tt/playlist/v1/events_pb";
import type { PlaylistServiceContext } from "../../context.ts";
import { isImportProvider, NO_SUPPORTED_PROVIDER } from "../../music/import-providers.ts";
import { parsePlaylistLink } from "../../music/links.ts";
import type { MusicProviders } from "../../providers/index.ts";
import type { ProviderTrack } from "../../providers/track.ts";
import { findOrCreateSong } from "../catalogue/catalogue.ts";
import type { Song } from "../catalogue/song.entity.ts";
import { addSongs, createCrate } from "../crates/crate-store.ts";
import { Crate } from "../crates/crate.entity.ts";
import { labelOf, providerSongOf } from "../song-data/provider-songs.ts";
import { ImportJob } from "./import-job.entity.ts";

export const ERROR_FETCHING_PLAYLIST = "Error fetching playlist";
/** The providers whose playlists can be imported (the §5 import providers with a playlist API here). */
export const PLAYLIST_IMPORT_PROVIDERS = ["spotify", "apple"] as const;

const statusWire = (status: CrateImportStatus) => wireName(CrateImportStatusSchema, status);
export const IN_PROGRESS = statusWire(CrateImportStatus.IN_PROGRESS);
export const COMPLETE = statusWire(CrateImportStatus.COMPLETE);
export const FAILED = statusWire(CrateImportStatus.FAILED);

export interface ImportSettings {
  pageSize: number;
  maxAttempts: number;
  maxSongs: number;
}

/** Checks what to import (400s in §5's and §8's words) and answers the provider and playlist id. */
export function checkCrateImport(
  providers: MusicProviders,
  request: CrateImport,
): { provider: "spotify" | "apple"; playlistId: string; storefront: string } {
  const provider = request.musicProvider;
  if (!isImportProvider(provider) || !(PLAYLIST_IMPORT_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConnectError(NO_SUPPORTED_PROVIDER, Code.InvalidArgument);
  }
  let playlistId = request.playlistId.trim();
  let storefront = "us";
  if (playlistId === "" && request.link.trim() !== "") {
    const parsed = parsePlaylistLink(request.link);
    if (parsed === undefined || parsed.provider !== provider) {
      throw new ConnectError(`import.link is not a ${labelOf(provider)} playlist link`, Code.InvalidArgument);
    }
    playlistId = parsed.id;
    storefront = parsed.storefront ?? "us";
  }
  if (playlistId === "") throw new ConnectError("import.playlistId missing in request", Code.InvalidArgument);
  if (!/^[A-Za-z0-9.-]{1,255}$/.test(playlistId)) {
    throw new ConnectError("import.playlistId must be a playlist id", Code.InvalidArgument);
  }
  if ((provider === "spotify" && !providers.spotify) || (provider === "apple" && !providers.apple)) {
    throw new ConnectError(`${labelOf(provider)} is not configured`, Code.FailedPrecondition);
  }
  return { provider: provider as "spotify" | "apple", playlistId, storefront };
}

/** Creates the crate IN_PROGRESS with its job and the worker's event, in the caller's transaction. */
export async function createImportedCrate(
  em: EntityManager,
  providers: MusicProviders,
  userUuid: string,
  input: { crateName: string; description: string; import: CrateImport },
  maxCrates: number,
): Promise<Crate> {
  const what = checkCrateImport(providers, input.import);
  const crate = await createCrate(
    em,
    userUuid,
    input.crateName,
    input.description,
    maxCrates,
    CrateImportStatus.IN_PROGRESS,
  );
  em.create(ImportJob, {
    crateId: crate.id,
    userUuid,
    provider: what.provider,
    playlistId: what.playlistId,
    storefront: what.storefront,
    status: IN_PROGRESS,
  });
  publishEvent(em, CrateImportRequestedSchema, { crateUuid: crate.id, userUuid });
  await em.flush();
  return crate;
}

interface Page {
  tracks: ProviderTrack[];
  total: number;
  nextOffset?: number;
}

async function fetchPage(providers: MusicProviders, job: ImportJob, pageSize: number): Promise<Page> {
  if (job.provider === "spotify") {
    if (!providers.spotify) throw new ProviderError("spotify", "not-configured", "Spotify is not configured");
    return providers.spotify.playlistPage(job.playlistId, job.nextOffset, pageSize);
  }
  if (job.provider === "apple") {
    if (!providers.apple) throw new ProviderError("apple-music", "not-configured", "Apple Music is not configured");
    // Apple answers the playlist with its tracks at once.
    const { tracks } = await providers.apple.playlistTracks(job.playlistId, 10_000, job.storefront);
    return { tracks: tracks.slice(job.nextOffset), total: tracks.length };
  }
  throw new ProviderError(job.provider, "not-configured", NO_SUPPORTED_PROVIDER);
}

async function finish(svc: PlaylistServiceContext, crateId: string, status: string, message: string): Promise<void> {
  await svc.orm.em.fork().transactional(async (em) => {
    const job = await em.findOne(ImportJob, { crateId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!job || job.status !== IN_PROGRESS) return;
    job.status = status;
    job.message = message.slice(0, 300);
    const crate = await em.findOne(Crate, { id: crateId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (crate) crate.importStatus = status;
  });
}

/**
 * Runs (or resumes) the import of one crate until it is COMPLETE or FAILED. Throws when the provider is away
 * (the event comes again later); `attempt` is the event's delivery count.
 */
export async function runImport(
  svc: PlaylistServiceContext,
  crateId: string,
  settings: ImportSettings,
  attempt: number,
): Promise<void> {
  const providers = svc.music.providers;
  for (;;) {
    if (svc.signal.aborted) throw new HandBack("the service is stopping: the import resumes on the next delivery");
    const job = await svc.orm.em.fork().findOne(ImportJob, { crateId });
    // The job is committed with its event, so an unknown one is another deployment's sharing this stream
    // (test platforms on one NATS; each gives its worker its own IMPORT_DURABLE): not ours to run.
    if (!job) return;
    if (job.status !== IN_PROGRESS) return;
    let page: Page;
    try {
      page = await fetchPage(providers, job, settings.pageSize);
    } catch (error) {
      const final = error instanceof ProviderError && (error.kind === "rejected" || error.kind === "not-configured");
      if (final || attempt >= settings.maxAttempts) {
        svc.logger.warn({ err: error, crateId }, ERROR_FETCHING_PLAYLIST);
        const message =
          error instanceof ProviderError && error.kind === "not-configured" ? error.reason : ERROR_FETCHING_PLAYLIST;
        await finish(svc, crateId, FAILED, message);
        return;
      }
      throw error;
    }
    const outcome = await svc.orm.em.fork().transactional(async (em) => {
      const locked = await em.findOne(ImportJob, { crateId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      // Another delivery of the same job got here first: leave the page to it.
      if (!locked || locked.status !== IN_PROGRESS || locked.nextOffset !== job.nextOffset) return "stale" as const;
      // Catalogue first (its locks), then the crate's row: the order every crate change uses.
      const songs: Song[] = [];
      let skipped = 0;
      for (const track of page.tracks) {
        try {
          songs.push(await findOrCreateSong(em, providerSongOf(track), { field: "track" }));
        } catch (error) {
          if (error instanceof ConnectError && error.code === Code.InvalidArgument) skipped++;
          else throw error;
        }
      }
      const crate = await em.findOne(Crate, { id: crateId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!crate) {
        locked.status = FAILED;
        locked.message = "the crate was deleted";
        return "done" as const;
      }
      try {
        const added = await addSongs(em, crate, songs, undefined, settings.maxSongs);
        locked.added += added.added.length;
      } catch (error) {
        if (!(error instanceof ConnectError) || error.code !== Code.FailedPrecondition) throw error;
        locked.status = FAILED;
        locked.message = error.rawMessage;
        crate.importStatus = FAILED;
        return "done" as const;
      }
      locked.processed += page.tracks.length;
      locked.skipped += skipped;
      locked.total = Math.max(page.total, locked.processed);
      if (page.nextOffset === undefined || page.tracks.length === 0) {
        locked.status = COMPLETE;
        locked.nextOffset = locked.processed;
        crate.importStatus = COMPLETE;
        return "done" as const;
      }
      locked.nextOffset = page.nextOffset;
      return "more" as const;
    });
    if (outcome !== "more") return;
  }
}

/** The import worker: one durable consumer of CrateImportRequested. */
export async function startImportWorker(
  svc: PlaylistServiceContext,
  settings: ImportSettings & { durable: string; redeliveryDelayMs: number },
): Promise<Subscription> {
  return consumeEvents(
    svc.bus,
    CrateImportRequestedSchema,
    (event, ctx) => runImport(svc, event.crateUuid, settings, ctx.deliveryCount),
    {
      durable: settings.durable,
      orm: svc.orm,
      logger: svc.logger,
      redeliveryDelayMs: settings.redeliveryDelayMs,
    },
  );
}
