import { useQuery } from "@tanstack/react-query";
import { buttonClass, EmptyState, PageHead } from "@tt/web-kit/ui";
import { Headphones, Plus, Radio } from "lucide-react";
import { ROOM_PAGE_SIZE, roomKeys, useRoomClient } from "./api.ts";
import { Link, SHELL_MOUNT } from "./lib/router.tsx";
import { CardGridSkeleton, ErrorText, useRoomT } from "./lib/ui.tsx";
import { useDjPeople, useLiveRooms, type LiveRoom } from "./live-rooms.tsx";
import { RoomCard, type CardRoom } from "./screens/RoomCard.tsx";
import "./room.css";

/** The rooms the home page shows. */
const HOME_ROOMS = 6;

function cardRoomOf(live: LiveRoom, promoted: ReadonlySet<string>): CardRoom {
  const room = live.room!;
  return { ...room, promoted: promoted.has(room.uuid) };
}

/**
 * The home page's "Live now" (exposed to the shell): the busiest public rooms with their listeners, song and DJs,
 * the promoted ones marked, and a one-click way into the busiest one (on a fresh install, the resident DJ's Lobby).
 * With nobody on the decks: how to start a room.
 */
export function LiveNow() {
  const { t } = useRoomT();
  const client = useRoomClient();
  const live = useLiveRooms(null, HOME_ROOMS);
  const promoted = useQuery({
    queryKey: roomKeys.list("promoted", "", 0),
    queryFn: () => client.listPromotedRooms({ limit: ROOM_PAGE_SIZE, offset: 0 }),
    staleTime: 60_000,
  });
  const people = useDjPeople(live.data);
  const promotedIds = new Set((promoted.data?.rooms ?? []).map((room) => room.uuid));
  const rooms = (live.data ?? []).filter((r) => r.room !== undefined);
  const [first] = rooms;

  let content;
  if (live.isError && !live.data) content = <ErrorText error={live.error} />;
  else if (!live.data) content = <CardGridSkeleton count={3} label={t("loading")} />;
  else if (!first) {
    content = (
      <EmptyState
        icon={<Radio />}
        title={t("liveNow.empty")}
        action={
          <Link className={buttonClass("primary")} to="/create" base={SHELL_MOUNT}>
            <Plus aria-hidden="true" />
            {t("liveNow.startOne")}
          </Link>
        }
      >
        {t("liveNow.emptyHint")}
      </EmptyState>
    );
  } else {
    content = (
      <ul className="tt-room-grid" aria-labelledby="live-now-title">
        {rooms.map((r) => (
          <RoomCard
            key={r.room!.uuid}
            room={cardRoomOf(r, promotedIds)}
            live={r}
            people={people}
            from="home"
            base={SHELL_MOUNT}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className="tt-live-now" aria-labelledby="live-now-title">
      <PageHead
        level={2}
        titleId="live-now-title"
        titleClassName="tt-live-now__title"
        title={
          <>
            <span className="tt-room-live__dot" aria-hidden="true" />
            {t("liveNow.title")}
          </>
        }
        intro={t("liveNow.lead")}
      >
        {first && (
          <Link
            className={buttonClass("primary")}
            to={`/r/${encodeURIComponent(first.room!.slug || first.room!.uuid)}`}
            base={SHELL_MOUNT}
          >
            <Headphones aria-hidden="true" />
            {t("liveNow.join", { name: first.room!.name })}
          </Link>
        )}
      </PageHead>
      {content}
    </section>
  );
}
