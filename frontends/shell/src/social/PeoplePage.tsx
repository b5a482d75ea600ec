import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FriendInvitation } from "@tt/proto/tt/room/v1/friend_service_pb";
import { useErrorText, useSession } from "@tt/web-kit";
import {
  Button,
  buttonClass,
  EmptyState,
  ErrorMessage,
  Field,
  Input,
  PageHead,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  toast,
  useFormat,
} from "@tt/web-kit/ui";
import { Headphones, Heart, Inbox, Send, UserPlus, Users } from "lucide-react";
import { useState, type ReactNode } from "react";
import { SignInFirst } from "../pages/SignInFirst.tsx";
import { Link, useNavigate } from "../router.tsx";
import {
  FOLLOWER_PAGE_SIZE,
  followerTake,
  FRIEND_PAGE_SIZE,
  INVITATION_PAGE_SIZE,
  socialKeys,
  useDjFanClient,
  useFriendClient,
  useProfiles,
  useSocialT,
} from "./api.ts";
import { PeopleSkeleton, PersonRow, profilePath, useNameOf } from "./Person.tsx";

interface UserPage {
  users: string[];
  total: number;
}

type ListKind = "friends" | "fans" | "following";

/** One of the page's lists, paged by "show more" (each fetch asks for the next page); shared by its tab's count. */
function useUserList(kind: ListKind, me: string) {
  const friends = useFriendClient();
  const fans = useDjFanClient();
  const fetchPage = async (offset: number): Promise<UserPage> => {
    if (kind === "friends") {
      const page = await friends.listFriends({ id: me, limit: FRIEND_PAGE_SIZE, offset });
      return { users: page.friends.map((f) => (f.userId === me ? f.friendId : f.userId)), total: page.total };
    }
    if (kind === "fans") {
      const page = await fans.listDjFansPaginated({ id: me, take: followerTake(), skip: offset });
      return { users: page.djFans.map((f) => f.fanId), total: page.total };
    }
    const page = await fans.listMyFollowedDjs({ take: FOLLOWER_PAGE_SIZE, skip: offset });
    return { users: page.djFans.map((f) => f.djId), total: page.total };
  };
  return useInfiniteQuery({
    queryKey: socialKeys[kind](me),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.users.length, 0);
      return last.users.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}

function useInvitations(kind: "for" | "from") {
  const client = useFriendClient();
  return useQuery({
    queryKey: socialKeys.invitations(kind),
    queryFn: (): Promise<{ invitations: FriendInvitation[]; total: number }> =>
      kind === "for"
        ? client.listInvitationsForMe({ invitationStatus: "pending", limit: INVITATION_PAGE_SIZE, offset: 0 })
        : client.listInvitationsFromMe({ invitationStatus: "pending", limit: INVITATION_PAGE_SIZE, offset: 0 }),
  });
}

/** The next step of every empty list: find people where they are, in the rooms. */
function RoomsLink() {
  const { t } = useSocialT();
  return (
    <Link className={buttonClass("primary")} to="/room">
      <Headphones aria-hidden="true" />
      {t("people.findInRoom")}
    </Link>
  );
}

function UserList({
  kind,
  me,
  title,
  empty,
}: {
  kind: ListKind;
  me: string;
  title: string;
  empty: { icon: ReactNode; title: string; body: string };
}) {
  const { t } = useSocialT();
  const errorText = useErrorText();
  const list = useUserList(kind, me);
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const total = list.data?.pages.at(-1)?.total ?? 0;
  const { profiles, pending } = useProfiles(users);
  return (
    <section className="tt-social-section" aria-label={title}>
      <h2 className="tt-social-section__title">{title}</h2>
      {list.isPending ? (
        <PeopleSkeleton />
      ) : list.isError ? (
        <ErrorMessage>{errorText(list.error)}</ErrorMessage>
      ) : users.length === 0 ? (
        <EmptyState icon={empty.icon} title={empty.title} headingLevel={3} action={<RoomsLink />}>
          {empty.body}
        </EmptyState>
      ) : (
        <>
          <ul className="tt-list">
            {users.map((user) => (
              <PersonRow key={user} uuid={user} profile={profiles.get(user)} loading={pending} />
            ))}
          </ul>
          <div className="tt-social-more">
            <span className="tt-muted">{t("people.shown", { shown: users.length, total })}</span>
            {list.hasNextPage && (
              <Button
                variant="secondary"
                size="sm"
                busy={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {t("people.more")}
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function Invitations() {
  const { t } = useSocialT();
  const errorText = useErrorText();
  const format = useFormat();
  const client = useFriendClient();
  const queryClient = useQueryClient();
  const forMe = useInvitations("for");
  const fromMe = useInvitations("from");
  const received = forMe.data?.invitations ?? [];
  const sent = fromMe.data?.invitations ?? [];
  const { profiles, pending } = useProfiles([...received.map((i) => i.fromUserId), ...sent.map((i) => i.toUserId)]);
  const nameOf = useNameOf();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: socialKeys.all });
  const failed = (error: unknown) => toast({ title: errorText(error), tone: "error" });
  const handle = useMutation({
    mutationFn: (vars: { invitation: FriendInvitation; invitationStatus: "accepted" | "rejected" }) =>
      client.handleFriend({ invitationId: vars.invitation.id, invitationStatus: vars.invitationStatus }),
    onSuccess: (_answer, { invitation, invitationStatus }) => {
      const name = nameOf(profiles.get(invitation.fromUserId));
      toast({
        title: invitationStatus === "accepted" ? t("people.accepted", { name }) : t("people.rejected", { name }),
        tone: invitationStatus === "accepted" ? "success" : "info",
      });
      return invalidate();
    },
    onError: failed,
  });
  const withdraw = useMutation({
    mutationFn: (invitation: FriendInvitation) => client.deleteFriendInvitation({ id: invitation.id }),
    onSuccess: () => {
      toast({ title: t("people.withdrawn"), tone: "info" });
      return invalidate();
    },
    onError: failed,
  });
  const when = (invitation: FriendInvitation) => (invitation.createdAt ? format.relative(invitation.createdAt) : "");
  return (
    <>
      <section className="tt-social-section" aria-label={t("people.invitations")}>
        <h2 className="tt-social-section__title">{t("people.invitations")}</h2>
        {forMe.isPending ? (
          <PeopleSkeleton rows={2} />
        ) : forMe.isError ? (
          <ErrorMessage>{errorText(forMe.error)}</ErrorMessage>
        ) : received.length === 0 ? (
          <EmptyState icon={<Inbox />} title={t("people.noInvitations")} headingLevel={3} action={<RoomsLink />}>
            {t("people.noInvitationsBody")}
          </EmptyState>
        ) : (
          <ul className="tt-list">
            {received.map((invitation) => (
              <PersonRow
                key={invitation.id}
                uuid={invitation.fromUserId}
                profile={profiles.get(invitation.fromUserId)}
                loading={pending}
                meta={[t("people.invitedYou"), when(invitation)].filter(Boolean).join(" · ")}
              >
                <Button
                  size="sm"
                  busy={handle.isPending && handle.variables?.invitation.id === invitation.id}
                  disabled={handle.isPending}
                  onClick={() => handle.mutate({ invitation, invitationStatus: "accepted" })}
                >
                  {t("people.accept")}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={handle.isPending}
                  onClick={() => handle.mutate({ invitation, invitationStatus: "rejected" })}
                >
                  {t("people.reject")}
                </Button>
              </PersonRow>
            ))}
          </ul>
        )}
      </section>
      <section className="tt-social-section" aria-label={t("people.sent")}>
        <h2 className="tt-social-section__title">{t("people.sent")}</h2>
        {fromMe.isPending ? (
          <PeopleSkeleton rows={1} />
        ) : fromMe.isError ? (
          <ErrorMessage>{errorText(fromMe.error)}</ErrorMessage>
        ) : sent.length === 0 ? (
          <EmptyState icon={<Send />} title={t("people.noneSent")} headingLevel={3} action={<RoomsLink />}>
            {t("people.noneSentBody")}
          </EmptyState>
        ) : (
          <ul className="tt-list">
            {sent.map((invitation) => (
              <PersonRow
                key={invitation.id}
                uuid={invitation.toUserId}
                profile={profiles.get(invitation.toUserId)}
                loading={pending}
                meta={[t("people.waiting"), when(invitation)].filter(Boolean).join(" · ")}
              >
                <Button
                  size="sm"
                  variant="ghost"
                  busy={withdraw.isPending && withdraw.variables?.id === invitation.id}
                  disabled={withdraw.isPending}
                  onClick={() => withdraw.mutate(invitation)}
                >
                  {t("people.withdraw")}
                </Button>
              </PersonRow>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** Opens a profile from a user id someone shared (profile links carry it). */
function OpenProfile() {
  const { t } = useSocialT();
  const navigate = useNavigate();
  const [open, setOpen] = useState("");
  return (
    <form
      className="tt-social-open"
      onSubmit={(event) => {
        event.preventDefault();
        if (open.trim()) void navigate(profilePath(open.trim()));
      }}
    >
      <Field label={t("people.openProfile")} hint={t("people.openProfileHint")}>
        <Input maxLength={36} value={open} onChange={(event) => setOpen(event.target.value)} spellCheck={false} />
      </Field>
      <Button type="submit" variant="secondary">
        {t("people.open")}
      </Button>
    </form>
  );
}

/** The user menu's "Friends and fans": friends, invitations, fans (pages of 12) and followed DJs, one tab each. */
export function PeoplePage() {
  const { t } = useSocialT();
  const { signedIn, user } = useSession();
  const me = user?.uuid ?? "";
  if (!signedIn || !me) {
    return (
      <section className="tt-social" aria-labelledby="people-title">
        <h1 id="people-title" className="tt-page-title">
          {t("people.title")}
        </h1>
        <div role="status">
          <SignInFirst icon={<Users />} title={t("signIn")} logIn={t("logIn")}>
            {t("signInBody")}
          </SignInFirst>
        </div>
      </section>
    );
  }
  return <SignedInPeople me={me} />;
}

function SignedInPeople({ me }: { me: string }) {
  const { t } = useSocialT();
  // The first pages are asked here for the tabs' counts; each tab's list reads the same cache.
  const total = (list: ReturnType<typeof useUserList>) => list.data?.pages.at(-1)?.total;
  const friends = total(useUserList("friends", me));
  const fans = total(useUserList("fans", me));
  const following = total(useUserList("following", me));
  const invitations = useInvitations("for").data?.total;
  return (
    <section className="tt-social" aria-labelledby="people-title">
      <PageHead titleId="people-title" title={t("people.title")} intro={t("people.intro")} />
      <Tabs defaultValue="friends">
        <TabList label={t("people.sections")}>
          <Tab value="friends" count={friends}>
            {t("people.tabs.friends")}
          </Tab>
          <Tab value="invitations" count={invitations}>
            {t("people.tabs.invitations")}
          </Tab>
          <Tab value="fans" count={fans}>
            {t("people.tabs.fans")}
          </Tab>
          <Tab value="following" count={following}>
            {t("people.tabs.following")}
          </Tab>
        </TabList>
        <TabPanel value="friends">
          <UserList
            kind="friends"
            me={me}
            title={t("people.friends")}
            empty={{ icon: <UserPlus />, title: t("people.noFriends"), body: t("people.noFriendsBody") }}
          />
        </TabPanel>
        <TabPanel value="invitations">
          <Invitations />
        </TabPanel>
        <TabPanel value="fans">
          <UserList
            kind="fans"
            me={me}
            title={t("people.fans")}
            empty={{ icon: <Heart />, title: t("people.noFans"), body: t("people.noFansBody") }}
          />
        </TabPanel>
        <TabPanel value="following">
          <UserList
            kind="following"
            me={me}
            title={t("people.following")}
            empty={{ icon: <Headphones />, title: t("people.noFollowing"), body: t("people.noFollowingBody") }}
          />
        </TabPanel>
      </Tabs>
      <OpenProfile />
    </section>
  );
}
