import { useAnalytics } from "@tt/web-kit";
import { Badge, Card, useNames } from "@tt/web-kit/ui";
import {
  Drama,
  Headphones,
  Landmark,
  Lock,
  MessagesSquare,
  Music,
  Ship,
  Sparkles,
  Tent,
  TrainFront,
  Trophy,
  Warehouse,
  type LucideIcon,
} from "lucide-react";
import type { Room } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { useRoomT } from "../lib/ui.tsx";
import { listenersOf, LiveLines, type DjPeople, type LiveRoom } from "../live-rooms.tsx";

/** The mark of each room design on its card's cover (the venue itself is drawn in the live room). */
const DESIGN_ICONS: Record<string, LucideIcon> = {
  BARN: Warehouse,
  BARN_UA: Warehouse,
  CHAT_ONLY: MessagesSquare,
  CLUB: Music,
  CLUB_UA: Music,
  FERRY_BUILDING: Landmark,
  FESTIVAL: Tent,
  STADIUM: Trophy,
  THEATER: Drama,
  TOMORROWLAND: Sparkles,
  UNDERGROUND: TrainFront,
  YACHT: Ship,
};

/**
 * How far each design turns the cover's colours from the accent's violet (a hue rotation): a curated palette, so
 * each kind of venue reads apart at a glance and none lands on a muddy colour.
 */
const DESIGN_TURNS: Record<string, number> = {
  BARN: 105,
  BARN_UA: -95,
  CHAT_ONLY: -25,
  CLUB: 0,
  CLUB_UA: -110,
  FERRY_BUILDING: -75,
  FESTIVAL: 85,
  STADIUM: -140,
  THEATER: 45,
  TOMORROWLAND: 25,
  UNDERGROUND: -120,
  YACHT: -60,
};

/** The cover of a room: its poster, else its design's mark on a gradient. */
export function RoomCover({ room }: { room: Pick<Room, "design" | "posterUrl"> }) {
  const Icon = DESIGN_ICONS[room.design] ?? Headphones;
  return (
    <div
      className="tt-room-cover"
      data-design={room.design}
      style={{ ["--tt-cover-turn" as string]: `${DESIGN_TURNS[room.design] ?? 0}deg` }}
      aria-hidden="true"
    >
      {room.posterUrl ? <img src={room.posterUrl} alt="" loading="lazy" /> : <Icon />}
    </div>
  );
}

/** What a card shows of a room (the room service's Room, or the live stage's copy of it on the home page). */
export type CardRoom = Pick<
  Room,
  "uuid" | "slug" | "name" | "design" | "posterUrl" | "type" | "isLive" | "promoted"
> & {
  description?: string;
};

/**
 * One room of a list, a card: cover, live / private / promoted marks, name (the link, which covers the card), design
 * and description; with the room's live stage, its listeners, the song playing and the DJs. Opening it (which joins
 * the room) is a room action, with the list it was opened from. `base` is where the room app is mounted when the card
 * is shown on another page of the shell (the home page).
 */
export function RoomCard({
  room,
  live,
  people,
  from,
  base,
}: {
  room: CardRoom;
  live?: LiveRoom | undefined;
  people?: DjPeople | undefined;
  from?: string;
  base?: string;
}) {
  const { t } = useRoomT();
  const name = useNames();
  const analytics = useAnalytics();
  return (
    <li className="tt-room-grid__item">
      <Card interactive className="tt-linked-card tt-room-card">
        <RoomCover room={room} />
        <div className="tt-room-card__marks">
          {(room.isLive || live?.play) && (
            <Badge tone="live" className="tt-room-live">
              <span className="tt-room-live__dot" aria-hidden="true" />
              {t("directory.live")}
            </Badge>
          )}
          {room.type === "PRIVATE" && <Badge icon={<Lock aria-hidden="true" />}>{name("roomType", room.type)}</Badge>}
          {room.promoted && (
            <Badge tone="accent" icon={<Sparkles aria-hidden="true" />}>
              {t("directory.promotedMark")}
            </Badge>
          )}
        </div>
        <h3 className="tt-room-card__title">
          <Link
            className="tt-linked-card__link tt-room-card__link"
            to={`/r/${encodeURIComponent(room.slug || room.uuid)}`}
            base={base}
            onClick={() => analytics.track("room-action", { action: "join", roomUuid: room.uuid, from: from ?? "" })}
          >
            {room.name}
          </Link>
        </h3>
        <p className="tt-room-card__meta">
          {name("design", room.design)}
          {live && <> · {t("directory.listeners", { count: listenersOf(live) })}</>}
        </p>
        {live && people && <LiveLines live={live} people={people} />}
        {room.description && <p className="tt-room-card__description">{room.description}</p>}
      </Card>
    </li>
  );
}
