// The crates area's data rules, each change in one transaction with the crate's row locked (FOR UPDATE), so two
// changes of one crate never interleave: concurrent moves end with every song at one distinct position.
// Order is a gapped rank (bigint): appends take max + RANK_GAP, a move takes the midpoint of its new neighbours
// and writes one row; only when two neighbours are 1 apart is the crate renumbered (two UPDATEs, no row lost).
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  advisoryXactLock,
  compiledOnce,
  jsonb,
  publishEvent,
  sql,
  sqlArray,
  unnestRows,
  wireName,
  type ExpressionBuilder,
  type Kysely,
} from "@tt/kit";
import {
  CrateImportStatus,
  CrateImportStatusSchema,
  CrateSchema as CrateMessageSchema,
  CrateSongSchema as CrateSongMessageSchema,
  SpecialCrate,
  SpecialCrateSchema,
  type Crate as CrateMessage,
  type CrateSong as CrateSongMessage,
} from "@tt/proto/tt/playlist/v1/crate_pb";
import { CrateChangedSchema } from "@tt/proto/tt/playlist/v1/events_pb";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Song } from "../catalogue/song.entity.ts";
import { db, type PlaylistTables } from "../../db.ts";
import { newShortId } from "../../short-id.ts";
import { Crate } from "./crate.entity.ts";

export { CrateImportStatus };

/** Room between two neighbours when a crate is written or renumbered. */
export const RANK_GAP = 1 << 20;
/** 002 §9: crate lists 100 per page, songs 300. */
export const CRATE_PAGE = 100;
export const SONG_PAGE = 300;
/** 002 §9: thumbnails are refreshed when a song is added at position 32 or lower. */
export const THUMBNAIL_WINDOW = 32;
/** A crate shows this many of its first songs' artwork. */
export const CRATE_THUMBNAILS = 4;
/** 002 §3 / §9: the default new-crate name and the special crates' names. */
export const NEW_PLAYLIST_PREFIX = "New Playlist #";
export const SPECIAL_NAMES = { queue: "default", likes: "tt-stars" } as const;
export type SpecialKind = keyof typeof SPECIAL_NAMES;

export const specialWire = (kind: SpecialKind): string =>
  wireName(SpecialCrateSchema, kind === "queue" ? SpecialCrate.QUEUE : SpecialCrate.LIKES);

/** The lowest unused positive number n such that "New Playlist #n" is not among `names` (002 §5). */
export function nextNewPlaylistName(names: Iterable<string>): string {
  const used = new Set<number>();
  for (const name of names) {
    if (!name.startsWith(NEW_PLAYLIST_PREFIX)) continue;
    const rest = name.slice(NEW_PLAYLIST_PREFIX.length);
    if (/^[1-9][0-9]{0,8}$/.test(rest)) used.add(Number(rest));
  }
  let n = 1;
  while (used.has(n)) n++;
  return `${NEW_PLAYLIST_PREFIX}${n}`;
}

// The statements of every crate call (a read, a move) are compiled once (compiledOnce, docs/decisions/0327-typed-queries.md); the rarer ones are built per call.

const specialCount = compiledOnce(db, (q, p: { userUuid: string }) =>
  q
    .selectFrom("crate")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_uuid", "=", p.userUuid)
    .where("special", "is not", null),
);

/** Creates the caller's queue and likes crates when missing (their first call); idempotent, race-free. */
export async function ensureSpecialCrates(em: EntityManager, userUuid: string): Promise<void> {
  const [exists] = await specialCount(em, { userUuid });
  if (Number(exists?.n ?? 0) >= 2) return;
  for (const kind of ["queue", "likes"] as const) {
    await db(em)
      .insertInto("crate")
      .values({
        id: sql<string>`gen_random_uuid()`,
        short_id: newShortId(),
        user_uuid: userUuid,
        name: SPECIAL_NAMES[kind],
        description: "",
        special: specialWire(kind),
        thumbnails: jsonb<string[]>([]),
        current_position: 0,
        songs_count: 0,
        version: 0,
        created_at: sql<Date>`now() - interval '1 second' * ${kind === "queue" ? 2 : 1}`,
        updated_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.columns(["user_uuid", "special"]).doNothing())
      .execute();
  }
}

const specialId = compiledOnce(db, (q, p: { userUuid: string; special: string }) =>
  q.selectFrom("crate").select("id").where("user_uuid", "=", p.userUuid).where("special", "=", p.special),
);

/** The id of the caller's special crate `kind` (created when missing). */
export async function specialCrateId(em: EntityManager, userUuid: string, kind: SpecialKind): Promise<string> {
  await ensureSpecialCrates(em, userUuid);
  const [row] = await specialId(em, { userUuid, special: specialWire(kind) });
  return row!.id;
}

const notFound = () => new ConnectError("crate not found", Code.NotFound);

/** A crate the caller may read: their own, or another user's ordinary crate. 404 otherwise. */
export async function readableCrate(em: EntityManager, crateId: string, caller: string): Promise<Crate> {
  const crate = await em.findOne(Crate, { id: crateId.toLowerCase() });
  if (!crate || (crate.userUuid !== caller && crate.special !== null)) throw notFound();
  return crate;
}

/**
 * The caller's crate, locked for this transaction (FOR UPDATE): 404 when unknown (or another user's special
 * crate), 403 "crate belongs to another user" for another user's ordinary crate.
 */
export async function lockOwnCrate(em: EntityManager, crateId: string, caller: string): Promise<Crate> {
  const crate = await em.findOne(
    Crate,
    { id: crateId.toLowerCase() },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (!crate || (crate.userUuid !== caller && crate.special !== null)) throw notFound();
  if (crate.userUuid !== caller) throw new ConnectError("crate belongs to another user", Code.PermissionDenied);
  return crate;
}

interface SongRow {
  crate_song_uuid: string;
  song_id: string;
  short_id: string;
  isrc: string | null;
  track_name: string;
  artist_name: string;
  duration: number;
  explicit: boolean;
  music_providers: Record<string, string>;
  thumbnails: Record<string, string>;
  links: Record<string, string>;
  previews: string[];
  playback_token: string;
  genre: string;
  album_name: string;
  release_year: number;
  stream_urls: Record<string, { http?: string; hls?: string }>;
  status: string;
  available: boolean;
}

/** A crate song's columns (`crate_song as cs` joined with `song as s`), as SongRow names them. */
const SONG_COLUMNS = [
  "cs.id as crate_song_uuid",
  "s.id as song_id",
  "s.short_id",
  "s.isrc",
  "s.track_name",
  "s.artist_name",
  "s.duration",
  "s.explicit",
  "s.music_providers",
  "s.thumbnails",
  "s.links",
  "s.previews",
  "s.playback_token",
  "s.genre",
  "s.album_name",
  "s.release_year",
  "s.stream_urls",
  "s.status",
  "s.available",
] as const;

/** A crate's songs (`cs`) with their catalogue songs (`s`). */
const crateSongs = (q: Kysely<PlaylistTables>) =>
  q.selectFrom("crate_song as cs").innerJoin("song as s", "s.id", "cs.song_id");

function crateSongMessage(row: SongRow, position: number): CrateSongMessage {
  return create(CrateSongMessageSchema, {
    crateSongUuid: row.crate_song_uuid,
    position,
    songId: row.song_id,
    songShortId: row.short_id,
    isrc: row.isrc ?? "",
    trackName: row.track_name,
    artistName: row.artist_name,
    duration: Number(row.duration),
    explicit: row.explicit,
    musicProviders: row.music_providers,
    thumbnails: row.thumbnails,
    links: row.links,
    previews: row.previews,
    playbackToken: row.playback_token,
    genre: row.genre,
    albumName: row.album_name,
    releaseYear: row.release_year,
    streamUrls: Object.fromEntries(
      Object.entries(row.stream_urls).map(([k, v]) => [k, { http: v.http ?? "", hls: v.hls ?? "" }]),
    ),
    status: row.status,
    available: row.available,
  });
}

/** A page of a crate's songs in order, each with its 0-based position. */
export async function songPage(
  em: EntityManager,
  crateId: string,
  limit: number,
  offset: number,
): Promise<CrateSongMessage[]> {
  const rows = await pageOfSongs(em, { crateId, limit, offset });
  return rows.map((row, i) => crateSongMessage(row, offset + i));
}

const pageOfSongs = compiledOnce(db, (q, p: { crateId: string; limit: number; offset: number }) =>
  crateSongs(q)
    .select(SONG_COLUMNS)
    .where("cs.crate_id", "=", p.crateId)
    .orderBy("cs.rank")
    .limit(p.limit)
    .offset(p.offset),
);

/** The 0-based position of the crate song `cs`: how many songs of its crate rank before it. */
const positionOf = (eb: ExpressionBuilder<PlaylistTables & { cs: PlaylistTables["crate_song"] }, "cs">) =>
  eb
    .selectFrom("crate_song as o")
    .select((o) => o.fn.countAll<string>().as("n"))
    .whereRef("o.crate_id", "=", "cs.crate_id")
    .whereRef("o.rank", "<", "cs.rank");

/** One crate song with its position, or 404 "crate song not found". */
export async function crateSongAt(
  em: EntityManager,
  crateId: string,
  crateSongUuid: string,
): Promise<CrateSongMessage> {
  const [row] = await songWithPosition(em, { crateId, id: crateSongUuid.toLowerCase() });
  if (!row) throw new ConnectError("crate song not found", Code.NotFound);
  return crateSongMessage(row, Number(row.position));
}

const songWithPosition = compiledOnce(db, (q, p: { crateId: string; id: string }) =>
  crateSongs(q)
    .select(SONG_COLUMNS)
    .select((eb) => positionOf(eb).as("position"))
    .where("cs.crate_id", "=", p.crateId)
    .where("cs.id", "=", p.id),
);

/** A crate as the wire's Crate, with `songs` when given. */
export function crateMessage(crate: Crate, songs: CrateSongMessage[] = []): CrateMessage {
  return create(CrateMessageSchema, {
    crateUuid: crate.id,
    crateName: crate.name,
    description: crate.description,
    userUuid: crate.userUuid,
    crateSongsNumber: crate.songsCount,
    importStatus: crate.importStatus ?? "",
    thumbnails: crate.thumbnails,
    count: songs.length,
    currentPosition: crate.currentPosition,
    songs,
    crateShortId: crate.shortId,
    special: crate.special ?? "",
    createdAt: timestampFromDate(crate.createdAt),
    updatedAt: timestampFromDate(crate.updatedAt),
  });
}

/** Records a change: bumps the version and announces it (tt.playlist.crate.changed), in the caller's flush. */
function changed(em: EntityManager, crate: Crate, change: string): void {
  crate.version += 1;
  crate.updatedAt = new Date();
  publishEvent(em, CrateChangedSchema, {
    crateUuid: crate.id,
    userUuid: crate.userUuid,
    special: crate.special ?? "",
    change,
    crateSongsNumber: crate.songsCount,
    currentPosition: crate.currentPosition,
  });
}

const firstThumbnails = compiledOnce(db, (q, p: { crateId: string; limit: number }) =>
  crateSongs(q).select("s.thumbnails").where("cs.crate_id", "=", p.crateId).orderBy("cs.rank").limit(p.limit),
);

/** The crate's artwork: the first thumbnails of its first songs (up to 4 distinct URLs). */
async function refreshThumbnails(em: EntityManager, crate: Crate): Promise<void> {
  const rows = await firstThumbnails(em, { crateId: crate.id, limit: THUMBNAIL_WINDOW });
  const out: string[] = [];
  for (const row of rows) {
    const url = Object.values(row.thumbnails ?? {}).find((u) => typeof u === "string" && u !== "");
    if (url && !out.includes(url)) out.push(url);
    if (out.length === CRATE_THUMBNAILS) break;
  }
  crate.thumbnails = out;
}

const songCount = compiledOnce(db, (q, p: { crateId: string }) =>
  q
    .selectFrom("crate_song")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("crate_id", "=", p.crateId),
);

async function countSongs(em: EntityManager, crateId: string): Promise<number> {
  const [row] = await songCount(em, { crateId });
  return Number(row!.n);
}

/** Renumbers a crate's ranks to RANK_GAP, 2·RANK_GAP, … in the current order (or a random one). */
async function renumber(em: EntityManager, crateId: string, order: "rank" | "random"): Promise<void> {
  // Ranks are always positive: negating them first frees every positive value, so the second update never
  // meets the unique (crate, rank) index half-way.
  await db(em)
    .updateTable("crate_song")
    .set((eb) => ({ rank: eb.neg(eb.ref("rank")) }))
    .where("crate_id", "=", crateId)
    .execute();
  await db(em)
    .updateTable("crate_song as cs")
    .from((eb) =>
      eb
        .selectFrom("crate_song")
        .select((n) => [
          "id",
          n.fn
            .agg<number>("row_number")
            .over((over) => (order === "rank" ? over.orderBy("rank", "desc") : over.orderBy(sql`random()`)))
            .as("n"),
        ])
        .where("crate_id", "=", crateId)
        .as("o"),
    )
    .set((eb) => ({ rank: eb("o.n", "*", RANK_GAP) }))
    .whereRef("cs.id", "=", "o.id")
    .execute();
}

/** The ranks of the rows at indexes `index - 1` and `index` of the crate, leaving out `exclude`. */
async function neighbours(
  em: EntityManager,
  crateId: string,
  index: number,
  exclude: string | null,
): Promise<[number | null, number | null]> {
  // `rank` is a bigint: pg answers it as text.
  if (index === 0) {
    const rows = exclude ? await firstRankBut(em, { crateId, exclude }) : await firstRank(em, { crateId });
    return [null, rows[0] ? Number(rows[0].rank) : null];
  }
  const rows = exclude
    ? await twoRanksBut(em, { crateId, exclude, offset: index - 1 })
    : await twoRanks(em, { crateId, offset: index - 1 });
  return [rows[0] ? Number(rows[0].rank) : null, rows[1] ? Number(rows[1].rank) : null];
}

const ranksOf = (q: Kysely<PlaylistTables>, crateId: string) =>
  q.selectFrom("crate_song").select("rank").where("crate_id", "=", crateId).orderBy("rank");
const firstRank = compiledOnce(db, (q, p: { crateId: string }) => ranksOf(q, p.crateId).limit(1));
const firstRankBut = compiledOnce(db, (q, p: { crateId: string; exclude: string }) =>
  ranksOf(q, p.crateId).where("id", "<>", p.exclude).limit(1),
);
const twoRanks = compiledOnce(db, (q, p: { crateId: string; offset: number }) =>
  ranksOf(q, p.crateId).offset(p.offset).limit(2),
);
const twoRanksBut = compiledOnce(db, (q, p: { crateId: string; exclude: string; offset: number }) =>
  ranksOf(q, p.crateId).where("id", "<>", p.exclude).offset(p.offset).limit(2),
);

/** `k` increasing ranks strictly between `prev` and `next` (either may be open), or null when there is no room. */
function ranksBetween(prev: number | null, next: number | null, k: number): number[] | null {
  if (next === null) {
    const base = prev ?? 0;
    return Array.from({ length: k }, (_, i) => base + (i + 1) * RANK_GAP);
  }
  const low = prev ?? 0;
  const room = next - low - 1;
  if (room < k) return null;
  const step = Math.floor((next - low) / (k + 1));
  return Array.from({ length: k }, (_, i) => low + (i + 1) * step);
}

const alreadyInCrate = compiledOnce(db, (q, p: { crateId: string; ids: string[] }) =>
  q
    .selectFrom("crate_song")
    .select(["id", "song_id"])
    .where("crate_id", "=", p.crateId)
    .where((eb) => eb("song_id", "=", eb.fn.any(sql<string[]>`${p.ids}::uuid[]`))),
);

export interface AddOutcome {
  added: CrateSongMessage[];
  skipped: { index: number; crateSongUuid: string; songId: string }[];
}

/**
 * Adds catalogue songs to a locked crate at `position` (or the end). A song already in the crate, or twice in
 * `songs`, is not added again (merge: reported in `skipped`). Refreshes the thumbnails when the first one lands
 * at position 32 or lower.
 */
export async function addSongs(
  em: EntityManager,
  crate: Crate,
  songs: Song[],
  position: number | undefined,
  maxSongs: number,
): Promise<AddOutcome> {
  const ids = songs.map((s) => s.id);
  const existing = await alreadyInCrate(em, { crateId: crate.id, ids });
  const inCrate = new Map(existing.map((r) => [r.song_id, r.id]));
  const skipped: AddOutcome["skipped"] = [];
  const fresh: Song[] = [];
  const seen = new Set<string>();
  songs.forEach((song, index) => {
    const there = inCrate.get(song.id);
    if (there !== undefined) skipped.push({ index, crateSongUuid: there, songId: song.id });
    else if (seen.has(song.id)) skipped.push({ index, crateSongUuid: "", songId: song.id });
    else {
      seen.add(song.id);
      fresh.push(song);
    }
  });
  const count = await countSongs(em, crate.id);
  if (count + fresh.length > maxSongs) {
    throw new ConnectError(`a crate holds at most ${maxSongs} songs`, Code.FailedPrecondition);
  }
  if (fresh.length === 0) return { added: [], skipped };
  const at = Math.min(position ?? count, count);
  let [prev, next] = await neighbours(em, crate.id, at, null);
  let ranks = ranksBetween(prev, next, fresh.length);
  if (ranks === null) {
    await renumber(em, crate.id, "rank");
    [prev, next] = await neighbours(em, crate.id, at, null);
    ranks = ranksBetween(prev, next, fresh.length)!;
  }
  const rows = await db(em)
    .insertInto("crate_song")
    .columns(["id", "crate_id", "song_id", "rank", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom(
          unnestRows("u", {
            song_id: sqlArray(
              fresh.map((s) => s.id),
              "uuid",
            ),
            rank: sqlArray(ranks, "bigint"),
          }),
        )
        .select([
          sql<string>`gen_random_uuid()`.as("id"),
          sql<string>`${crate.id}::uuid`.as("crate_id"),
          "u.song_id",
          "u.rank",
          sql<Date>`now()`.as("created_at"),
        ]),
    )
    .returning(["id", "song_id"])
    .execute();
  const idOf = new Map(rows.map((r) => [r.song_id, r.id]));
  // A track given twice in one call: the second names the crate song the first became.
  for (const s of skipped) if (s.crateSongUuid === "") s.crateSongUuid = idOf.get(s.songId) ?? "";
  crate.songsCount = count + fresh.length;
  if (at <= THUMBNAIL_WINDOW) await refreshThumbnails(em, crate);
  changed(em, crate, "added");
  const added = fresh.map((song, i) =>
    crateSongMessage(
      {
        crate_song_uuid: idOf.get(song.id)!,
        song_id: song.id,
        short_id: song.shortId,
        isrc: song.isrc ?? null,
        track_name: song.trackName,
        artist_name: song.artistName,
        duration: song.duration,
        explicit: song.explicit,
        music_providers: song.musicProviders,
        thumbnails: song.thumbnails,
        links: song.links,
        previews: song.previews,
        playback_token: song.playbackToken,
        genre: song.genre,
        album_name: song.albumName,
        release_year: song.releaseYear,
        stream_urls: song.streamUrls,
        status: song.status,
        available: song.available,
      },
      at + i,
    ),
  );
  return { added, skipped };
}

/** Removes one song of a locked crate (404 "crate song not found"). */
export async function removeSong(em: EntityManager, crate: Crate, crateSongUuid: string): Promise<void> {
  const row = await db(em)
    .selectFrom("crate_song as cs")
    .select((eb) => positionOf(eb).as("position"))
    .where("cs.crate_id", "=", crate.id)
    .where("cs.id", "=", crateSongUuid.toLowerCase())
    .executeTakeFirst();
  if (!row) throw new ConnectError("crate song not found", Code.NotFound);
  const position = Number(row.position);
  await db(em)
    .deleteFrom("crate_song")
    .where("crate_id", "=", crate.id)
    .where("id", "=", crateSongUuid.toLowerCase())
    .execute();
  crate.songsCount = Math.max(0, crate.songsCount - 1);
  if (position < crate.currentPosition) crate.currentPosition -= 1;
  crate.currentPosition = Math.min(crate.currentPosition, crate.songsCount);
  if (position < THUMBNAIL_WINDOW) await refreshThumbnails(em, crate);
  changed(em, crate, "removed");
}

const setRank = compiledOnce(db, (q, p: { id: string; rank: number }) =>
  q.updateTable("crate_song").set({ rank: p.rank }).where("id", "=", p.id),
);

/** Moves one song of a locked crate to `newPosition` (past the end: the last place); writes one row. */
export async function moveSong(
  em: EntityManager,
  crate: Crate,
  crateSongUuid: string,
  newPosition: number,
): Promise<CrateSongMessage> {
  const id = crateSongUuid.toLowerCase();
  const current = await crateSongAt(em, crate.id, id);
  // The crate's row is locked and every change keeps songsCount, so no count(*) over the crate here.
  const count = crate.songsCount;
  const target = Math.min(newPosition, count - 1);
  if (target === current.position) return current;
  let [prev, next] = await neighbours(em, crate.id, target, id);
  let ranks = ranksBetween(prev, next, 1);
  if (ranks === null) {
    await renumber(em, crate.id, "rank");
    [prev, next] = await neighbours(em, crate.id, target, id);
    ranks = ranksBetween(prev, next, 1)!;
  }
  await setRank(em, { id, rank: ranks[0]! });
  if (Math.min(target, current.position) < THUMBNAIL_WINDOW) await refreshThumbnails(em, crate);
  changed(em, crate, "moved");
  current.position = target;
  return current;
}

/** Shuffles a locked crate (one transaction: the caller's). */
export async function shuffleSongs(em: EntityManager, crate: Crate): Promise<void> {
  await renumber(em, crate.id, "random");
  crate.currentPosition = 0;
  await refreshThumbnails(em, crate);
  changed(em, crate, "shuffled");
}

/** Removes every song of a locked crate. */
export async function clearSongs(em: EntityManager, crate: Crate): Promise<void> {
  await db(em).deleteFrom("crate_song").where("crate_id", "=", crate.id).execute();
  crate.songsCount = 0;
  crate.currentPosition = 0;
  crate.thumbnails = [];
  changed(em, crate, "cleared");
}

/** Appends the songs of `source` (in its order) that `target` (locked) does not hold yet, in one statement. */
export async function copySongs(em: EntityManager, target: Crate, source: Crate, maxSongs: number): Promise<number> {
  const count = await countSongs(em, target.id);
  const [prev] = await neighbours(em, target.id, count, null);
  const base = prev ?? 0;
  const rows = await db(em)
    .insertInto("crate_song")
    .columns(["id", "crate_id", "song_id", "rank", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("crate_song as src")
        .select((src) => [
          sql<string>`gen_random_uuid()`.as("id"),
          sql<string>`${target.id}::uuid`.as("crate_id"),
          "src.song_id",
          sql<number>`${base}::bigint + row_number() over (order by ${src.ref("src.rank")}) * ${RANK_GAP}::bigint`.as(
            "rank",
          ),
          sql<Date>`now()`.as("created_at"),
        ])
        .where("src.crate_id", "=", source.id)
        .where((src) =>
          src.not(
            src.exists(
              src
                .selectFrom("crate_song as t")
                .select(sql.lit(1).as("one"))
                .where("t.crate_id", "=", target.id)
                .whereRef("t.song_id", "=", "src.song_id"),
            ),
          ),
        ),
    )
    .returning("id")
    .execute();
  if (count + rows.length > maxSongs) {
    throw new ConnectError(`a crate holds at most ${maxSongs} songs`, Code.FailedPrecondition);
  }
  target.songsCount = count + rows.length;
  if (count <= THUMBNAIL_WINDOW) await refreshThumbnails(em, target);
  changed(em, target, "copied");
  return rows.length;
}

/** Sets the current position of a locked crate (0…its number of songs). */
export function setCurrentPosition(em: EntityManager, crate: Crate, position: number): void {
  if (position > crate.songsCount) {
    throw new ConnectError(`currentPosition must be between 0 and ${crate.songsCount}`, Code.InvalidArgument);
  }
  crate.currentPosition = position;
  changed(em, crate, "current-position");
}

/** Creates an ordinary crate of `userUuid`; an empty name becomes "New Playlist #n" (002 §5). */
export async function createCrate(
  em: EntityManager,
  userUuid: string,
  name: string,
  description: string,
  maxCrates: number,
  importStatus: CrateImportStatus | null = null,
): Promise<Crate> {
  // One creation per user at a time, so two concurrent unnamed crates get two numbers.
  await advisoryXactLock(em, `tt-crate-user:${userUuid}`);
  const total = await em.count(Crate, { userUuid });
  if (total >= maxCrates) throw new ConnectError(`a user keeps at most ${maxCrates} crates`, Code.FailedPrecondition);
  let crateName = name.trim();
  if (crateName === "") {
    const rows = await db(em)
      .selectFrom("crate")
      .select("name")
      .where("user_uuid", "=", userUuid)
      .where("name", "like", `${NEW_PLAYLIST_PREFIX}%`)
      .execute();
    crateName = nextNewPlaylistName(rows.map((r) => r.name));
  }
  const crate = em.create(Crate, {
    shortId: newShortId(),
    userUuid,
    name: crateName,
    description: description.trim(),
    special: null,
    importStatus: importStatus === null ? null : wireName(CrateImportStatusSchema, importStatus),
    thumbnails: [],
    currentPosition: 0,
    songsCount: 0,
    version: 0,
  });
  changed(em, crate, "created");
  return crate;
}

/** Deletes an ordinary crate of the caller (the special ones: 403). */
export async function deleteCrate(em: EntityManager, crate: Crate): Promise<void> {
  if (crate.special !== null) throw new ConnectError("special crates cannot be deleted", Code.PermissionDenied);
  changed(em, crate, "deleted");
  em.remove(crate);
}

/** Renames and/or describes a crate; the special crates keep their names (403). */
export function updateCrate(
  em: EntityManager,
  crate: Crate,
  name: string | undefined,
  description: string | undefined,
): void {
  if (name !== undefined) {
    const trimmed = name.trim();
    if (trimmed === "") throw new ConnectError("crateName must not be empty", Code.InvalidArgument);
    if (crate.special !== null && trimmed !== crate.name) {
      throw new ConnectError("special crates keep their names", Code.PermissionDenied);
    }
    crate.name = trimmed;
  }
  if (description !== undefined) crate.description = description.trim();
  changed(em, crate, "updated");
}

/** A page of crates matching `where` (SQL over "crate"), special ones first, then newest first. */
export async function cratePage(
  em: EntityManager,
  where: { userUuid: string; ordinaryOnly: boolean },
  limit: number,
  offset: number,
): Promise<{ crates: Crate[]; total: number }> {
  const filter = where.ordinaryOnly ? { userUuid: where.userUuid, special: null } : { userUuid: where.userUuid };
  const [crates, total] = await em.findAndCount(Crate, filter, {
    orderBy: [{ special: "desc nulls last" }, { createdAt: "desc" }, { id: "asc" }] as never,
    limit,
    offset,
  });
  return { crates, total };
}
