// What the live room keeps in the browser (spec 002 §4, §9): the room the listener is in (`currentDancefloor`,
// its slug, updated when the room's slug changes), the details of a kick, and a guest's preview counter.
import type { Kicked } from "@tt/proto/tt/social/v1/stage_pb";
import { timestampMs } from "@bufbuild/protobuf/wkt";

/** Spec 002 §9: the stored room local key. */
export const CURRENT_DANCEFLOOR_KEY = "currentDancefloor";
/** The last kick's details (§4: "on being kicked it leaves the room and stores the kick details"). */
export const KICK_DETAILS_KEY = "tt-room-kick";
/** Spec 002 §4: the preview-songs-played counter of listeners who are not signed in. */
export const PREVIEW_SONGS_PLAYED_KEY = "tt-preview-songs-played";
/**
 * Songs a guest hears before the page asks them to sign up (§4: "threshold value not shown";
 * docs/decisions/0213-guests-preview-threshold-and-a-kick-kept-in.md). A room page can be given another.
 */
export const PREVIEW_SONG_LIMIT = 3;

export interface KickDetails {
  room: string;
  /** Epoch ms; undefined for a ban without an end. */
  until?: number;
  by: string;
  reason: string;
}

const storage = (): Storage | undefined => {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

export function storeCurrentDancefloor(slug: string | null): void {
  const store = storage();
  if (!store) return;
  if (slug) store.setItem(CURRENT_DANCEFLOOR_KEY, slug);
  else store.removeItem(CURRENT_DANCEFLOOR_KEY);
}

export function kickDetailsOf(kicked: Kicked): KickDetails {
  return {
    room: kicked.room,
    ...(kicked.until ? { until: timestampMs(kicked.until) } : {}),
    by: kicked.by,
    reason: kicked.reason || "kicked",
  };
}

export function storeKickDetails(details: KickDetails): void {
  storage()?.setItem(KICK_DETAILS_KEY, JSON.stringify(details));
}

export function readKickDetails(): KickDetails | null {
  try {
    const value = JSON.parse(storage()?.getItem(KICK_DETAILS_KEY) ?? "null") as KickDetails | null;
    return value && typeof value.room === "string" ? value : null;
  } catch {
    return null;
  }
}

export function previewSongsPlayed(): number {
  const value = Number(storage()?.getItem(PREVIEW_SONGS_PLAYED_KEY) ?? 0);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** Counts one more song heard without signing in; returns the new count. */
export function countPreviewSong(): number {
  const next = previewSongsPlayed() + 1;
  storage()?.setItem(PREVIEW_SONGS_PLAYED_KEY, String(next));
  return next;
}
