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

/**
 * One room of a list, a card: cover, live / private / promoted marks, name (the link, which covers the card), design
 * and description; the listener count shows only when the live stage reports one. Opening it (which joins the room)
 * is a room action, with the list it was opened from.
 */
export function RoomCard({ room, listeners, from }: { room: Room; listeners?: number | undefined; from?: string }) {
  const { t } = useRoomT();
  const name = useNames();
  const analytics = useAnalytics();
  return (
    <li className="tt-room-grid__item">
      <Card interactive className="tt-room-card">
        <RoomCover room={room} />
        <div className="tt-room-card__marks">
          {room.isLive && (
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
            className="tt-room-card__link"
            to={`/r/${encodeURIComponent(room.slug || room.uuid)}`}
            onClick={() => analytics.track("room-action", { action: "join", roomUuid: room.uuid, from: from ?? "" })}
          >
            {room.name}
          </Link>
        </h3>
        <p className="tt-room-card__meta">
          {name("design", room.design)}
          {listeners !== undefined && <> · {t("directory.listeners", { count: listeners })}</>}
        </p>
        {room.description && <p className="tt-room-card__description">{room.description}</p>}
      </Card>
    </li>
  );
}
