// The catalogue module: every song a crate can hold is one catalogue song. Other areas (search, imports, song
// data, the upload events) put songs in through findOrCreateSong, which applies 002 §5's same-track rule, and
// answer with songMessage / songData. Handlers call these inside one transaction (em.transactional).
import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  advisoryXactLock,
  advisoryXactLocks,
  isUuid,
  jsonRows,
  sql,
  sqlArray,
  unnestRows,
  wireName,
  wireNamesOf,
} from "@tt/kit";
import { MusicProviderSchema } from "@tt/proto/tt/common/v1/music_provider_pb";
import {
  SongSchema as SongMessageSchema,
  SongStatus,
  SongStatusSchema,
  type Song as SongMessage,
  type SongInput,
} from "@tt/proto/tt/playlist/v1/song_pb";
import { db, type PlaylistTables } from "../../db.ts";
import { newShortId } from "../../short-id.ts";
import { Album } from "./album.entity.ts";
import { Artist } from "./artist.entity.ts";
import { isSameTrack, type TrackKeys } from "./same-track.ts";
import { SongProviderId } from "./song-provider-id.entity.ts";
import { Song, type StreamUrlsValue } from "./song.entity.ts";

export { isSameTrack, SAME_TRACK_DURATION_SECONDS, type TrackKeys } from "./same-track.ts";
export { Song } from "./song.entity.ts";

/** The providers' wire names (tt.common.v1.MusicProvider). */
export const MUSIC_PROVIDERS: readonly string[] = wireNamesOf(MusicProviderSchema);
const PROVIDER_SET = new Set(MUSIC_PROVIDERS);

/** A song as a provider, an import, the upload service or a client describes it. */
export interface ProviderSong {
  isrc?: string;
  trackName?: string;
  artistName?: string;
  /** Seconds. */
  duration?: number;
  explicit?: boolean;
  /** Provider wire name → id there. Unknown provider names are refused (400). */
  musicProviders?: Record<string, string>;
  thumbnails?: Record<string, string>;
  links?: Record<string, string>;
  previews?: string[];
  genre?: string;
  albumName?: string;
  releaseYear?: number;
  streamUrls?: Record<string, StreamUrlsValue>;
  /** A SongStatus; unset: VERIFIED for an uploaded song, PENDING_REQUEST otherwise (or SUCCESS when complete). */
  status?: SongStatus;
  playbackToken?: string;
}

/** Extra facts of an uploaded song (the upload events). */
export interface UploadFacts {
  uploadSongUuid: string;
  ownerUuid: string;
  public: boolean;
  demo: boolean;
}

/** The wire value of a song status. */
export const statusWire = (status: SongStatus): string => wireName(SongStatusSchema, status);

/** The catalogue song `id` (a uuid) or 404 "song not found" (400 when it is not a uuid). */
export async function getSong(em: EntityManager, id: string, field = "songId"): Promise<Song> {
  if (!isUuid(id)) throw new ConnectError(`${field} must be a uuid`, Code.InvalidArgument);
  const song = await em.findOne(Song, { id: id.toLowerCase() });
  if (!song) throw new ConnectError("song not found", Code.NotFound);
  return song;
}

/** A SongInput of a request as a ProviderSong (the request's field rules already ran). */
export function fromSongInput(input: SongInput): ProviderSong {
  return {
    isrc: input.isrc,
    trackName: input.trackName,
    artistName: input.artistName,
    duration: input.duration,
    explicit: input.explicit,
    musicProviders: input.musicProviders,
    thumbnails: input.thumbnails,
    links: input.links,
    previews: input.previews,
    genre: input.genre,
    albumName: input.albumName,
    releaseYear: input.releaseYear,
  };
}

/**
 * The catalogue song of a request's SongInput: its songId (404 when unknown), or the song its data describes
 * (found or created by findOrCreateSong). `field` names the input in 400s (e.g. "songs[2]").
 */
export async function resolveSongInput(em: EntityManager, input: SongInput, field: string): Promise<Song> {
  if (input.songId) return getSong(em, input.songId, `${field}.songId`);
  return findOrCreateSong(em, fromSongInput(input), { field });
}

function cleanProviders(map: Record<string, string> | undefined, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [provider, id] of Object.entries(map ?? {})) {
    if (!PROVIDER_SET.has(provider)) {
      throw new ConnectError(
        `${field}.musicProviders: unknown provider "${provider.slice(0, 40)}"`,
        Code.InvalidArgument,
      );
    }
    const trimmed = String(id).trim();
    if (trimmed !== "") out[provider] = trimmed;
  }
  return out;
}

const cleanIsrc = (isrc: string | undefined): string | null => {
  const v = (isrc ?? "").trim().toUpperCase();
  return v === "" ? null : v;
};

const finiteOr0 = (n: number | undefined): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);

/** 002 §4: complete means SUCCESS, or more than one provider plus a thumbnail and a link, or an uploaded song. */
export function isSongComplete(song: Pick<Song, "status" | "musicProviders" | "thumbnails" | "links">): boolean {
  if (song.status === statusWire(SongStatus.SUCCESS)) return true;
  if ("uploadService" in song.musicProviders) return true;
  return (
    Object.keys(song.musicProviders).length > 1 &&
    Object.keys(song.thumbnails).length > 0 &&
    Object.keys(song.links).length > 0
  );
}

/**
 * The catalogue song `data` describes: an existing one that is the same track (002 §5: a shared provider id or
 * isrc, or equal names with durations within 5 s), enriched with what `data` adds (new provider ids, missing
 * fields), or a new one. Needs a track and an artist name to create one (400 naming `field`). Concurrent calls
 * for the same names are serialised with a transaction-scoped advisory lock, so call it inside a transaction.
 */
export async function findOrCreateSong(
  em: EntityManager,
  data: ProviderSong,
  options: { field?: string; upload?: UploadFacts } = {},
): Promise<Song> {
  const field = options.field ?? "song";
  const providers = cleanProviders(data.musicProviders, field);
  const isrc = cleanIsrc(data.isrc);
  const trackName = (data.trackName ?? "").trim();
  const artistName = (data.artistName ?? "").trim();
  const keys: TrackKeys = {
    isrc: isrc ?? undefined,
    musicProviders: providers,
    trackName,
    artistName,
    duration: finiteOr0(data.duration),
  };

  if (trackName !== "" || artistName !== "") {
    await advisoryXactLock(em, `tt-song:${trackName.toLowerCase()}|${artistName.toLowerCase()}`);
  }
  const existing = await findSameTrack(em, keys, options.upload?.uploadSongUuid);
  if (existing) {
    await enrich(em, existing, data, providers, isrc, options.upload);
    return existing;
  }
  if (trackName === "") throw new ConnectError(`${field}.trackName missing in request`, Code.InvalidArgument);
  if (artistName === "") throw new ConnectError(`${field}.artistName missing in request`, Code.InvalidArgument);
  const artist = await upsertArtist(em, artistName);
  const albumName = (data.albumName ?? "").trim();
  const album = albumName === "" ? null : await upsertAlbum(em, artist, albumName, data);
  const song = em.create(Song, {
    shortId: newShortId(),
    isrc,
    trackName,
    artistName,
    trackKey: trackName.toLowerCase(),
    artistKey: artistName.toLowerCase(),
    duration: finiteOr0(data.duration),
    explicit: data.explicit ?? false,
    genre: (data.genre ?? "").trim(),
    albumName,
    releaseYear: data.releaseYear ?? 0,
    album,
    artist,
    musicProviders: providers,
    thumbnails: { ...(data.thumbnails ?? {}) },
    links: { ...(data.links ?? {}) },
    previews: [...(data.previews ?? [])],
    streamUrls: { ...(data.streamUrls ?? {}) },
    status: "",
    playbackToken: data.playbackToken ?? "",
    uploadSongUuid: options.upload?.uploadSongUuid ?? null,
    ownerUuid: options.upload?.ownerUuid ?? null,
    public: options.upload?.public ?? true,
    demo: options.upload?.demo ?? false,
    available: true,
  });
  song.status = statusWire(
    data.status ??
      (options.upload ? SongStatus.VERIFIED : isSongComplete(song) ? SongStatus.SUCCESS : SongStatus.PENDING_REQUEST),
  );
  for (const [provider, providerId] of Object.entries(providers)) {
    em.create(SongProviderId, { provider, providerId, song });
  }
  await em.flush();
  return song;
}

async function findSameTrack(
  em: EntityManager,
  keys: TrackKeys,
  uploadSongUuid: string | undefined,
): Promise<Song | null> {
  if (uploadSongUuid) {
    const byUpload = await em.findOne(Song, { uploadSongUuid });
    if (byUpload) return byUpload;
  }
  const ids = Object.entries(keys.musicProviders ?? {});
  if (ids.length > 0) {
    const rows = await em.find(
      SongProviderId,
      { $or: ids.map(([provider, providerId]) => ({ provider, providerId })) },
      { populate: ["song"] },
    );
    if (rows.length > 0) return rows[0]!.song as Song;
  }
  if (keys.isrc) {
    const byIsrc = await em.findOne(Song, { isrc: keys.isrc }, { orderBy: { createdAt: "asc" } });
    if (byIsrc) return byIsrc;
  }
  if (keys.trackName && keys.artistName) {
    const byName = await em.find(
      Song,
      { trackKey: keys.trackName.toLowerCase(), artistKey: keys.artistName.toLowerCase() },
      { orderBy: { createdAt: "asc" }, limit: 50 },
    );
    return byName.find((s) => isSameTrack(keys, trackKeysOf(s))) ?? null;
  }
  return null;
}

/** The rule's view of a catalogue song. */
export function trackKeysOf(song: Song): TrackKeys {
  return {
    songId: song.id,
    songShortId: song.shortId,
    isrc: song.isrc ?? undefined,
    musicProviders: song.musicProviders,
    trackName: song.trackName,
    artistName: song.artistName,
    duration: song.duration,
  };
}

async function enrich(
  em: EntityManager,
  song: Song,
  data: ProviderSong,
  providers: Record<string, string>,
  isrc: string | null,
  upload: UploadFacts | undefined,
): Promise<void> {
  const added: [string, string][] = [];
  const merged = { ...song.musicProviders };
  for (const [provider, id] of Object.entries(providers)) {
    if (merged[provider] === id) continue;
    if (merged[provider] !== undefined && !upload) continue; // the song keeps its first id at a provider
    const taken = await em.findOne(SongProviderId, { provider, providerId: id });
    if (taken) continue; // that id names another catalogue song
    if (merged[provider] !== undefined) await em.nativeDelete(SongProviderId, { provider, song });
    merged[provider] = id;
    added.push([provider, id]);
  }
  if (added.length > 0) song.musicProviders = merged;
  for (const [provider, providerId] of added) em.create(SongProviderId, { provider, providerId, song });
  if (!song.isrc && isrc) song.isrc = isrc;
  if (data.thumbnails && Object.keys(data.thumbnails).some((k) => song.thumbnails[k] === undefined)) {
    song.thumbnails = { ...data.thumbnails, ...song.thumbnails };
  }
  if (data.links && Object.keys(data.links).some((k) => song.links[k] === undefined))
    song.links = { ...data.links, ...song.links };
  if (data.streamUrls && Object.keys(data.streamUrls).length > 0)
    song.streamUrls = { ...song.streamUrls, ...data.streamUrls };
  if (song.previews.length === 0 && data.previews && data.previews.length > 0) song.previews = [...data.previews];
  if (!song.genre && data.genre) song.genre = data.genre.trim();
  if (!song.duration && finiteOr0(data.duration) > 0) song.duration = finiteOr0(data.duration);
  if (!song.releaseYear && data.releaseYear) song.releaseYear = data.releaseYear;
  if (data.playbackToken) song.playbackToken = data.playbackToken;
  if (data.status !== undefined) song.status = statusWire(data.status);
  if (upload) {
    // The upload service owns an uploaded song's tags: its events replace them.
    if (data.trackName) {
      song.trackName = data.trackName.trim();
      song.trackKey = song.trackName.toLowerCase();
    }
    if (data.artistName) {
      song.artistName = data.artistName.trim();
      song.artistKey = song.artistName.toLowerCase();
    }
    song.explicit = data.explicit ?? song.explicit;
    if (data.duration) song.duration = finiteOr0(data.duration);
    song.uploadSongUuid = upload.uploadSongUuid;
    song.ownerUuid = upload.ownerUuid;
    song.public = upload.public;
    song.demo = upload.demo;
    song.available = true;
    song.status = statusWire(SongStatus.VERIFIED);
  }
  await em.flush();
}

async function upsertArtist(em: EntityManager, name: string): Promise<Artist> {
  const nameKey = name.toLowerCase();
  await db(em)
    .insertInto("artist")
    .values({
      id: sql<string>`gen_random_uuid()`,
      short_id: newShortId(),
      name,
      name_key: nameKey,
      created_at: sql<Date>`now()`,
    })
    .onConflict((oc) => oc.column("name_key").doNothing())
    .execute();
  return em.findOneOrFail(Artist, { nameKey });
}

async function upsertAlbum(em: EntityManager, artist: Artist, name: string, data: ProviderSong): Promise<Album> {
  const nameKey = name.toLowerCase();
  const thumbnail = Object.values(data.thumbnails ?? {})[0] ?? "";
  await db(em)
    .insertInto("album")
    .values({
      id: sql<string>`gen_random_uuid()`,
      short_id: newShortId(),
      name,
      name_key: nameKey,
      artist_id: artist.id,
      release_year: data.releaseYear ?? 0,
      thumbnail: thumbnail.slice(0, 2048),
      created_at: sql<Date>`now()`,
    })
    .onConflict((oc) => oc.columns(["artist_id", "name_key"]).doNothing())
    .execute();
  return em.findOneOrFail(Album, { artist, nameKey });
}

/** A catalogue song as the wire's Song. */
export function songMessage(song: Song): SongMessage {
  return create(SongMessageSchema, {
    songId: song.id,
    songShortId: song.shortId,
    isrc: song.isrc ?? "",
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
    streamUrls: Object.fromEntries(
      Object.entries(song.streamUrls).map(([k, v]) => [k, { http: v.http ?? "", hls: v.hls ?? "" }]),
    ),
    status: song.status,
    albumShortId: (song.album as Album | null)?.shortId ?? "",
    artistShortId: (song.artist as Artist | null)?.shortId ?? "",
    demo: song.demo,
    available: song.available,
  });
}

interface Normalised {
  data: ProviderSong;
  field: string;
  providers: Record<string, string>;
  isrc: string | null;
  trackName: string;
  artistName: string;
  duration: number;
}

/** A new catalogue song's columns with their PostgreSQL types: the batch insert's rows (one jsonb parameter). */
const NEW_SONG = {
  id: "uuid",
  short_id: "text",
  isrc: "text",
  track_name: "text",
  artist_name: "text",
  track_key: "text",
  artist_key: "text",
  duration: "float8",
  explicit: "boolean",
  genre: "text",
  album_name: "text",
  release_year: "int",
  album_id: "uuid",
  artist_id: "uuid",
  music_providers: "jsonb",
  thumbnails: "jsonb",
  links: "jsonb",
  previews: "jsonb",
  stream_urls: "jsonb",
  status: "text",
  playback_token: "text",
  public: "boolean",
  demo: "boolean",
  available: "boolean",
  created_at: "timestamptz",
  updated_at: "timestamptz",
} as const satisfies Partial<Record<keyof PlaylistTables["song"], string>>;

interface CandidateRow {
  id: string;
  isrc: string | null;
  track_name: string;
  artist_name: string;
  duration: number;
  music_providers: Record<string, string>;
}

/**
 * The catalogue songs of many descriptions at once (a crate add of up to 300 songs): the same-track rule of
 * findOrCreateSong, with one query per lookup kind for the whole batch and one insert for the new songs, instead
 * of several statements per song. A description that matches an existing song goes through findOrCreateSong
 * (which enriches it); two descriptions of one track in the batch become one song. Call it inside a transaction.
 */
export async function findOrCreateSongs(
  em: EntityManager,
  items: { data: ProviderSong; field: string }[],
): Promise<Song[]> {
  const norm: Normalised[] = items.map(({ data, field }) => ({
    data,
    field,
    providers: cleanProviders(data.musicProviders, field),
    isrc: cleanIsrc(data.isrc),
    trackName: (data.trackName ?? "").trim(),
    artistName: (data.artistName ?? "").trim(),
    duration: finiteOr0(data.duration),
  }));
  const lockKeys = [
    ...new Set(norm.map((n) => `tt-song:${n.trackName.toLowerCase()}|${n.artistName.toLowerCase()}`)),
  ].sort();
  await advisoryXactLocks(em, lockKeys);
  const pairs = norm.flatMap((n) => Object.entries(n.providers));
  const byProvider = new Map<string, string>();
  if (pairs.length > 0) {
    const rows = await db(em)
      .selectFrom("song_provider_id")
      .select(["provider", "provider_id", "song_id"])
      .where((eb) =>
        eb(
          eb.refTuple("provider", "provider_id"),
          "in",
          eb
            .selectFrom(
              unnestRows("u", {
                provider: sqlArray(
                  pairs.map(([provider]) => provider),
                  "text",
                ),
                provider_id: sqlArray(
                  pairs.map(([, id]) => id),
                  "text",
                ),
              }),
            )
            .select(["u.provider", "u.provider_id"])
            .$asTuple("provider", "provider_id"),
        ),
      )
      .execute();
    for (const r of rows) byProvider.set(`${r.provider}\u0000${r.provider_id}`, r.song_id);
  }
  const isrcs = [...new Set(norm.flatMap((n) => (n.isrc ? [n.isrc] : [])))];
  const byIsrc = new Map<string, string>();
  if (isrcs.length > 0) {
    const rows = await db(em)
      .selectFrom("song")
      .select(["id", "isrc"])
      .where((eb) => eb("isrc", "=", eb.fn.any(sqlArray(isrcs, "text"))))
      .orderBy("created_at", "desc")
      .execute();
    for (const r of rows) byIsrc.set(r.isrc!, r.id); // the oldest wins (last set)
  }
  const named = norm.filter((n) => n.trackName && n.artistName);
  const byName = new Map<string, CandidateRow[]>();
  if (named.length > 0) {
    const rows: CandidateRow[] = await db(em)
      .selectFrom("song")
      .select(["id", "isrc", "track_name", "artist_name", "duration", "music_providers"])
      .where((eb) =>
        eb(
          eb.refTuple("track_key", "artist_key"),
          "in",
          eb
            .selectFrom(
              unnestRows("u", {
                track_key: sqlArray(
                  named.map((n) => n.trackName.toLowerCase()),
                  "text",
                ),
                artist_key: sqlArray(
                  named.map((n) => n.artistName.toLowerCase()),
                  "text",
                ),
              }),
            )
            .select(["u.track_key", "u.artist_key"])
            .$asTuple("track_key", "artist_key"),
        ),
      )
      .orderBy("created_at")
      .execute();
    for (const r of rows) {
      const key = `${r.track_name.toLowerCase()}\u0000${r.artist_name.toLowerCase()}`;
      byName.set(key, [...(byName.get(key) ?? []), r]);
    }
  }

  // Per description: an existing song, one created earlier in this batch, or a new one.
  const out: (Song | string | number)[] = []; // Song (matched, enriched), new-song index, or existing id
  const fresh: Normalised[] = [];
  for (const n of norm) {
    const keys: TrackKeys = {
      isrc: n.isrc ?? undefined,
      musicProviders: n.providers,
      trackName: n.trackName,
      artistName: n.artistName,
      duration: n.duration,
    };
    const existing =
      Object.entries(n.providers)
        .map(([p, id]) => byProvider.get(`${p}\u0000${id}`))
        .find((id) => id !== undefined) ??
      (n.isrc ? byIsrc.get(n.isrc) : undefined) ??
      byName.get(`${n.trackName.toLowerCase()}\u0000${n.artistName.toLowerCase()}`)?.find((r) =>
        isSameTrack(keys, {
          isrc: r.isrc ?? undefined,
          musicProviders: r.music_providers,
          trackName: r.track_name,
          artistName: r.artist_name,
          duration: Number(r.duration),
        }),
      )?.id;
    if (existing !== undefined) {
      // Known already: the single path finds it again and adds what this description brings.
      out.push(await findOrCreateSong(em, n.data, { field: n.field }));
      continue;
    }
    const twin = fresh.findIndex((f) =>
      isSameTrack(keys, {
        isrc: f.isrc ?? undefined,
        musicProviders: f.providers,
        trackName: f.trackName,
        artistName: f.artistName,
        duration: f.duration,
      }),
    );
    if (twin >= 0) {
      out.push(twin);
      continue;
    }
    if (n.trackName === "") throw new ConnectError(`${n.field}.trackName missing in request`, Code.InvalidArgument);
    if (n.artistName === "") throw new ConnectError(`${n.field}.artistName missing in request`, Code.InvalidArgument);
    out.push(fresh.length);
    fresh.push(n);
  }

  const freshIds: string[] = [];
  if (fresh.length > 0) {
    // Artists and albums: one upsert each for the batch.
    const artistNames = [...new Map(fresh.map((f) => [f.artistName.toLowerCase(), f.artistName])).entries()];
    await db(em)
      .insertInto("artist")
      .columns(["id", "short_id", "name", "name_key", "created_at"])
      .expression((eb) =>
        eb
          .selectFrom(
            unnestRows("u", {
              short_id: sqlArray(
                artistNames.map(() => newShortId()),
                "text",
              ),
              name: sqlArray(
                artistNames.map(([, n]) => n),
                "text",
              ),
              name_key: sqlArray(
                artistNames.map(([k]) => k),
                "text",
              ),
            }),
          )
          .select([
            sql<string>`gen_random_uuid()`.as("id"),
            "u.short_id",
            "u.name",
            "u.name_key",
            sql<Date>`now()`.as("created_at"),
          ]),
      )
      .onConflict((oc) => oc.column("name_key").doNothing())
      .execute();
    const artists = await db(em)
      .selectFrom("artist")
      .select(["id", "name_key"])
      .where((eb) =>
        eb(
          "name_key",
          "=",
          eb.fn.any(
            sqlArray(
              artistNames.map(([k]) => k),
              "text",
            ),
          ),
        ),
      )
      .execute();
    const artistId = new Map(artists.map((a) => [a.name_key, a.id]));
    const albumRows = [
      ...new Map(
        fresh
          .filter((f) => (f.data.albumName ?? "").trim() !== "")
          .map((f) => {
            const name = f.data.albumName!.trim();
            const artist = artistId.get(f.artistName.toLowerCase())!;
            return [
              `${artist}\u0000${name.toLowerCase()}`,
              { artist, name, year: f.data.releaseYear ?? 0, thumb: Object.values(f.data.thumbnails ?? {})[0] ?? "" },
            ];
          }),
      ).entries(),
    ];
    const albumId = new Map<string, string>();
    if (albumRows.length > 0) {
      await db(em)
        .insertInto("album")
        .columns(["id", "short_id", "name", "name_key", "artist_id", "release_year", "thumbnail", "created_at"])
        .expression((eb) =>
          eb
            .selectFrom(
              unnestRows("u", {
                short_id: sqlArray(
                  albumRows.map(() => newShortId()),
                  "text",
                ),
                name: sqlArray(
                  albumRows.map(([, a]) => a.name),
                  "text",
                ),
                artist_id: sqlArray(
                  albumRows.map(([, a]) => a.artist),
                  "uuid",
                ),
                release_year: sqlArray(
                  albumRows.map(([, a]) => a.year),
                  "int",
                ),
                thumbnail: sqlArray(
                  albumRows.map(([, a]) => a.thumb.slice(0, 2048)),
                  "text",
                ),
              }),
            )
            .select((u) => [
              sql<string>`gen_random_uuid()`.as("id"),
              "u.short_id",
              "u.name",
              sql<string>`lower(${u.ref("u.name")})`.as("name_key"),
              "u.artist_id",
              "u.release_year",
              "u.thumbnail",
              sql<Date>`now()`.as("created_at"),
            ]),
        )
        .onConflict((oc) => oc.columns(["artist_id", "name_key"]).doNothing())
        .execute();
      const albums = await db(em)
        .selectFrom("album")
        .select(["id", "artist_id", "name_key"])
        .where((eb) =>
          eb(
            eb.refTuple("artist_id", "name_key"),
            "in",
            eb
              .selectFrom(
                unnestRows("u", {
                  artist_id: sqlArray(
                    albumRows.map(([, a]) => a.artist),
                    "uuid",
                  ),
                  name_key: sqlArray(
                    albumRows.map(([, a]) => a.name.toLowerCase()),
                    "text",
                  ),
                }),
              )
              .select(["u.artist_id", "u.name_key"])
              .$asTuple("artist_id", "name_key"),
          ),
        )
        .execute();
      for (const a of albums) albumId.set(`${a.artist_id}\u0000${a.name_key}`, a.id);
    }
    const now = new Date().toISOString();
    const records = fresh.map((f) => {
      const id = randomUUID();
      freshIds.push(id);
      const albumName = (f.data.albumName ?? "").trim();
      const artist = artistId.get(f.artistName.toLowerCase())!;
      const draft = {
        status: "",
        musicProviders: f.providers,
        thumbnails: f.data.thumbnails ?? {},
        links: f.data.links ?? {},
      };
      const status = statusWire(
        f.data.status ?? (isSongComplete(draft) ? SongStatus.SUCCESS : SongStatus.PENDING_REQUEST),
      );
      return {
        id,
        short_id: newShortId(),
        isrc: f.isrc,
        track_name: f.trackName,
        artist_name: f.artistName,
        track_key: f.trackName.toLowerCase(),
        artist_key: f.artistName.toLowerCase(),
        duration: f.duration,
        explicit: f.data.explicit ?? false,
        genre: (f.data.genre ?? "").trim(),
        album_name: albumName,
        release_year: f.data.releaseYear ?? 0,
        album_id: albumName ? (albumId.get(`${artist}\u0000${albumName.toLowerCase()}`) ?? null) : null,
        artist_id: artist,
        music_providers: f.providers,
        thumbnails: f.data.thumbnails ?? {},
        links: f.data.links ?? {},
        previews: f.data.previews ?? [],
        stream_urls: f.data.streamUrls ?? {},
        status,
        playback_token: f.data.playbackToken ?? "",
        public: true,
        demo: false,
        available: true,
        created_at: now,
        updated_at: now,
      };
    });
    const columns = Object.keys(NEW_SONG) as (keyof typeof NEW_SONG)[];
    await db(em)
      .insertInto("song")
      .columns(columns)
      .expression((eb) => eb.selectFrom(jsonRows("r", records, NEW_SONG)).select(columns.map((c) => `r.${c}` as const)))
      .execute();
    const providerRows = fresh.flatMap((f, i) =>
      Object.entries(f.providers).map(([provider, providerId]) => ({ provider, providerId, song: freshIds[i]! })),
    );
    if (providerRows.length > 0) {
      await db(em)
        .insertInto("song_provider_id")
        .columns(["provider", "provider_id", "song_id"])
        .expression((eb) =>
          eb
            .selectFrom(
              unnestRows("u", {
                provider: sqlArray(
                  providerRows.map((r) => r.provider),
                  "text",
                ),
                provider_id: sqlArray(
                  providerRows.map((r) => r.providerId),
                  "text",
                ),
                song_id: sqlArray(
                  providerRows.map((r) => r.song),
                  "uuid",
                ),
              }),
            )
            .selectAll(),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  const loaded = freshIds.length > 0 ? await em.find(Song, { id: { $in: freshIds } }) : [];
  const byId = new Map(loaded.map((s) => [s.id, s]));
  return out.map((o) => (typeof o === "number" ? byId.get(freshIds[o]!)! : (o as Song)));
}

/**
 * The catalogue songs of a request's SongInputs (fields named `${prefix}[i]`): catalogue ids loaded in one query
 * (404 "song not found" for an unknown one), descriptions through findOrCreateSongs.
 */
export async function resolveSongInputs(em: EntityManager, inputs: SongInput[], prefix: string): Promise<Song[]> {
  const ids = inputs.flatMap((input, i) => {
    if (!input.songId) return [];
    if (!isUuid(input.songId)) throw new ConnectError(`${prefix}[${i}].songId must be a uuid`, Code.InvalidArgument);
    return [input.songId.toLowerCase()];
  });
  const known = ids.length > 0 ? await em.find(Song, { id: { $in: [...new Set(ids)] } }) : [];
  const byId = new Map(known.map((s) => [s.id, s]));
  const described = inputs.flatMap((input, i) =>
    input.songId ? [] : [{ data: fromSongInput(input), field: `${prefix}[${i}]` }],
  );
  const created = described.length > 0 ? await findOrCreateSongs(em, described) : [];
  let next = 0;
  return inputs.map((input) => {
    if (!input.songId) return created[next++]!;
    const song = byId.get(input.songId.toLowerCase());
    if (!song) throw new ConnectError("song not found", Code.NotFound);
    return song;
  });
}
