import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { useState } from "react";
import { COMMUNITY_PAGE_SIZE, roomKeys, useCommunityClient, useRoomClient, type Room } from "../api.ts";
import { Link, navigate } from "../lib/router.tsx";
import { ErrorMessage, Field, Pager, useRoomT } from "../lib/ui.tsx";

/** Your communities (GET /user-communities), or one community with its rooms, to join or leave. */
export function CommunitiesScreen({ id }: { id?: string }) {
  return id ? <CommunityPage id={id} /> : <MyCommunities />;
}

function MyCommunities() {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const client = useCommunityClient();
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState("");
  const list = useQuery({
    queryKey: roomKeys.communities(offset),
    enabled: signedIn,
    placeholderData: keepPreviousData,
    queryFn: () => client.listUserCommunities({ limit: COMMUNITY_PAGE_SIZE, offset }),
  });
  return (
    <div>
      <h1 className="tt-page-title">{t("communities.title")}</h1>
      {!signedIn ? (
        <p className="tt-muted">{t("directory.signInFor")}</p>
      ) : list.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : list.isError ? (
        <ErrorMessage error={list.error} />
      ) : list.data.communities.length === 0 ? (
        <p className="tt-muted" role="status">
          {t("communities.empty")}
        </p>
      ) : (
        <>
          <ul className="tt-room-list">
            {list.data.communities.map((community) => (
              <li key={community.id} className="tt-card tt-room-card">
                <h3>
                  <Link to={`/communities/${community.id}`}>{community.name}</Link>
                </h3>
                <p className="tt-muted">{t("communities.members", { count: community.memberCount })}</p>
              </li>
            ))}
          </ul>
          <Pager offset={offset} limit={COMMUNITY_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />
        </>
      )}
      <form
        className="tt-room-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (open.trim()) navigate(`/communities/${encodeURIComponent(open.trim())}`);
        }}
      >
        <Field label={t("communities.open")}>
          <input maxLength={36} value={open} onChange={(e) => setOpen(e.target.value)} />
        </Field>
        <button type="submit" className="tt-button tt-button--quiet">
          {t("communities.go")}
        </button>
      </form>
    </div>
  );
}

function CommunityPage({ id }: { id: string }) {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const client = useCommunityClient();
  const roomClient = useRoomClient();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const community = useQuery({ queryKey: roomKeys.community(id), queryFn: () => client.getCommunity({ id }) });
  const rooms = useQuery({
    queryKey: [...roomKeys.community(id), "rooms", offset],
    placeholderData: keepPreviousData,
    // A community lists its rooms by id; their names come from one GET /rooms/multiple/list of the page.
    queryFn: async () => {
      const page = await client.listCommunityRooms({ id, limit: COMMUNITY_PAGE_SIZE, offset });
      const ids = page.rooms.map((room) => room.roomId);
      const named = ids.length ? (await roomClient.listMultipleRooms({ room: ids })).rooms : [];
      const byId = new Map<string, Room>(named.map((room) => [room.uuid, room]));
      return { total: page.total, rooms: ids.map((roomId) => ({ roomId, room: byId.get(roomId) })) };
    },
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: roomKeys.all });
  const analytics = useAnalytics();
  const join = useMutation({
    mutationFn: () => client.joinCommunity({ id }),
    onSuccess: () => {
      analytics.track("room-action", { action: "join-community", communityId: id });
      return invalidate();
    },
  });
  const leave = useMutation({
    mutationFn: () => client.leaveCommunity({ id }),
    onSuccess: () => {
      analytics.track("room-action", { action: "leave-community", communityId: id });
      return invalidate();
    },
  });
  if (community.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (community.isError) return <ErrorMessage error={community.error} />;
  const data = community.data.community;
  if (!data) return null;
  return (
    <article aria-labelledby="community-name">
      <h1 id="community-name" className="tt-page-title">
        {data.name}
      </h1>
      {data.description && <p>{data.description}</p>}
      <p className="tt-muted">{t("communities.members", { count: data.memberCount })}</p>
      {signedIn && (
        <p>
          <button type="button" className="tt-button" onClick={() => join.mutate()} disabled={join.isPending}>
            {t("communities.join")}
          </button>{" "}
          <button
            type="button"
            className="tt-button tt-button--quiet"
            onClick={() => leave.mutate()}
            disabled={leave.isPending}
          >
            {t("communities.leave")}
          </button>
        </p>
      )}
      <ErrorMessage error={join.error ?? leave.error} />
      <h2>{t("communities.rooms")}</h2>
      {rooms.isError ? (
        <ErrorMessage error={rooms.error} />
      ) : (
        <>
          <ul className="tt-room-list">
            {rooms.data?.rooms.map((room) => (
              <li key={room.roomId} className="tt-card tt-room-card">
                <Link to={`/r/${encodeURIComponent(room.room?.slug || room.roomId)}`}>
                  {room.room?.name ?? room.roomId}
                </Link>
              </li>
            ))}
          </ul>
          {rooms.data && (
            <Pager offset={offset} limit={COMMUNITY_PAGE_SIZE} total={rooms.data.total} onOffset={setOffset} />
          )}
        </>
      )}
    </article>
  );
}
