// What the routes share: configuration, the object store, the secrets, and the question "may this user
// upload?" (the user service's answer), plus the helpers every area uses.
import { Code, ConnectError } from "@connectrpc/connect";
import type { FilterQuery } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Identity, ObjectStore, SessionRevocations } from "@tt/kit";
import type { Logger } from "pino";
import type { UploadConfig } from "../config.ts";
import type { UploadSecrets } from "../modules/songs/secrets.ts";
import { songView } from "../modules/songs/song-view.ts";
import { Song } from "../modules/songs/song.entity.ts";

export interface UploadContext {
  config: UploadConfig;
  orm: MikroORM;
  store: ObjectStore;
  secrets: UploadSecrets;
  /** Revoked sessions: a playback ticket ends with its session. */
  revocations: Pick<SessionRevocations, "isRevoked">;
  logger: Logger;
  /** Whether the user holds the uploadMusic capability (asks the user service). */
  canUpload(userId: string, signal: AbortSignal): Promise<boolean>;
  /**
   * Whether `listener` is a signed-in listener of `room` while the song's owner plays the song there (asks the
   * social service's stage; false when it cannot be asked).
   */
  isRoomListener(room: string, listener: string, song: Song, signal: AbortSignal): Promise<boolean>;
}

export const SONG_NOT_FOUND = "Song not found";
export const NOT_VERIFIED = "Song is not verified";
export const EDIT_REFUSED = "Unauthorized to edit tags that not belongs to the user";
export const DELETE_REFUSED = "Unauthorized to delete a song that not belongs to the user";
export const UPLOAD_REFUSED = "Uploading music requires the uploadMusic capability";

/** Roles that may delete any song (removing an offending upload). */
export const STAFF_ROLES = new Set(["admin", "globalModerator", "staff", "superUser"]);

// The table's ids are PostgreSQL integers: a larger (yet valid) id names no song.
const MAX_ID = 2_147_483_647;

export const notFound = () => new ConnectError(SONG_NOT_FOUND, Code.NotFound);

/** The song with this numeric id (any state), or 404. */
export async function songById(em: EntityManager, id: bigint): Promise<Song> {
  const song = id >= 1n && id <= BigInt(MAX_ID) ? await em.findOne(Song, { id: Number(id) }) : null;
  if (!song) throw notFound();
  return song;
}

export const isOwner = (song: Song, who: Identity) =>
  (who.tokenType === "user" || who.tokenType === "bot") && song.owner === who.subject;

/**
 * Its owner, services and admins (STAFF_ROLES) may read and play any song
 * (docs/decisions/0281-who-may-play-an-upload-that-is-not-public.md).
 */
export const isPrivileged = (song: Song, who: Identity) =>
  isOwner(song, who) || who.tokenType === "service" || STAFF_ROLES.has(who.role);

/**
 * Public VERIFIED songs are readable by every caller; a song not yet verified, or not public, only by its owner,
 * services and admins (issue 23: the counting numeric id must not show a stranger an unpublished upload).
 */
export function canRead(song: Song, who: Identity): boolean {
  return (song.status === "VERIFIED" && song.public) || isPrivileged(song, who);
}

/** The song if the caller may see it, else 404 (a song not yet verified or not public is not shown to others). */
export async function readableSong(em: EntityManager, id: bigint, who: Identity): Promise<Song> {
  const song = await songById(em, id);
  if (!canRead(song, who)) throw notFound();
  return song;
}

/**
 * Who may play a song (docs/decisions/0281-who-may-play-an-upload-that-is-not-public.md): everyone a public one; one
 * that is not public its owner, services, admins, and the signed-in listeners of `room` while its owner plays it there.
 * A caller without a token (`who` undefined) plays public songs only.
 */
export async function mayPlay(
  svc: UploadContext,
  song: Song,
  who: Identity | undefined,
  room: string,
  signal: AbortSignal,
): Promise<boolean> {
  if (song.public) return true;
  if (!who) return false;
  if (isPrivileged(song, who)) return true;
  if (!room || (who.tokenType !== "user" && who.tokenType !== "bot")) return false;
  return svc.isRoomListener(room.toLowerCase(), who.subject, song, signal);
}

/**
 * The VERIFIED song the caller may play: 404 when there is none or the caller may not play it (a song that is
 * not public is not shown to others), then 403 "Song is not verified" before it is VERIFIED.
 */
export async function playableSong(
  svc: UploadContext,
  em: EntityManager,
  id: bigint,
  who: Identity | undefined,
  room: string,
  signal: AbortSignal,
): Promise<Song> {
  const song = await songById(em, id);
  if (!(await mayPlay(svc, song, who, room, signal))) throw notFound();
  if (song.status !== "VERIFIED") throw new ConnectError(NOT_VERIFIED, Code.PermissionDenied);
  return song;
}

/** The VERIFIED song, 403 "Song is not verified" before that, 404 when there is none. */
export async function verifiedSong(em: EntityManager, id: bigint): Promise<Song> {
  const song = await songById(em, id);
  if (song.status !== "VERIFIED") throw new ConnectError(NOT_VERIFIED, Code.PermissionDenied);
  return song;
}

export const DEFAULT_PAGE = 20;

/** One page, newest first, with the number of matches. */
export async function songPage(em: EntityManager, where: FilterQuery<Song>, limit: number, offset: number) {
  const [songs, total] = await em.findAndCount(Song, where, {
    orderBy: { id: "desc" },
    limit: limit > 0 ? limit : DEFAULT_PAGE,
    offset: Math.max(0, offset),
  });
  return { songs: songs.map(songView), total };
}

/** Everyone's public VERIFIED songs. */
export const PUBLIC_SONGS: FilterQuery<Song> = { public: true, status: "VERIFIED" };

/** What a caller finds by searching: its own songs and everyone's public VERIFIED ones. */
export function searchFilter(term: string, who: Identity): FilterQuery<Song> {
  const trimmed = term.trim();
  if (!trimmed) throw new ConnectError("term missing in request", Code.InvalidArgument);
  const like = `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const visible: FilterQuery<Song>[] = [PUBLIC_SONGS];
  if (who.tokenType === "user" || who.tokenType === "bot") visible.push({ owner: who.subject });
  return {
    $and: [
      { $or: visible },
      { $or: [{ trackName: { $ilike: like } }, { artistName: { $ilike: like } }, { albumName: { $ilike: like } }] },
    ],
  };
}
