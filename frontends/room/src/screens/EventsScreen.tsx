import { timestampDate } from "@bufbuild/protobuf/wkt";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Event } from "@tt/proto/tt/room/v1/event_service_pb";
import { EVENT_PAGE_SIZE, roomKeys, useEventClient } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { ErrorMessage, Pager, useRoomT } from "../lib/ui.tsx";

/** Upcoming events (GET /events/upcoming), or all of them (GET /events), paged. */
export function EventsScreen() {
  const { t, i18n } = useRoomT();
  const client = useEventClient();
  const [kind, setKind] = useState<"upcoming" | "all">("upcoming");
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: roomKeys.events(kind, offset),
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ events: Event[]; total: number }> =>
      kind === "upcoming"
        ? client.listUpcomingEvents({ limit: EVENT_PAGE_SIZE, offset })
        : client.listEvents({ limit: EVENT_PAGE_SIZE, offset }),
  });
  const when = (value: Parameters<typeof timestampDate>[0] | undefined) =>
    value ? timestampDate(value).toLocaleString(i18n.language) : "";
  return (
    <div>
      <h1 className="tt-page-title">{kind === "upcoming" ? t("events.title") : t("events.all")}</h1>
      <div role="tablist" className="tt-room-kinds">
        {(["upcoming", "all"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={kind === name}
            className="tt-button tt-button--quiet"
            onClick={() => {
              setKind(name);
              setOffset(0);
            }}
          >
            {name === "upcoming" ? t("events.title") : t("events.all")}
          </button>
        ))}
      </div>
      {list.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : list.isError ? (
        <ErrorMessage error={list.error} />
      ) : list.data.events.length === 0 ? (
        <p className="tt-muted" role="status">
          {t("events.empty")}
        </p>
      ) : (
        <>
          <ul className="tt-room-list">
            {list.data.events.map((event) => (
              <li key={event.id} className="tt-card tt-room-card">
                <h3>{event.name}</h3>
                <p className="tt-muted">{t("events.when", { start: when(event.startsAt), end: when(event.endsAt) })}</p>
                {event.description && <p>{event.description}</p>}
                {event.roomId && <Link to={`/r/${encodeURIComponent(event.roomId)}`}>{t("room.enter")}</Link>}
              </li>
            ))}
          </ul>
          <Pager offset={offset} limit={EVENT_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />
        </>
      )}
    </div>
  );
}
