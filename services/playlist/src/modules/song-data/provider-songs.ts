// From a provider's track to a catalogue song, and 002 §4's enrichment: a catalogue song is fetched from a
// provider only when it is not complete; the fetch's outcome is the song's status (SUCCESS, DATA_NOT_FOUND,
// FETCH_FAILED). Call these inside a transaction (findOrCreateSong takes an advisory lock).
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { isUuid } from "@tt/kit";
import { ProviderError, toConnectProviderError } from "@tt/providers";
import {
  SongSchema as SongMessageSchema,
  SongStatus,
  type Song as SongMessage,
} from "@tt/proto/tt/playlist/v1/song_pb";
import { findOrCreateSong, isSongComplete, statusWire, type ProviderSong } from "../catalogue/catalogue.ts";
import { SongProviderId } from "../catalogue/song-provider-id.entity.ts";
import { Song } from "../catalogue/song.entity.ts";
import type { MusicProviders } from "../../providers/index.ts";
import type { ProviderTrack } from "../../providers/track.ts";

/** How the caller reads a provider's name. */
export const PROVIDER_LABELS: Record<string, string> = {
  spotify: "Spotify",
  apple: "Apple Music",
  soundCloudPublic: "SoundCloud",
  soundcloud: "SoundCloud",
  audius: "Audius",
  youtube: "YouTube",
  sevenDigital: "sevenDigital",
  uploadService: "the upload service",
};
export const labelOf = (provider: string): string => PROVIDER_LABELS[provider] ?? provider;

/** A provider's isrc when it is one (12 letters and digits; dashes dropped), else undefined. */
export function cleanIsrc(isrc: string | undefined): string | undefined {
  const value = (isrc ?? "").replace(/-/g, "").trim().toUpperCase();
  return /^[A-Z0-9]{12}$/.test(value) ? value : undefined;
}

/** The catalogue's description of a provider track (what findOrCreateSong takes), cut to the columns' sizes. */
export function providerSongOf(track: ProviderTrack): ProviderSong {
  const song: ProviderSong = {
    trackName: track.trackName.slice(0, 300),
    artistName: (track.artistName || "Unknown artist").slice(0, 300),
    duration: track.duration,
    explicit: track.explicit,
    musicProviders: { ...(track.otherIds ?? {}), [track.provider]: track.providerId.slice(0, 255) },
    previews: track.previews,
  };
  const isrc = cleanIsrc(track.isrc);
  if (isrc !== undefined) song.isrc = isrc;
  if (track.thumbnail !== undefined) song.thumbnails = { [track.provider]: track.thumbnail.slice(0, 2048) };
  if (track.link !== undefined) song.links = { [track.provider]: track.link.slice(0, 2048) };
  if (track.genre !== undefined) song.genre = track.genre.slice(0, 100);
  if (track.albumName !== undefined) song.albumName = track.albumName.slice(0, 300);
  if (track.releaseYear !== undefined) song.releaseYear = track.releaseYear;
  return song;
}

/** A provider's track as a wire Song that is not (yet) in the catalogue: no songId. */
export function trackMessage(track: ProviderTrack): SongMessage {
  return create(SongMessageSchema, {
    isrc: track.isrc ?? "",
    trackName: track.trackName,
    artistName: track.artistName,
    duration: track.duration,
    explicit: track.explicit,
    musicProviders: { [track.provider]: track.providerId },
    thumbnails: track.thumbnail !== undefined ? { [track.provider]: track.thumbnail } : {},
    links: track.link !== undefined ? { [track.provider]: track.link } : {},
    previews: track.previews,
    genre: track.genre ?? "",
    albumName: track.albumName ?? "",
    releaseYear: track.releaseYear ?? 0,
    status: statusWire(SongStatus.PENDING_REQUEST),
    available: true,
  });
}

/** The providers this service can read a single track from. */
export const READABLE_PROVIDERS = ["spotify", "apple", "soundCloudPublic", "audius", "sevenDigital"] as const;

/** Reads one track from a provider: undefined when the provider does not know it; not-configured throws. */
export async function fetchProviderTrack(
  providers: MusicProviders,
  provider: string,
  id: string,
  country: string,
): Promise<ProviderTrack | undefined> {
  const missing = () => new ProviderError(provider, "not-configured", `${labelOf(provider)} is not configured`);
  switch (provider) {
    case "spotify":
      if (!providers.spotify) throw missing();
      return providers.spotify.getTrack(id);
    case "apple":
      if (!providers.apple) throw missing();
      return providers.apple.getSong(id, country);
    case "soundCloudPublic":
      if (!providers.soundcloud) throw missing();
      return providers.soundcloud.getTrack(id);
    case "audius":
      if (!providers.audius) throw missing();
      return providers.audius.getTrack(id);
    case "sevenDigital":
      if (!providers.sevenDigital) throw missing();
      return providers.sevenDigital.getTrack(id, country);
    default:
      return undefined;
  }
}

/** Adds the ids other configured providers have for the same isrc (so the song becomes complete, §4). */
async function otherProviderIds(
  providers: MusicProviders,
  track: ProviderTrack,
  country: string,
): Promise<ProviderTrack[]> {
  if (track.isrc === undefined) return [];
  const lookups: Promise<ProviderTrack | undefined>[] = [];
  if (track.provider !== "spotify" && providers.spotify) lookups.push(providers.spotify.searchByIsrc(track.isrc));
  if (track.provider !== "apple" && providers.apple) lookups.push(providers.apple.songByIsrc(track.isrc, country));
  const found = await Promise.allSettled(lookups);
  return found.flatMap((r) => (r.status === "fulfilled" && r.value !== undefined ? [r.value] : []));
}

/** The catalogue song a provider id names, if any. */
export async function catalogueSongOf(em: EntityManager, provider: string, id: string): Promise<Song | undefined> {
  const row = await em.findOne(SongProviderId, { provider, providerId: id }, { populate: ["song"] });
  return (row?.song as Song | undefined) ?? undefined;
}

/**
 * The catalogue song for a provider's track id, fetched from the provider only when the catalogue's is not
 * complete (002 §4). 404 "song not found" when neither knows it.
 */
export async function resolveProviderSong(
  em: EntityManager,
  providers: MusicProviders,
  provider: string,
  id: string,
  country: string,
  notFoundMessage = "song not found",
): Promise<Song> {
  const known = await catalogueSongOf(em, provider, id);
  if (provider === "youtube") {
    // The video service answers durations only (002 §7): a catalogue song known by its video id gets its
    // duration (ISO 8601 → seconds) when it has none.
    if (!known) throw new ConnectError(notFoundMessage, Code.NotFound);
    if (known.duration === 0 && providers.youtube) {
      const duration = (await providers.youtube.durations([id]).catch(() => new Map<string, number>())).get(id);
      if (duration !== undefined && duration > 0) {
        known.duration = duration;
        await em.flush();
      }
    }
    return known;
  }
  if (known && (isSongComplete(known) || known.status === statusWire(SongStatus.DATA_NOT_FOUND))) return known;
  let track: ProviderTrack | undefined;
  try {
    track = await fetchProviderTrack(providers, provider, id, country);
  } catch (error) {
    if (known) {
      if (!(error instanceof ProviderError && error.kind === "not-configured")) {
        known.status = statusWire(SongStatus.FETCH_FAILED);
        await em.flush();
      }
      return known;
    }
    if (error instanceof ProviderError && error.kind === "not-configured") {
      throw new ConnectError(notFoundMessage, Code.NotFound, undefined, undefined, error);
    }
    throw toConnectProviderError(error, labelOf(provider), {
      refusal: { message: notFoundMessage, code: Code.NotFound },
      unavailable: `${labelOf(provider)} is not available`,
    });
  }
  if (track === undefined) {
    if (known) {
      known.status = statusWire(SongStatus.DATA_NOT_FOUND);
      await em.flush();
      return known;
    }
    throw new ConnectError(notFoundMessage, Code.NotFound);
  }
  const song = await findOrCreateSong(em, { ...providerSongOf(track), status: SongStatus.SUCCESS });
  for (const other of await otherProviderIds(providers, track, country)) {
    await findOrCreateSong(em, { ...providerSongOf(other), isrc: cleanIsrc(track.isrc) });
  }
  return song;
}

/** A catalogue song by its songId (uuid) or short id; 404 "song not found". */
export async function songByIdOrShortId(em: EntityManager, id: string): Promise<Song> {
  const song = isUuid(id) ? await em.findOne(Song, { id: id.toLowerCase() }) : await em.findOne(Song, { shortId: id });
  if (!song) throw new ConnectError("song not found", Code.NotFound);
  return song;
}
