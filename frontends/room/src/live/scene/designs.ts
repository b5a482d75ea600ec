// The twelve room designs (spec 001 §3 `design`) and the scene family that draws each: the art of a family is its
// own chunk, fetched when a room of that design is open. The _UA variants share their base scene with another
// palette (scene.css, by data-design).
export const ROOM_DESIGNS = [
  "BARN",
  "BARN_UA",
  "CHAT_ONLY",
  "CLUB",
  "CLUB_UA",
  "FERRY_BUILDING",
  "FESTIVAL",
  "STADIUM",
  "THEATER",
  "TOMORROWLAND",
  "UNDERGROUND",
  "YACHT",
] as const;

export type RoomDesign = (typeof ROOM_DESIGNS)[number];

/** The design a room without a known one is drawn in (the room service's default). */
export const FALLBACK_DESIGN: RoomDesign = "CLUB";

export type SceneFamily = "barn" | "club" | "openAir" | "hall" | "yacht";

export const FAMILY_OF: Record<Exclude<RoomDesign, "CHAT_ONLY">, SceneFamily> = {
  BARN: "barn",
  BARN_UA: "barn",
  CLUB: "club",
  CLUB_UA: "club",
  UNDERGROUND: "club",
  FESTIVAL: "openAir",
  TOMORROWLAND: "openAir",
  STADIUM: "openAir",
  THEATER: "hall",
  FERRY_BUILDING: "hall",
  YACHT: "yacht",
};

/** A known design, else the fallback (a design added later is drawn as the default until it has art). */
export function designOf(value: string | undefined): RoomDesign {
  return (ROOM_DESIGNS as readonly string[]).includes(value ?? "") ? (value as RoomDesign) : FALLBACK_DESIGN;
}

/** The wall the poster hangs on, in per cent of the venue (left, top, width); none where the scene has no wall. */
export const POSTER_WALL: Partial<Record<RoomDesign, { left: number; top: number; width: number }>> = {
  BARN: { left: 6, top: 8, width: 12 },
  BARN_UA: { left: 6, top: 8, width: 12 },
  CLUB: { left: 82, top: 8, width: 11 },
  CLUB_UA: { left: 82, top: 8, width: 11 },
  UNDERGROUND: { left: 6, top: 10, width: 11 },
  THEATER: { left: 44, top: 3, width: 12 },
  FERRY_BUILDING: { left: 80, top: 10, width: 12 },
  FESTIVAL: { left: 82, top: 6, width: 12 },
  TOMORROWLAND: { left: 44, top: 2, width: 12 },
};

/** The props of each family's art (a decorative SVG backdrop). */
export interface SceneArtProps {
  design: RoomDesign;
}
