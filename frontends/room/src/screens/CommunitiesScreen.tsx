import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAnalytics, useErrorText, useSession } from "@tt/web-kit";
import { Button, buttonClass, Card, ConfirmDialog, EmptyState, Field, Input, PageHead, toast } from "@tt/web-kit/ui";
import { ArrowRight, DoorOpen, LogIn, LogOut, Radio, UserPlus, Users } from "lucide-react";
import { useState } from "react";
import { COMMUNITY_PAGE_SIZE, roomKeys, useCommunityClient, useRoomClient, type Room } from "../api.ts";
import { Link, navigate } from "../lib/router.tsx";
import { CardGridSkeleton, ErrorText, idOfLinkOrId, Pager, useRoomT } from "../lib/ui.tsx";
import { RoomCard } from "./RoomCard.tsx";

/** How many of the caller's communities are read to know whether they are in the one shown. */
const MEMBERSHIP_PAGE = 100;

/** Your communities (GET /user-communities), or one community with its rooms, to join or leave. */
export function CommunitiesScreen({ id }: { id?: string }) {
  return id ? <CommunityPage id={id} /> : <MyCommunities />;
}

/** Open a community from its link or id (communities are shared as links). */
function OpenCommunity() {
  const { t } = useRoomT();
  const [open, setOpen] = useState("");
  return (
    <Card className="tt-room-open">
      <form
        className="tt-room-open__form"
        onSubmit={(event) => {
          event.preventDefault();
          const id = idOfLinkOrId(open);
          if (id) navigate(`/communities/${encodeURIComponent(id)}`);
        }}
      >
        <Field label={t("communities.open")} hint={t("communities.openHint")}>
          <Input maxLength={300} value={open} onChange={(e) => setOpen(e.target.value)} autoComplete="off" />
        </Field>
        <Button type="submit" variant="secondary" disabled={!open.trim()}>
          {t("communities.go")}
          <ArrowRight aria-hidden="true" />
        </Button>
      </form>
    </Card>
  );
}

function MyCommunities() {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const client = useCommunityClient();
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: roomKeys.communities(offset),
    enabled: signedIn,
    placeholderData: keepPreviousData,
    queryFn: () => client.listUserCommunities({ limit: COMMUNITY_PAGE_SIZE, offset }),
  });
  return (
    <div className="tt-room-communities">
      <PageHead title={t("communities.title")} intro={t("communities.lead")} introClassName="tt-room-head__lead" />
      {!signedIn ? (
        <EmptyState
          icon={<LogIn />}
          title={t("communities.signIn")}
          action={
            <a className={buttonClass("primary")} href="/login">
              {t("directory.signIn")}
            </a>
          }
        >
          {t("communities.signInHint")}
        </EmptyState>
      ) : list.isPending ? (
        <CardGridSkeleton count={3} label={t("loading")} />
      ) : list.isError ? (
        <ErrorText error={list.error} />
      ) : list.data.communities.length === 0 ? (
        <EmptyState
          icon={<Users />}
          title={t("communities.empty")}
          action={
            <Link className={buttonClass("secondary")} to="/">
              {t("communities.browseRooms")}
            </Link>
          }
        >
          {t("communities.emptyHint")}
        </EmptyState>
      ) : (
        <>
          <ul className="tt-room-grid" aria-label={t("communities.title")}>
            {list.data.communities.map((community) => (
              <li key={community.id} className="tt-room-grid__item">
                <Card interactive className="tt-linked-card tt-room-card tt-room-community">
                  <span className="tt-icon-tile tt-room-community__mark" aria-hidden="true">
                    {community.name.trim().charAt(0).toUpperCase()}
                  </span>
                  <h3 className="tt-room-card__title">
                    <Link
                      className="tt-linked-card__link tt-room-card__link"
                      to={`/communities/${encodeURIComponent(community.id)}`}
                    >
                      {community.name}
                    </Link>
                  </h3>
                  <p className="tt-room-card__meta">
                    <Users aria-hidden="true" className="tt-room-inline-icon" />
                    {t("communities.members", { count: community.memberCount })}
                  </p>
                </Card>
              </li>
            ))}
          </ul>
          <Pager offset={offset} limit={COMMUNITY_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />
        </>
      )}
      <OpenCommunity />
    </div>
  );
}

function CommunityPage({ id }: { id: string }) {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const errorText = useErrorText();
  const client = useCommunityClient();
  const roomClient = useRoomClient();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const community = useQuery({ queryKey: roomKeys.community(id), queryFn: () => client.getCommunity({ id }) });
  // Whether the caller is in it: their communities (the first hundred) name it.
  const membership = useQuery({
    queryKey: [...roomKeys.communities(0), "membership"],
    enabled: signedIn,
    queryFn: () => client.listUserCommunities({ limit: MEMBERSHIP_PAGE, offset: 0 }),
  });
  const isMember = membership.data?.communities.some((item) => item.id === id || item.slug === id) ?? false;
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
      toast({ title: t("communities.joined", { name: community.data?.community?.name ?? "" }), tone: "success" });
      return invalidate();
    },
    onError: (error) => toast({ title: errorText(error), tone: "error" }),
  });
  if (community.isPending) {
    return (
      <div className="tt-room-communities" aria-busy="true">
        <CardGridSkeleton count={3} label={t("loading")} />
      </div>
    );
  }
  if (community.isError) {
    return (
      <EmptyState
        icon={<Users />}
        title={t("communities.notFound")}
        action={
          <Link className={buttonClass("secondary")} to="/communities">
            {t("communities.title")}
          </Link>
        }
      >
        {errorText(community.error)}
      </EmptyState>
    );
  }
  const data = community.data.community;
  if (!data) return null;
  const listed = rooms.data?.rooms.filter((item) => item.room) ?? [];
  return (
    <article className="tt-room-communities" aria-labelledby="community-name">
      <header className="tt-room-head tt-room-community-head">
        <span className="tt-icon-tile tt-room-community__mark tt-room-community__mark--large" aria-hidden="true">
          {data.name.trim().charAt(0).toUpperCase()}
        </span>
        <div className="tt-room-community-head__text">
          <h1 id="community-name" className="tt-page-title">
            {data.name}
          </h1>
          {data.description && <p className="tt-room-head__lead">{data.description}</p>}
          <p className="tt-muted tt-room-card__meta">
            <Users aria-hidden="true" className="tt-room-inline-icon" />
            {t("communities.members", { count: data.memberCount })}
          </p>
        </div>
        {signedIn &&
          (isMember ? (
            <ConfirmDialog
              trigger={
                <Button variant="secondary" icon={<LogOut aria-hidden="true" />}>
                  {t("communities.leave")}
                </Button>
              }
              title={t("communities.leaveTitle", { name: data.name })}
              description={t("communities.leaveText")}
              confirmLabel={t("communities.leave")}
              tone="danger"
              onConfirm={async () => {
                await client.leaveCommunity({ id });
                analytics.track("room-action", { action: "leave-community", communityId: id });
                await invalidate();
              }}
              successMessage={t("communities.left", { name: data.name })}
            />
          ) : (
            <Button
              icon={<UserPlus aria-hidden="true" />}
              busy={join.isPending}
              disabled={membership.isPending}
              onClick={() => join.mutate()}
            >
              {t("communities.join")}
            </Button>
          ))}
      </header>
      <h2 className="tt-room-section-title">{t("communities.rooms")}</h2>
      {rooms.isError ? (
        <ErrorText error={rooms.error} />
      ) : !rooms.data ? (
        <CardGridSkeleton count={3} label={t("loading")} />
      ) : listed.length === 0 ? (
        <EmptyState
          icon={<Radio />}
          title={t("communities.noRooms")}
          headingLevel={3}
          action={
            <Link className={buttonClass("secondary")} to="/">
              <DoorOpen aria-hidden="true" />
              {t("communities.browseRooms")}
            </Link>
          }
        />
      ) : (
        <>
          <ul className="tt-room-grid" aria-label={t("communities.rooms")}>
            {listed.map((item) => (
              <RoomCard key={item.roomId} room={item.room!} from="community" />
            ))}
          </ul>
          <Pager offset={offset} limit={COMMUNITY_PAGE_SIZE} total={rooms.data.total} onOffset={setOffset} />
        </>
      )}
    </article>
  );
}
