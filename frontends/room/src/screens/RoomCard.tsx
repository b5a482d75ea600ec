import { useAnalytics } from "@tt/web-kit";
import type { Room } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { useRoomT } from "../lib/ui.tsx";

/**
 * One room of a list; the listener count shows only when the live stage reports one. Opening it (which joins
 * the room) is a room action, with the list it was opened from.
 */
export function RoomCard({ room, listeners, from }: { room: Room; listeners?: number | undefined; from?: string }) {
  const { t } = useRoomT();
  const analytics = useAnalytics();
  return (
    <li className="tt-card tt-room-card">
      <h3>
        <Link
          to={`/r/${encodeURIComponent(room.slug || room.uuid)}`}
          onClick={() => analytics.track("room-action", { action: "join", roomUuid: room.uuid, from: from ?? "" })}
        >
          {room.name}
        </Link>
      </h3>
      <p className="tt-muted">
        {room.isLive && <span className="tt-room-live">{t("directory.live")}</span>}{" "}
        {t(`enum.${room.type}`, { defaultValue: room.type })} · {room.design}
        {listeners !== undefined && <> · {t("directory.listeners", { count: listeners })}</>}
      </p>
      {room.description && <p>{room.description}</p>}
    </li>
  );
}
