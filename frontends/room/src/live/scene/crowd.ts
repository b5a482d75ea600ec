// The dance floor's placement (issue 25): every listener has a stable spot derived from their user id, so they stand
// in the same place each time they join; the people the viewer knows (friends, followed DJs) stand nearest the stage.

/**
 * The floor is a grid of cells, one avatar each (avatars never cover each other: each stays a full target to tap):
 * a desktop's 12 × 4 and a phone's 8 × 3. The floor draws at most one listener per cell; the rest are counted.
 */
export interface CrowdGrid {
  cols: number;
  rows: number;
}
export const CROWD_GRID_DESKTOP: CrowdGrid = { cols: 12, rows: 4 };
export const CROWD_GRID_PHONE: CrowdGrid = { cols: 8, rows: 3 };
export const CROWD_CAP_DESKTOP = CROWD_GRID_DESKTOP.cols * CROWD_GRID_DESKTOP.rows;
export const CROWD_CAP_PHONE = CROWD_GRID_PHONE.cols * CROWD_GRID_PHONE.rows;

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

/** How far (a share of a cell's width) an avatar may stand off its cell's middle: a crowd, not a chessboard. */
const JITTER = 0.3;

/** A user's preferred cell: the front row for the people the viewer knows, another row for everyone else. */
function preferredCell(hash: number, near: boolean, grid: CrowdGrid): number {
  const row = near || grid.rows === 1 ? 0 : 1 + ((hash >>> 16) % (grid.rows - 1));
  return row * grid.cols + (hash % grid.cols);
}

/**
 * The first free cell from `preferred` on: the rest of the floor in order for the people the viewer knows; for
 * everyone else the rows behind the front one first, the front row only once they are full.
 */
function freeCell(preferred: number, near: boolean, grid: CrowdGrid, taken: ReadonlySet<number>): number {
  const cells = grid.cols * grid.rows;
  const back = near ? 0 : Math.min(grid.cols, cells - 1);
  for (let step = 0; step < cells - back; step += 1) {
    const cell = back + ((preferred - back + step) % (cells - back));
    if (!taken.has(cell)) return cell;
  }
  for (let cell = 0; cell < back; cell += 1) if (!taken.has(cell)) return cell;
  return preferred;
}

/** Where a cell is on the floor, in per cent, the avatar moved off the middle by the user's own amount. */
function placeIn(cell: number, user: string, hash: number, near: boolean, grid: CrowdGrid): CrowdSpot {
  const col = cell % grid.cols;
  const row = Math.floor(cell / grid.cols);
  const offset = (((hash >>> 8) & 0xff) / 0xff - 0.5) * JITTER;
  const x = ((col + 0.5 + offset) / grid.cols) * 100;
  const y = ((row + 0.5) / grid.rows) * 100;
  return { user, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, near };
}

/** A user's spot on an empty floor: the same for the same user id on every join and every page. */
export function spotOf(user: string, near: boolean, grid: CrowdGrid = CROWD_GRID_DESKTOP): CrowdSpot {
  const hash = hashOf(user);
  return placeIn(preferredCell(hash, near, grid), user, hash, near, grid);
}

/**
 * The listeners the floor draws: without the users the room keeps off the floor, the known ones first, then the
 * others in the order of their stable number (the same sample on every page), at most one per cell. Each takes their
 * preferred cell, or the next free one after it when someone earlier in that order holds it: a listener keeps their
 * spot between joins unless the floor is crowded around it. Sorted back to front.
 */
export function sampleCrowd(
  dancefloor: readonly string[],
  {
    cap,
    grid = CROWD_GRID_DESKTOP,
    nearStage,
    hidden,
  }: {
    cap?: number;
    grid?: CrowdGrid;
    nearStage?: ReadonlySet<string> | undefined;
    hidden?: ReadonlySet<string> | undefined;
  },
): CrowdSample {
  const cells = grid.cols * grid.rows;
  const shown = [...new Set(dancefloor)].filter((user) => !hidden?.has(user));
  const ranked = shown
    .map((user) => ({ user, near: nearStage?.has(user) ?? false, hash: hashOf(user) }))
    .sort((a, b) => Number(b.near) - Number(a.near) || a.hash - b.hash || (a.user < b.user ? -1 : 1));
  const drawn = ranked.slice(0, Math.max(0, Math.min(cap ?? cells, cells)));
  const taken = new Set<number>();
  const spots = drawn
    .map(({ user, near, hash }) => {
      const cell = freeCell(preferredCell(hash, near, grid), near, grid, taken);
      taken.add(cell);
      return placeIn(cell, user, hash, near, grid);
    })
    .sort((a, b) => a.y - b.y || a.x - b.x);
  return { spots, more: shown.length - drawn.length };
}
