import { useQuery } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { Button, buttonClass, EmptyState, Input, PageHead, Tab, TabList, TabPanel, Tabs } from "@tt/web-kit/ui";
import { History, LogIn, Plus, Radio, Search, SearchX, Sparkles } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ROOM_PAGE_SIZE, roomKeys, useRoomClient, type Room } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { CardGridSkeleton, ErrorText, Pager, useRoomT } from "../lib/ui.tsx";
import { LIVE_REFRESH_MS, liveOfListed, useDjPeople } from "../live-rooms.tsx";
import { RoomCard } from "./RoomCard.tsx";

type Kind = "public" | "promoted" | "mine" | "recent";
const KINDS: readonly Kind[] = ["public", "promoted", "mine", "recent"];

/** The room directory: public rooms (searchable by name), promoted rooms, your rooms and your recent rooms. */
export function DirectoryScreen() {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const client = useRoomClient();
  const [kind, setKind] = useState<Kind>("public");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const needsAccount = (kind === "mine" || kind === "recent") && !signedIn;
  const term = kind === "public" ? search.trim() : "";
  const query = useQuery({
    queryKey: roomKeys.list(kind, term, offset),
    enabled: !needsAccount,
    refetchInterval: LIVE_REFRESH_MS,
    // The page before stays while the next page or search loads; another list starts from its skeleton.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === kind ? previous : undefined),
    queryFn: async (): Promise<{ rooms: Room[]; total: number }> => {
      const page = { limit: ROOM_PAGE_SIZE, offset };
      switch (kind) {
        case "public":
          return client.listPublicRooms({ ...page, search: term });
        case "promoted":
          return client.listPromotedRooms(page);
        case "mine":
          return client.listMyRooms(page);
        case "recent":
          return client.listRecentRooms(page);
      }
    },
  });
  useHomeRoomsLoaded(kind, query.isSuccess ? query.data : undefined);
  // The cards' listeners, song and DJs come with the list (each room's live summary), refreshed while the page is
  // open; the DJs' names and avatars are their profiles.
  const liveOf = useMemo(
    () =>
      new Map(
        (query.data?.rooms ?? []).flatMap((room) => {
          const live = liveOfListed(room);
          return live ? [[room.uuid, live] as const] : [];
        }),
      ),
    [query.data],
  );
  const liveRooms = useMemo(() => [...liveOf.values()], [liveOf]);
  const people = useDjPeople(liveRooms);
  const choose = (next: string) => {
    setKind(next as Kind);
    setOffset(0);
  };
  const data = query.data;

  let content: ReactNode;
  if (needsAccount) {
    content = (
      <EmptyState
        icon={<LogIn />}
        title={t("directory.signInTitle")}
        action={
          <a className={buttonClass("primary")} href="/login">
            {t("directory.signIn")}
          </a>
        }
      >
        {t("directory.signInFor")}
      </EmptyState>
    );
  } else if (query.isError) {
    content = <ErrorText error={query.error} />;
  } else if (!data) {
    content = <CardGridSkeleton label={t("loading")} />;
  } else if (data.rooms.length === 0) {
    content = <EmptyList kind={kind} search={term} onClear={() => setSearch("")} onBrowse={() => choose("public")} />;
  } else {
    content = (
      <>
        <ul className="tt-room-grid" aria-label={t(`directory.${kind}`)} aria-busy={query.isFetching || undefined}>
          {data.rooms.map((room) => (
            <RoomCard key={room.uuid} room={room} live={liveOf.get(room.uuid)} people={people} from={kind} />
          ))}
        </ul>
        <Pager offset={offset} limit={ROOM_PAGE_SIZE} total={data.total} onOffset={setOffset} />
      </>
    );
  }

  return (
    <div className="tt-room-directory">
      <PageHead title={t("title")} intro={t("directory.lead")} introClassName="tt-room-head__lead" />
      <Tabs value={kind} onValueChange={choose}>
        <TabList label={t("directory.lists")}>
          {KINDS.map((name) => (
            <Tab key={name} value={name}>
              {t(`directory.${name}`)}
            </Tab>
          ))}
        </TabList>
        {KINDS.map((name) => (
          <TabPanel key={name} value={name}>
            {name === "public" && (
              <div className="tt-search-field tt-room-search">
                <Search aria-hidden="true" className="tt-search-field__icon" />
                <Input
                  type="search"
                  aria-label={t("directory.search")}
                  placeholder={t("directory.search")}
                  maxLength={80}
                  value={search}
                  onChange={(event) => {
                    setSearch(event.target.value);
                    setOffset(0);
                  }}
                />
              </div>
            )}
            {name === kind && content}
          </TabPanel>
        ))}
      </Tabs>
    </div>
  );
}

/** Each list's empty state, with the next step: start a room, clear the search, or browse the public rooms. */
function EmptyList({
  kind,
  search,
  onClear,
  onBrowse,
}: {
  kind: Kind;
  search: string;
  onClear: () => void;
  onBrowse: () => void;
}) {
  const { t } = useRoomT();
  const start = (
    <Link className={buttonClass("primary")} to="/create">
      <Plus aria-hidden="true" />
      {t("directory.startOne")}
    </Link>
  );
  const browse = (
    <Button variant="secondary" onClick={onBrowse}>
      {t("directory.browsePublic")}
    </Button>
  );
  if (kind === "public" && search) {
    return (
      <EmptyState
        icon={<SearchX />}
        title={t("directory.noMatch", { search })}
        action={
          <Button variant="secondary" onClick={onClear}>
            {t("directory.clearSearch")}
          </Button>
        }
      >
        {t("directory.noMatchHint")}
      </EmptyState>
    );
  }
  switch (kind) {
    case "public":
      return (
        <EmptyState icon={<Radio />} title={t("directory.emptyPublic")} action={start}>
          {t("directory.emptyPublicHint")}
        </EmptyState>
      );
    case "promoted":
      return (
        <EmptyState icon={<Sparkles />} title={t("directory.emptyPromoted")} action={browse}>
          {t("directory.emptyPromotedHint")}
        </EmptyState>
      );
    case "mine":
      return (
        <EmptyState icon={<Radio />} title={t("directory.emptyMine")} action={start}>
          {t("directory.emptyMineHint")}
        </EmptyState>
      );
    case "recent":
      return (
        <EmptyState icon={<History />} title={t("directory.emptyRecent")} action={browse}>
          {t("directory.emptyRecentHint")}
        </EmptyState>
      );
  }
}

/** Where the visitor came from (the page's `utm_source`), as the home-rooms-loaded record carries it. */
export function utmSourceOf(search: string): string {
  return (new URLSearchParams(search).get("utm_source") ?? "").slice(0, 100);
}

/** `home-rooms-loaded` (spec 002 §7) once per visit of the directory, when its first list has loaded. */
function useHomeRoomsLoaded(kind: Kind, data: { rooms: Room[]; total: number } | undefined) {
  const analytics = useAnalytics();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !data) return;
    sent.current = true;
    analytics.track("home-rooms-loaded", {
      roomCount: data.rooms.length,
      total: data.total,
      list: kind,
      utmSource: utmSourceOf(window.location.search),
    });
  }, [analytics, data, kind]);
}
