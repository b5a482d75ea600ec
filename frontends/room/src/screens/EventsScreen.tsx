import { timestampDate } from "@bufbuild/protobuf/wkt";
import { useQuery } from "@tanstack/react-query";
import type { Event } from "@tt/proto/tt/room/v1/event_service_pb";
import {
  buttonClass,
  Card,
  EmptyState,
  PageHead,
  Skeleton,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  useFormat,
} from "@tt/web-kit/ui";
import { ArrowRight, CalendarX, Clock } from "lucide-react";
import { useState } from "react";
import { EVENT_PAGE_SIZE, roomKeys, useEventClient } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { ErrorText, Pager, useRoomT } from "../lib/ui.tsx";

type Kind = "upcoming" | "all";
const KINDS: readonly Kind[] = ["upcoming", "all"];

/** Upcoming events (GET /events/upcoming), or all of them (GET /events), paged. */
export function EventsScreen() {
  const { t } = useRoomT();
  const client = useEventClient();
  const [kind, setKind] = useState<Kind>("upcoming");
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: roomKeys.events(kind, offset),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === kind ? previous : undefined),
    queryFn: async (): Promise<{ events: Event[]; total: number }> =>
      kind === "upcoming"
        ? client.listUpcomingEvents({ limit: EVENT_PAGE_SIZE, offset })
        : client.listEvents({ limit: EVENT_PAGE_SIZE, offset }),
  });
  return (
    <div className="tt-room-events">
      <PageHead title={t("events.title")} intro={t("events.lead")} introClassName="tt-room-head__lead" />
      <Tabs
        value={kind}
        onValueChange={(next) => {
          setKind(next as Kind);
          setOffset(0);
        }}
      >
        <TabList label={t("events.lists")}>
          {KINDS.map((name) => (
            <Tab key={name} value={name}>
              {t(`events.${name}`)}
            </Tab>
          ))}
        </TabList>
        {KINDS.map((name) => (
          <TabPanel key={name} value={name}>
            {name !== kind ? null : list.isError ? (
              <ErrorText error={list.error} />
            ) : !list.data ? (
              <div className="tt-room-events__list" role="status" aria-label={t("loading")} aria-busy="true">
                {[0, 1, 2].map((index) => (
                  <Skeleton key={index} height="6.5rem" radius="var(--tt-radius-lg)" />
                ))}
              </div>
            ) : list.data.events.length === 0 ? (
              <EmptyState
                icon={<CalendarX />}
                title={kind === "upcoming" ? t("events.emptyUpcoming") : t("events.empty")}
                action={
                  <Link className={buttonClass("secondary")} to="/">
                    {t("events.browseRooms")}
                  </Link>
                }
              >
                {t("events.emptyHint")}
              </EmptyState>
            ) : (
              <>
                <ul className="tt-room-events__list" aria-label={t(`events.${kind}`)}>
                  {list.data.events.map((event) => (
                    <EventCard key={event.id} event={event} />
                  ))}
                </ul>
                <Pager offset={offset} limit={EVENT_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />
              </>
            )}
          </TabPanel>
        ))}
      </Tabs>
    </div>
  );
}

/** One event: its day on a calendar leaf, its name, when it runs in the reader's time, and its room. */
function EventCard({ event }: { event: Event }) {
  const { t, i18n } = useRoomT();
  const format = useFormat();
  const start = event.startsAt ? timestampDate(event.startsAt) : undefined;
  const end = event.endsAt ? timestampDate(event.endsAt) : undefined;
  const sameDay = start && end && start.toDateString() === end.toDateString();
  const when = start
    ? end
      ? t("events.when", { start: format.dateTime(start), end: sameDay ? format.time(end) : format.dateTime(end) })
      : format.dateTime(start)
    : undefined;
  return (
    <li>
      <Card className="tt-room-event">
        {start ? (
          <time className="tt-room-event__leaf" dateTime={start.toISOString()} aria-hidden="true">
            <span className="tt-room-event__month">
              {new Intl.DateTimeFormat(i18n.language, { month: "short" }).format(start)}
            </span>
            <span className="tt-room-event__day">{start.getDate()}</span>
          </time>
        ) : (
          <span className="tt-room-event__leaf" aria-hidden="true" />
        )}
        <div className="tt-room-event__body">
          <h3 className="tt-room-card__title">{event.name}</h3>
          {when && (
            <p className="tt-room-card__meta">
              <Clock aria-hidden="true" className="tt-room-inline-icon" />
              {when}
            </p>
          )}
          {event.description && <p className="tt-room-card__description">{event.description}</p>}
        </div>
        {event.roomId && (
          <Link className={buttonClass("secondary", "sm")} to={`/r/${encodeURIComponent(event.roomId)}`}>
            {t("events.enter")}
            <ArrowRight aria-hidden="true" />
          </Link>
        )}
      </Card>
    </li>
  );
}
