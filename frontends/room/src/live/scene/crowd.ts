// The dance floor's placement (issue 25): every listener has a stable spot derived from their user id, so they stand
// in the same place each time they join; the people the viewer knows (friends, followed DJs) stand nearest the stage.

/** How many listeners the floor draws at most, by the screen's width (the rest are counted in words). */
export const CROWD_CAP_DESKTOP = 60;
export const CROWD_CAP_PHONE = 24;

/** FNV-1a, 32 bits: a user id's stable number (not a secret, only a spread). */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface CrowdSpot {
  user: string;
  /** Left and top in per cent of the floor (the top edge is the stage). */
  x: number;
  y: number;
  /** Known to the viewer: drawn in the rows nearest the stage. */
  near: boolean;
}

export interface CrowdSample {
  spots: CrowdSpot[];
  /** Listeners on the floor who are not drawn. */
  more: number;
}

/** The band of the floor (per cent from the stage) for the people the viewer knows, and for everyone else. */
const NEAR_BAND: readonly [number, number] = [4, 30];
const FAR_BAND: readonly [number, number] = [34, 86];

/** A user's spot: the same for the same user id on every join and every page. */
export function spotOf(user: string, near: boolean): CrowdSpot {
  const hash = hashOf(user);
  const [top, bottom] = near ? NEAR_BAND : FAR_BAND;
  const x = 4 + ((hash & 0xffff) / 0xffff) * 88;
  const y = top + ((hash >>> 16) / 0xffff) * (bottom - top);
  return { user, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, near };
}

/**
 * The listeners the floor draws: without the users the room keeps off the floor, the known ones first, then the
 * others in the order of their stable number (the same sample on every page), at most `cap`; sorted back to front so
 * the nearer ones overlap the farther.
 */
export function sampleCrowd(
  dancefloor: readonly string[],
  {
    cap,
    nearStage,
    hidden,
  }: { cap: number; nearStage?: ReadonlySet<string> | undefined; hidden?: ReadonlySet<string> | undefined },
): CrowdSample {
  const shown = [...new Set(dancefloor)].filter((user) => !hidden?.has(user));
  const ranked = shown
    .map((user) => ({ user, near: nearStage?.has(user) ?? false, hash: hashOf(user) }))
    .sort((a, b) => Number(b.near) - Number(a.near) || a.hash - b.hash || (a.user < b.user ? -1 : 1));
  const drawn = ranked.slice(0, Math.max(0, cap));
  const spots = drawn.map(({ user, near }) => spotOf(user, near)).sort((a, b) => a.y - b.y || a.x - b.x);
  return { spots, more: shown.length - drawn.length };
}
