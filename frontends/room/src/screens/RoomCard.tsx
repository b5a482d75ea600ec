import type { Room } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { useRoomT } from "../lib/ui.tsx";

/** One room of a list; the listener count shows only when the live stage reports one. */
export function RoomCard({ room, listeners }: { room: Room; listeners?: number | undefined }) {
  const { t } = useRoomT();
  return (
    <li className="tt-card tt-room-card">
      <h3>
        <Link to={`/r/${encodeURIComponent(room.slug || room.uuid)}`}>{room.name}</Link>
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
