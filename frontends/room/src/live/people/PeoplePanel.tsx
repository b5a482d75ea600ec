import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Avatar, Badge, Input, useFormat, useNames } from "@tt/web-kit/ui";
import { VirtualList } from "@tt/web-kit/virtual";
import { Search, Users } from "lucide-react";
import { useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import { PROFILE_BATCH, PROFILE_STALE_MS, useProfileClient, useStageClient } from "../api.ts";
import { useAvatarImages } from "../Avatar.tsx";
import { memoOnStage, type StageParts } from "../stage-parts.ts";
import { LISTENER_PAGE, peopleKeys } from "./api.ts";
import { PEOPLE_NAMESPACE, peopleTranslations } from "./locales.ts";
import { openPersonCard } from "./person-card.ts";
import { useMyLists, useRoomRoles } from "./lists.ts";
import "./people.css";

export interface PeoplePanelProps {
  /** The room's uuid. */
  room: string;
  /** The live stage: its seats, its dancefloor (the first listeners, live) and its listener counts. */
  stage: StageParts<"seats" | "dancefloor" | "listeners">;
  me: string | undefined;
  /** The list's height at most, in pixels. */
  height?: number;
}

/** The staff roles that put a person among the moderators (owner first). */
const STAFF_ROLES = ["owner", "coOwner", "moderator"] as const;
/** The stage's dancefloor lists the first 50 listeners live (the social service's cap): a room that small needs no pages. */
const DANCEFLOOR_CAP = 50;
/** A big room's pages are asked again this often while only a few are loaded (a long list is asked again when reopened). */
const LISTENERS_REFRESH_MS = 60_000;
const REFRESHED_PAGES = 3;
const ROW_HEIGHT = 52;

type Row =
  | { kind: "head"; key: string; label: string; count: string }
  | { kind: "person"; uuid: string; role?: string | undefined; friend: boolean };

/**
 * The people panel (issue 25): the DJs in seat order, the room's moderators who are here, then the listeners —
 * friends and the DJs you follow first — searchable by nickname and virtualised, so 10,000 rows scroll smoothly.
 * Each row opens the person's card.
 */
function PeoplePanelView({ room, stage, me, height = 420 }: PeoplePanelProps) {
  const { t } = useAppTranslation(PEOPLE_NAMESPACE, peopleTranslations);
  const format = useFormat();
  const names = useNames();
  const errorText = useErrorText();
  const stageClient = useStageClient();
  const profileClient = useProfileClient();
  const searchId = useId();
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search.trim().toLocaleLowerCase());

  // A room beyond the dancefloor's cap: the signed-in listeners a page at a time, each page with its profiles (one
  // batch of at most 150).
  const paged = (stage.listeners?.users ?? 0) > DANCEFLOOR_CAP;
  const listeners = useInfiniteQuery({
    queryKey: peopleKeys.listeners(room),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      const page = await stageClient.listListeners({ room, limit: LISTENER_PAGE, offset: pageParam }, { signal });
      const users = page.listeners.map((listener) => listener.userUuid);
      const profiles =
        users.length > 0 ? (await profileClient.getProfiles({ users }, { signal })).profiles : ([] as Profile[]);
      return { users, profiles, total: page.total, next: pageParam + page.listeners.length };
    },
    getNextPageParam: (last) => (last.users.length > 0 && last.next < last.total ? last.next : undefined),
    enabled: paged,
    staleTime: LISTENERS_REFRESH_MS,
    refetchInterval: (query) =>
      (query.state.data?.pages.length ?? 0) <= REFRESHED_PAGES ? LISTENERS_REFRESH_MS : false,
    retry: false,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listeners;
  const pageCount = listeners.data?.pages.length ?? 0;
  // A search looks through every listener: the pages are fetched on while one is typed (one more per page arrived).
  useEffect(() => {
    if (query && hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [query, hasNextPage, isFetchingNextPage, fetchNextPage, pageCount]);

  const roles = useRoomRoles(room);
  const { friends, followed } = useMyLists(me);
  const seats = useMemo(() => stage.seats.map((seat) => seat.userUuid), [stage.seats]);
  const listenerCount = stage.listeners?.users ?? 0;

  // Everyone known to be here: the booth, the stage's live dancefloor, the pages fetched so far.
  const listed = useMemo(() => {
    const order: string[] = [];
    const seen = new Set<string>();
    const pages = paged ? (listeners.data?.pages.flatMap((page) => page.users) ?? []) : [];
    for (const uuid of [...stage.dancefloor, ...pages]) {
      if (!seen.has(uuid)) {
        seen.add(uuid);
        order.push(uuid);
      }
    }
    return order;
  }, [stage.dancefloor, listeners.data, paged]);
  const roleMap = roles.data;
  const seated = useMemo(() => new Set(seats), [seats]);
  // The profiles the pages did not bring (the booth, the dancefloor's newest), in one batch.
  const pageProfiles = useMemo(() => {
    const map = new Map<string, Profile>();
    for (const page of listeners.data?.pages ?? []) for (const profile of page.profiles) map.set(profile.uuid, profile);
    return map;
  }, [listeners.data]);
  const missing = [...new Set([...seats, ...stage.dancefloor])]
    .filter((uuid) => !pageProfiles.has(uuid))
    .sort()
    .slice(0, PROFILE_BATCH);
  const extra = useQuery({
    queryKey: ["rooms", "people", "profiles", ...missing],
    queryFn: () => profileClient.getProfiles({ users: missing }),
    enabled: missing.length > 0,
    staleTime: PROFILE_STALE_MS,
    placeholderData: (previous) => previous,
  });
  const profiles = useMemo(() => {
    const map = new Map(pageProfiles);
    for (const profile of extra.data?.profiles ?? []) map.set(profile.uuid, profile);
    return map;
  }, [pageProfiles, extra.data]);
  const images = useAvatarImages(useMemo(() => [...profiles.values()], [profiles]));

  const nameOf = (uuid: string) => profiles.get(uuid)?.nickname || "";
  const friendSet = friends.data;
  const followedSet = followed.data?.ids;

  const rows = useMemo<Row[]>(() => {
    const staffOf = (uuid: string) => {
      const held = roleMap?.get(uuid) ?? [];
      return STAFF_ROLES.find((role) => held.includes(role));
    };
    const isFriend = (uuid: string) => friendSet?.has(uuid) === true || followedSet?.has(uuid) === true;
    const matches = (uuid: string) =>
      !query || (profiles.get(uuid)?.nickname ?? "").toLocaleLowerCase().includes(query);
    const djs = seats.filter(matches);
    const here = listed.filter((uuid) => !seated.has(uuid) && matches(uuid));
    const staff = here.filter((uuid) => staffOf(uuid) !== undefined);
    const others = here.filter((uuid) => staffOf(uuid) === undefined);
    // Friends (and the DJs you follow) first, each group in the order they joined.
    const sorted = [...others.filter(isFriend), ...others.filter((uuid) => !isFriend(uuid))];
    const list: Row[] = [];
    if (djs.length > 0) {
      list.push({ kind: "head", key: "djs", label: t("panel.djs"), count: format.number(djs.length) });
      for (const uuid of djs) list.push({ kind: "person", uuid, role: "dj", friend: isFriend(uuid) });
    }
    if (staff.length > 0) {
      list.push({ kind: "head", key: "moderators", label: t("panel.moderators"), count: format.number(staff.length) });
      for (const uuid of staff) list.push({ kind: "person", uuid, role: staffOf(uuid), friend: isFriend(uuid) });
    }
    if (sorted.length > 0) {
      // The stage counts everyone signed in (the DJs and moderators too).
      const count = query ? sorted.length : Math.max(sorted.length, listenerCount - staff.length - seats.length);
      list.push({ kind: "head", key: "listeners", label: t("panel.listeners"), count: format.number(count) });
      for (const uuid of sorted) list.push({ kind: "person", uuid, friend: isFriend(uuid) });
    }
    return list;
  }, [seats, seated, listed, query, profiles, roleMap, friendSet, followedSet, listenerCount, t, format]);

  const total = listeners.data?.pages.at(-1)?.total ?? stage.listeners?.users ?? 0;
  const loaded = listeners.data?.pages.reduce((sum, page) => sum + page.users.length, 0) ?? 0;
  const guests = stage.listeners?.guests ?? 0;

  return (
    <section className="tt-card tt-people-panel" aria-labelledby="people-panel-title">
      <div className="tt-people-panel__head">
        <h2 id="people-panel-title" className="tt-eyebrow">
          {t("panel.title")}
        </h2>
        <span className="tt-muted tt-people-panel__count" data-testid="people-count">
          <Users aria-hidden="true" />
          {guests > 0
            ? t("panel.countGuests", { users: format.number(listenerCount), count: guests })
            : t("panel.count", { users: format.number(listenerCount) })}
        </span>
      </div>
      <label className="tt-people-panel__search" htmlFor={searchId}>
        <Search aria-hidden="true" />
        <span className="tt-visually-hidden">{t("panel.search")}</span>
        <Input
          id={searchId}
          type="search"
          value={search}
          placeholder={t("panel.search")}
          autoComplete="off"
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      {query && hasNextPage && (
        <p className="tt-muted tt-people-panel__hint" role="status">
          {t("panel.searching", { loaded: format.number(loaded), total: format.number(total) })}
        </p>
      )}
      {listeners.isError && stage.dancefloor.length === 0 && (
        <p className="tt-muted tt-people-panel__hint">{t("panel.failed", { reason: errorText(listeners.error) })}</p>
      )}
      {rows.length === 0 ? (
        <p className="tt-muted tt-people-panel__hint">
          {query ? t("panel.none", { search: search.trim() }) : t("panel.nobody")}
        </p>
      ) : (
        <VirtualList
          className="tt-people-panel__list"
          items={rows}
          rowHeight={ROW_HEIGHT}
          height={height}
          label={t("panel.list")}
          getKey={(row) => (row.kind === "head" ? `head-${row.key}` : `${row.role ?? ""}-${row.uuid}`)}
          onEndReached={
            hasNextPage && !isFetchingNextPage ? () => void fetchNextPage({ cancelRefetch: false }) : undefined
          }
          renderRow={(row) =>
            row.kind === "head" ? (
              <h3 className="tt-people-panel__section">
                {row.label} <span className="tt-muted">{row.count}</span>
              </h3>
            ) : (
              <PersonRow
                uuid={row.uuid}
                name={row.uuid === me ? t("panel.you") : nameOf(row.uuid) || (extra.isPending ? "…" : "")}
                image={images.get(row.uuid)}
                tags={[
                  ...(row.role ? [names("roomRole", row.role)] : []),
                  ...(row.friend && friends.data?.has(row.uuid) ? [t("panel.friend")] : []),
                  ...(row.friend && !friends.data?.has(row.uuid) ? [t("panel.followed")] : []),
                ]}
              />
            )
          }
        />
      )}
    </section>
  );
}

/** Redrawn when the booth, the dancefloor or the counts change (not on a vote). */
export const PeoplePanel = memoOnStage(["seats", "dancefloor", "listeners"], PeoplePanelView);

function PersonRow({
  uuid,
  name,
  image,
  tags,
}: {
  uuid: string;
  name: string;
  image: string | undefined;
  tags: readonly string[];
}) {
  const { t } = useAppTranslation(PEOPLE_NAMESPACE, peopleTranslations);
  const shown = name || t("card.someone");
  return (
    <button type="button" className="tt-people-row" onClick={() => openPersonCard(uuid)}>
      <Avatar id={uuid} name={shown} src={image} size="sm" decorative />
      <span className="tt-people-row__name">{shown}</span>
      {tags.map((tag) => (
        <Badge key={tag} className="tt-people-row__tag">
          {tag}
        </Badge>
      ))}
    </button>
  );
}
