import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@tt/web-kit";
import { useState } from "react";
import { Link, useNavigate } from "../router.tsx";
import {
  FOLLOWER_PAGE_SIZE,
  followerTake,
  FRIEND_PAGE_SIZE,
  INVITATION_PAGE_SIZE,
  socialKeys,
  useDjFanClient,
  useFriendClient,
  useSocialT,
} from "./api.ts";
import { ErrorMessage } from "./ErrorMessage.tsx";

const profilePath = (user: string) => `/users/${encodeURIComponent(user)}`;

interface UserPage {
  users: string[];
  total: number;
}

/** A list of users paged by "show more"; each fetch asks for the next page. */
function UserList({
  title,
  empty,
  queryKey,
  fetchPage,
}: {
  title: string;
  empty: string;
  queryKey: readonly unknown[];
  fetchPage: (skip: number) => Promise<UserPage>;
}) {
  const { t } = useSocialT();
  const list = useInfiniteQuery({
    queryKey,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.users.length, 0);
      return last.users.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const total = list.data?.pages.at(-1)?.total ?? 0;
  return (
    <section className="tt-card" aria-label={title}>
      <h2>{title}</h2>
      {list.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : list.isError ? (
        <ErrorMessage error={list.error} />
      ) : users.length === 0 ? (
        <p className="tt-muted">{empty}</p>
      ) : (
        <>
          <ul>
            {users.map((user) => (
              <li key={user}>
                <Link to={profilePath(user)}>{user}</Link>
              </li>
            ))}
          </ul>
          <p className="tt-muted">{t("people.shown", { shown: users.length, total })}</p>
          {list.hasNextPage && (
            <button
              type="button"
              className="tt-button tt-button--quiet"
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {t("people.more")}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function Invitations() {
  const { t } = useSocialT();
  const client = useFriendClient();
  const queryClient = useQueryClient();
  const forMe = useQuery({
    queryKey: socialKeys.invitations("for"),
    queryFn: () => client.listInvitationsForMe({ invitationStatus: "pending", limit: INVITATION_PAGE_SIZE, offset: 0 }),
  });
  const fromMe = useQuery({
    queryKey: socialKeys.invitations("from"),
    queryFn: () =>
      client.listInvitationsFromMe({ invitationStatus: "pending", limit: INVITATION_PAGE_SIZE, offset: 0 }),
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: socialKeys.all });
  const handle = useMutation({
    mutationFn: (vars: { invitationId: string; invitationStatus: "accepted" | "rejected" }) =>
      client.handleFriend(vars),
    onSuccess: invalidate,
  });
  const withdraw = useMutation({
    mutationFn: (id: string) => client.deleteFriendInvitation({ id }),
    onSuccess: invalidate,
  });
  return (
    <>
      <section className="tt-card" aria-label={t("people.invitations")}>
        <h2>{t("people.invitations")}</h2>
        {forMe.isError && <ErrorMessage error={forMe.error} />}
        {forMe.data?.invitations.length === 0 && <p className="tt-muted">{t("people.noInvitations")}</p>}
        <ul>
          {forMe.data?.invitations.map((invitation) => (
            <li key={invitation.id}>
              <Link to={profilePath(invitation.fromUserId)}>{t("people.from", { user: invitation.fromUserId })}</Link>{" "}
              <button
                type="button"
                className="tt-button"
                disabled={handle.isPending}
                onClick={() => handle.mutate({ invitationId: invitation.id, invitationStatus: "accepted" })}
              >
                {t("people.accept")}
              </button>{" "}
              <button
                type="button"
                className="tt-button tt-button--quiet"
                disabled={handle.isPending}
                onClick={() => handle.mutate({ invitationId: invitation.id, invitationStatus: "rejected" })}
              >
                {t("people.reject")}
              </button>
            </li>
          ))}
        </ul>
        <ErrorMessage error={handle.error} />
      </section>
      <section className="tt-card" aria-label={t("people.sent")}>
        <h2>{t("people.sent")}</h2>
        {fromMe.isError && <ErrorMessage error={fromMe.error} />}
        {fromMe.data?.invitations.length === 0 && <p className="tt-muted">{t("people.noInvitations")}</p>}
        <ul>
          {fromMe.data?.invitations.map((invitation) => (
            <li key={invitation.id}>
              <Link to={profilePath(invitation.toUserId)}>{t("people.to", { user: invitation.toUserId })}</Link>{" "}
              <button
                type="button"
                className="tt-button tt-button--quiet"
                disabled={withdraw.isPending}
                onClick={() => withdraw.mutate(invitation.id)}
              >
                {t("people.withdraw")}
              </button>
            </li>
          ))}
        </ul>
        <ErrorMessage error={withdraw.error} />
      </section>
    </>
  );
}

/** The user menu's "Friends and fans": invitations, friends, fans (pages of 12) and followed DJs. */
export function PeoplePage() {
  const { t } = useSocialT();
  const { signedIn, user } = useSession();
  const friends = useFriendClient();
  const fans = useDjFanClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState("");
  const me = user?.uuid ?? "";
  if (!signedIn || !me) {
    return (
      <section className="tt-card tt-empty" role="status">
        <p>{t("signIn")}</p>
        <Link className="tt-button" to="/login">
          {t("signIn")}
        </Link>
      </section>
    );
  }
  return (
    <section className="tt-social" aria-labelledby="people-title">
      <h1 id="people-title" className="tt-page-title">
        {t("people.title")}
      </h1>
      <form
        className="tt-social-open"
        onSubmit={(event) => {
          event.preventDefault();
          if (open.trim()) void navigate(profilePath(open.trim()));
        }}
      >
        <label>
          {t("people.openProfile")} <input maxLength={36} value={open} onChange={(e) => setOpen(e.target.value)} />
        </label>{" "}
        <button type="submit" className="tt-button tt-button--quiet">
          {t("people.open")}
        </button>
      </form>
      <Invitations />
      <UserList
        title={t("people.friends")}
        empty={t("people.noFriends")}
        queryKey={socialKeys.friends(me)}
        fetchPage={async (offset) => {
          const page = await friends.listFriends({ id: me, limit: FRIEND_PAGE_SIZE, offset });
          return { users: page.friends.map((f) => (f.userId === me ? f.friendId : f.userId)), total: page.total };
        }}
      />
      <UserList
        title={t("people.fans")}
        empty={t("people.noFans")}
        queryKey={socialKeys.fans(me)}
        fetchPage={async (skip) => {
          const page = await fans.listDjFansPaginated({ id: me, take: followerTake(), skip });
          return { users: page.djFans.map((f) => f.fanId), total: page.total };
        }}
      />
      <UserList
        title={t("people.following")}
        empty={t("people.noFollowing")}
        queryKey={socialKeys.following(me)}
        fetchPage={async (skip) => {
          const page = await fans.listMyFollowedDjs({ take: FOLLOWER_PAGE_SIZE, skip });
          return { users: page.djFans.map((f) => f.djId), total: page.total };
        }}
      />
    </section>
  );
}
