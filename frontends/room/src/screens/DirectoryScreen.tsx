import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { useEffect, useRef, useState } from "react";
import { ROOM_PAGE_SIZE, roomKeys, useRoomClient, type Room } from "../api.ts";
import { ErrorMessage, Pager, useRoomT } from "../lib/ui.tsx";
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
  const query = useQuery({
    queryKey: roomKeys.list(kind, kind === "public" ? search.trim() : "", offset),
    enabled: !needsAccount,
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ rooms: Room[]; total: number }> => {
      const page = { limit: ROOM_PAGE_SIZE, offset };
      switch (kind) {
        case "public":
          return client.listPublicRooms({ ...page, search: search.trim() });
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
  const choose = (next: Kind) => {
    setKind(next);
    setOffset(0);
  };
  return (
    <div className="tt-room-directory">
      <h1 className="tt-page-title">{t("title")}</h1>
      <div role="tablist" className="tt-room-kinds">
        {KINDS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={kind === name}
            className="tt-button tt-button--quiet"
            onClick={() => choose(name)}
          >
            {t(`directory.${name}`)}
          </button>
        ))}
      </div>
      {kind === "public" && (
        <input
          type="search"
          className="tt-room-search"
          aria-label={t("directory.search")}
          placeholder={t("directory.search")}
          maxLength={80}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setOffset(0);
          }}
        />
      )}
      {needsAccount ? (
        <p className="tt-muted" role="status">
          {t("directory.signInFor")}
        </p>
      ) : query.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : query.isError ? (
        <ErrorMessage error={query.error} />
      ) : query.data.rooms.length === 0 ? (
        <p className="tt-muted" role="status">
          {t("directory.empty")}
        </p>
      ) : (
        <>
          <ul className="tt-room-list" aria-label={t(`directory.${kind}`)}>
            {query.data.rooms.map((room) => (
              <RoomCard key={room.uuid} room={room} from={kind} />
            ))}
          </ul>
          <Pager offset={offset} limit={ROOM_PAGE_SIZE} total={query.data.total} onOffset={setOffset} />
        </>
      )}
    </div>
  );
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
