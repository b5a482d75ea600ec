import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FriendInvitation } from "@tt/proto/tt/room/v1/friend_service_pb";
import { useErrorText, useSession } from "@tt/web-kit";
import {
  Button,
  buttonClass,
  EmptyState,
  ErrorMessage,
  FollowButton,
  Input,
  PageHead,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  toast,
  useFormat,
} from "@tt/web-kit/ui";
import { Headphones, Heart, Inbox, Search, SearchX, Send, UserPlus, Users } from "lucide-react";
import { useDeferredValue, useId, useMemo, useState, type ReactNode } from "react";
import { SignInFirst } from "../pages/SignInFirst.tsx";
import { Link } from "../router.tsx";
import {
  FOLLOWER_PAGE_SIZE,
  followerTake,
  FRIEND_PAGE_SIZE,
  INVITATION_PAGE_SIZE,
  MAX_FOLLOWERS_PER_FETCH,
  MAX_FRIENDS_PER_FETCH,
  socialKeys,
  useDjFanClient,
  useFriendClient,
  useProfiles,
  useSocialT,
} from "./api.ts";
import { PeopleSkeleton, PersonRow, useNameOf } from "./Person.tsx";

interface UserPage {
  users: string[];
  total: number;
}

type ListKind = "friends" | "fans" | "following";

/** One page of one of the page's lists: `size` users from `offset`. */
function useListPage(me: string) {
  const friends = useFriendClient();
  const fans = useDjFanClient();
  return async (kind: ListKind, offset: number, size: number): Promise<UserPage> => {
    if (kind === "friends") {
      const page = await friends.listFriends({ id: me, limit: size, offset });
      return { users: page.friends.map((f) => (f.userId === me ? f.friendId : f.userId)), total: page.total };
    }
    if (kind === "fans") {
      const page = await fans.listDjFansPaginated({ id: me, take: size, skip: offset });
      return { users: page.djFans.map((f) => f.fanId), total: page.total };
    }
    const page = await fans.listMyFollowedDjs({ take: size, skip: offset });
    return { users: page.djFans.map((f) => f.djId), total: page.total };
  };
}

const PAGE_SIZE: Record<ListKind, () => number> = {
  friends: () => FRIEND_PAGE_SIZE,
  fans: () => followerTake(),
  following: () => FOLLOWER_PAGE_SIZE,
};

/** One of the page's lists, paged by "show more" (each fetch asks for the next page); shared by its tab's count. */
function useUserList(kind: ListKind, me: string) {
  const pageOf = useListPage(me);
  return useInfiniteQuery({
    queryKey: socialKeys[kind](me),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => pageOf(kind, pageParam, PAGE_SIZE[kind]()),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.users.length, 0);
      return last.users.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}

function useInvitations(kind: "for" | "from", enabled = true) {
  const client = useFriendClient();
  return useQuery({
    enabled,
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
  const nameOf = useNameOf();
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
              <PersonRow key={user} uuid={user} profile={profiles.get(user)} loading={pending}>
                {kind === "fans" && <FollowBack me={me} user={user} name={nameOf(profiles.get(user))} />}
              </PersonRow>
            ))}
          </ul>
          {users.length < total && (
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
          )}
        </>
      )}
    </section>
  );
}

/** A fan's row offers to follow them back (or to stop), from the whole list of DJs you follow. */
function FollowBack({ me, user, name }: { me: string; user: string; name: string }) {
  const { t } = useSocialT();
  const errorText = useErrorText();
  const fans = useDjFanClient();
  const queryClient = useQueryClient();
  const followed = useEveryUser("following", me, true);
  const change = useMutation({
    mutationFn: async (follow: boolean) => {
      await (follow ? fans.followDj({ djId: user }) : fans.unfollowDj({ id: user }));
    },
    onSuccess: (_answer, follow) => {
      toast({ title: t(follow ? "profile.followed" : "profile.unfollowed", { name }), tone: "success" });
      return queryClient.invalidateQueries({ queryKey: socialKeys.all });
    },
    onError: (error) => toast({ title: errorText(error), tone: "error" }),
  });
  return (
    <FollowButton
      size="sm"
      following={followed.data?.includes(user) === true}
      followLabel={t("people.followBack")}
      unfollowLabel={t("profile.unfollow")}
      onFollow={() => change.mutate(true)}
      onUnfollow={() => change.mutate(false)}
      busy={change.isPending}
      checking={followed.isPending}
    />
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

/** Every user of a list: its first page, then the rest at once, each as big as one fetch may be. */
async function everyUser(size: number, pageAt: (offset: number, size: number) => Promise<UserPage>) {
  const first = await pageAt(0, size);
  const offsets: number[] = [];
  if (first.users.length > 0) for (let at = first.users.length; at < first.total; at += size) offsets.push(at);
  const rest = await Promise.all(offsets.map((offset) => pageAt(offset, size)));
  return [first, ...rest].flatMap((page) => page.users);
}

type Relation = "friend" | "fan" | "following" | "invitedYou" | "invited";
const RELATIONS: readonly Relation[] = ["friend", "fan", "following", "invitedYou", "invited"];

/** Every user of one of your lists (all its pages), asked when needed and kept for a minute. */
function useEveryUser(kind: ListKind, me: string, enabled: boolean) {
  const pageOf = useListPage(me);
  return useQuery({
    queryKey: socialKeys.every(kind, me),
    queryFn: () =>
      everyUser(kind === "friends" ? MAX_FRIENDS_PER_FETCH : MAX_FOLLOWERS_PER_FETCH, (offset, size) =>
        pageOf(kind, offset, size),
      ),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * Everyone on the page's lists, with how each is related to you: all your friends, fans and followed DJs (asked
 * when a search starts) and the pending invitations the page shows.
 */
function usePeopleKnown(me: string, enabled: boolean) {
  const friends = useEveryUser("friends", me, enabled);
  const fans = useEveryUser("fans", me, enabled);
  const following = useEveryUser("following", me, enabled);
  const lists = [friends, fans, following];
  const forMe = useInvitations("for", enabled);
  const fromMe = useInvitations("from", enabled);
  const known = useMemo(() => {
    const byUser = new Map<string, Set<Relation>>();
    const add = (relation: Relation, users: readonly string[] = []) => {
      for (const user of users) {
        if (user === me) continue;
        byUser.set(user, (byUser.get(user) ?? new Set<Relation>()).add(relation));
      }
    };
    add("friend", friends.data);
    add("fan", fans.data);
    add("following", following.data);
    add(
      "invitedYou",
      forMe.data?.invitations.map((i) => i.fromUserId),
    );
    add(
      "invited",
      fromMe.data?.invitations.map((i) => i.toUserId),
    );
    return byUser;
  }, [me, friends.data, fans.data, following.data, forMe.data, fromMe.data]);
  return {
    known,
    pending: lists.some((list) => list.isPending),
    error: lists.find((list) => list.error)?.error ?? null,
  };
}

/** A nickname as searched: lower case, accents dropped ("José" is found by "jose"). */
const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();

/** The most rows a search draws; a longer answer asks for more letters. */
const SEARCH_ROWS = 50;

/** The people on your lists whose nickname holds `text`: those it starts with first, then by name. */
function SearchResults({ me, text }: { me: string; text: string }) {
  const { t } = useSocialT();
  const errorText = useErrorText();
  const { known, pending, error } = usePeopleKnown(me, true);
  const users = useMemo(() => [...known.keys()], [known]);
  const { profiles, pending: loadingProfiles } = useProfiles(users);
  const query = folded(text);
  const found = useMemo(() => {
    const hits: { uuid: string; name: string; starts: boolean }[] = [];
    for (const uuid of users) {
      const name = profiles.get(uuid)?.nickname ?? "";
      const at = folded(name).indexOf(query);
      if (at >= 0) hits.push({ uuid, name, starts: at === 0 });
    }
    return hits.sort((a, b) => Number(b.starts) - Number(a.starts) || a.name.localeCompare(b.name));
  }, [users, profiles, query]);
  const loading = pending || loadingProfiles;
  return (
    <section className="tt-social-section" aria-label={t("people.search.results")} aria-busy={loading}>
      <h2 className="tt-social-section__title">{t("people.search.results")}</h2>
      {error ? (
        <ErrorMessage>{errorText(error)}</ErrorMessage>
      ) : loading ? (
        <PeopleSkeleton />
      ) : found.length === 0 ? (
        <EmptyState
          icon={<SearchX />}
          title={t("people.search.none", { text: text.trim() })}
          headingLevel={3}
          action={<RoomsLink />}
        >
          {t("people.search.noneBody")}
        </EmptyState>
      ) : (
        <>
          <ul className="tt-list">
            {found.slice(0, SEARCH_ROWS).map(({ uuid }) => (
              <PersonRow
                key={uuid}
                uuid={uuid}
                profile={profiles.get(uuid)}
                loading={false}
                meta={RELATIONS.filter((relation) => known.get(uuid)?.has(relation))
                  .map((relation) => t(`people.search.relation.${relation}`))
                  .join(" · ")}
              />
            ))}
          </ul>
          {found.length > SEARCH_ROWS && (
            <p className="tt-muted tt-social-more">
              {t("people.search.more", { shown: SEARCH_ROWS, total: found.length })}
            </p>
          )}
        </>
      )}
      <p className="tt-visually-hidden" role="status">
        {loading ? "" : t("people.search.found", { count: found.length })}
      </p>
    </section>
  );
}

/** Find someone on your lists by nickname (nobody types an id): the answer takes the tabs' place while typed. */
function FindPerson({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const { t } = useSocialT();
  const id = useId();
  return (
    <form role="search" className="tt-social-find" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={id} className="tt-social-find__label">
        {t("people.search.label")}
      </label>
      <div className="tt-search-field">
        <Search className="tt-search-field__icon" aria-hidden="true" />
        <Input
          id={id}
          type="search"
          value={value}
          maxLength={64}
          placeholder={t("people.search.placeholder")}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <span id={`${id}-hint`} className="tt-field-hint">
        {t("people.search.hint")}
      </span>
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
  const [tab, setTab] = useState("friends");
  const [search, setSearch] = useState("");
  const searching = useDeferredValue(search.trim());
  return (
    <section className="tt-social" aria-labelledby="people-title">
      <PageHead titleId="people-title" title={t("people.title")} intro={t("people.intro")} />
      <FindPerson value={search} onChange={setSearch} />
      {searching ? (
        <SearchResults me={me} text={searching} />
      ) : (
        <Tabs value={tab} onValueChange={setTab}>
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
      )}
    </section>
  );
}
