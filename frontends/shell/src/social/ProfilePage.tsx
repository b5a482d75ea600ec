import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useErrorText, useSession } from "@tt/web-kit";
import {
  Avatar,
  Badge,
  Button,
  buttonClass,
  ConfirmDialog,
  EmptyState,
  ErrorMessage,
  FollowButton,
  FollowCounts,
  nameColorStyle,
  Skeleton,
  toast,
  useFormat,
  UserBadges,
} from "@tt/web-kit/ui";
import {
  Ban,
  Check,
  Clock,
  LogIn,
  Pencil,
  Radio,
  ShoppingBag,
  UserCheck,
  UserMinus,
  UserPlus,
  UserRoundX,
  Users,
  X,
} from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useParams, useSearchParams } from "../router.tsx";
import {
  socialKeys,
  useAvatarImage,
  useBlockClient,
  useDjFanClient,
  useFriendClient,
  useProfile,
  useSocialT,
  useStageClient,
} from "./api.ts";
import { EditProfileDialog } from "./EditProfileDialog.tsx";
import { useNameOf } from "./Person.tsx";

/** The query the account menu's "Edit profile" adds to the listener's own profile address to open the dialog. */
export const EDIT_PROFILE_QUERY = "edit";

/** A user's profile: who they are, their fans, and what you can do: follow the DJ, invite as a friend, block. */
export function ProfilePage() {
  const { t } = useSocialT();
  const errorText = useErrorText();
  const format = useFormat();
  const nameOf = useNameOf();
  const { user: target = "" } = useParams();
  const { signedIn, user } = useSession();
  const me = user?.uuid ?? "";
  const friends = useFriendClient();
  const fans = useDjFanClient();
  const blocks = useBlockClient();
  const queryClient = useQueryClient();
  const key = socialKeys.profile(target);
  const profile = useProfile(target);
  const image = useAvatarImage(profile.data?.avatarId || undefined);
  const counts = useQuery({ queryKey: [...key, "counts"], queryFn: () => fans.countDjFans({ id: target }) });
  const stage = useStageClient();
  // Where they are now: the public rooms with their open join stream (asked again each minute while shown).
  const rooms = useQuery({
    queryKey: socialKeys.rooms(target),
    queryFn: async () => (await stage.listUserRooms({ user: target })).rooms,
    enabled: Boolean(target),
    staleTime: 30_000,
    refetchInterval: 60_000,
    retry: false,
  });
  const enabled = signedIn && Boolean(me) && me !== target;
  // Where you stand with them — friends, an invitation, following, blocked — in one answer that says "no" plainly
  // (GetDjFan and GetBlockedUser say it with a 404, which the browser logs as a failed request).
  const friendship = useQuery({
    queryKey: [...key, "friendship"],
    enabled,
    queryFn: () => friends.getFriendship({ id: target }),
  });
  const name = nameOf(profile.data ?? undefined);
  const mine = signedIn && Boolean(me) && me === target;
  const [editing, setEditing] = useState(false);
  // The account menu's "Edit profile" comes as ?edit=1: the dialog is open while the address says so, and closing it
  // takes the flag out of the address (in place), so going back or reloading does not open it again.
  const [search, setSearch] = useSearchParams();
  const askedToEdit = search.has(EDIT_PROFILE_QUERY);
  const setEditOpen = (open: boolean) => {
    setEditing(open);
    if (!open && askedToEdit) {
      setSearch(
        (params) => {
          const next = new URLSearchParams(params);
          next.delete(EDIT_PROFILE_QUERY);
          return next;
        },
        { replace: true },
      );
    }
  };
  // The browser's tab and history say whose profile this is: the nickname, never the id in the address.
  const nickname = profile.data?.nickname;
  useEffect(() => {
    if (!nickname) return;
    const before = document.title;
    document.title = before ? t("profile.documentTitle", { name: nickname, site: before }) : nickname;
    return () => {
      document.title = before;
    };
  }, [nickname, t]);
  const act = useMutation({
    mutationFn: async ({ action }: { action: () => Promise<unknown>; done: string }) => {
      await action();
    },
    onSuccess: (_answer, { done }) => {
      toast({ title: done, tone: "success" });
      return queryClient.invalidateQueries({ queryKey: socialKeys.all });
    },
    onError: (error) => toast({ title: errorText(error), tone: "error" }),
  });
  const run = (action: () => Promise<unknown>, done: string) => act.mutate({ action, done });

  if (profile.isPending) {
    return (
      <section className="tt-profile" aria-busy="true" aria-label={t("loading")}>
        <div className="tt-card tt-profile__card">
          <div className="tt-profile__cover" />
          <div className="tt-profile__body">
            <Skeleton width="6rem" height="6rem" radius="50%" className="tt-profile__avatar" />
            <Skeleton width="12rem" height="1.75rem" />
            <Skeleton width="8rem" height="1rem" />
          </div>
        </div>
      </section>
    );
  }
  if (profile.isError) return <ErrorMessage>{errorText(profile.error)}</ErrorMessage>;
  if (!profile.data) {
    return (
      <EmptyState
        icon={<UserRoundX />}
        title={t("profile.missing")}
        action={
          <Link className={buttonClass()} to="/people">
            {t("profile.toPeople")}
          </Link>
        }
      >
        {t("profile.missingBody")}
      </EmptyState>
    );
  }

  const pending = friendship.data?.pendingInvitation;
  // The name colour as the chat draws it: readable on the theme.
  const nameStyle = nameColorStyle(profile.data.color);
  return (
    <section className="tt-profile" aria-labelledby="profile-title">
      <div className="tt-card tt-profile__card">
        <div className="tt-profile__cover" aria-hidden="true" />
        <div className="tt-profile__body">
          <Avatar id={target} name={name} src={image} size="xl" className="tt-profile__avatar" />
          <div className="tt-profile__who">
            <h1 id="profile-title" className={`tt-profile__name${nameStyle ? " tt-name-color" : ""}`} style={nameStyle}>
              {name}
            </h1>
            <UserBadges role={profile.data.role} badges={profile.data.badges} />
            {profile.data.createdAt && (
              <p className="tt-muted tt-profile__since">
                {t("profile.since", { date: format.date(profile.data.createdAt) })}
              </p>
            )}
            {profile.data.bio && <p className="tt-profile__bio">{profile.data.bio}</p>}
            {rooms.data && rooms.data.length > 0 && (
              <ul className="tt-profile__rooms" aria-label={t("profile.rooms")}>
                {rooms.data.map((room) => (
                  <li key={room.roomUuid}>
                    <Link className="tt-profile__room" to={`/room/r/${encodeURIComponent(room.slug)}`}>
                      <Radio aria-hidden="true" />
                      {t("profile.inRoom", { name: room.name })}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <FollowCounts
            fans={counts.data?.fans}
            following={counts.data?.following}
            size="lg"
            className="tt-profile__stats"
          />
        </div>
        {counts.isError && <ErrorMessage>{errorText(counts.error)}</ErrorMessage>}
        {friendship.isError && <ErrorMessage>{errorText(friendship.error)}</ErrorMessage>}
        {mine && (
          <div className="tt-profile__actions">
            <Badge tone="accent">{t("profile.yourself")}</Badge>
            <EditProfileDialog
              profile={profile.data}
              open={editing || askedToEdit}
              onOpenChange={setEditOpen}
              trigger={<Button icon={<Pencil aria-hidden="true" />}>{t("edit.open")}</Button>}
            />
            <Link className={buttonClass("secondary")} to="/shop">
              <ShoppingBag aria-hidden="true" />
              {t("profile.changeAvatar")}
            </Link>
            <Link className={buttonClass("secondary")} to="/people">
              <Users aria-hidden="true" />
              {t("profile.yourPeople")}
            </Link>
          </div>
        )}
        {!signedIn && (
          <div className="tt-profile__actions">
            <Link className={buttonClass()} to="/login">
              <LogIn aria-hidden="true" />
              {t("profile.logInToFollow")}
            </Link>
          </div>
        )}
        {enabled && (
          <div className="tt-profile__actions">
            <FollowButton
              following={friendship.data?.following === true}
              followLabel={t("profile.follow")}
              unfollowLabel={t("profile.unfollow")}
              onFollow={() => run(() => fans.followDj({ djId: target }), t("profile.followed", { name }))}
              onUnfollow={() => run(() => fans.unfollowDj({ id: target }), t("profile.unfollowed", { name }))}
              busy={act.isPending}
              checking={friendship.isPending}
            />
            {friendship.data?.friends ? (
              <>
                <Badge tone="success" icon={<UserCheck aria-hidden="true" />}>
                  {t("profile.friends")}
                </Badge>
                <ConfirmDialog
                  title={t("profile.unfriendTitle", { name })}
                  description={t("profile.unfriendBody")}
                  confirmLabel={t("profile.unfriend")}
                  tone="danger"
                  trigger={
                    <Button variant="ghost" icon={<UserMinus aria-hidden="true" />}>
                      {t("profile.unfriend")}
                    </Button>
                  }
                  onConfirm={async () => {
                    await friends.deleteFriend({ id: target });
                    await queryClient.invalidateQueries({ queryKey: socialKeys.all });
                  }}
                  successMessage={t("profile.unfriended", { name })}
                />
              </>
            ) : pending && pending.toUserId === me ? (
              <>
                <Badge tone="accent">{t("profile.pendingToMe")}</Badge>
                <Button
                  icon={<Check aria-hidden="true" />}
                  disabled={act.isPending}
                  onClick={() =>
                    run(
                      () => friends.handleFriend({ invitationId: pending.id, invitationStatus: "accepted" }),
                      t("people.accepted", { name }),
                    )
                  }
                >
                  {t("people.accept")}
                </Button>
                <Button
                  variant="secondary"
                  icon={<X aria-hidden="true" />}
                  disabled={act.isPending}
                  onClick={() =>
                    run(
                      () => friends.handleFriend({ invitationId: pending.id, invitationStatus: "rejected" }),
                      t("people.rejected", { name }),
                    )
                  }
                >
                  {t("people.reject")}
                </Button>
              </>
            ) : pending ? (
              <Badge icon={<Clock aria-hidden="true" />}>{t("profile.pendingFromMe")}</Badge>
            ) : (
              <Button
                variant="secondary"
                icon={<UserPlus aria-hidden="true" />}
                disabled={act.isPending || friendship.isPending}
                onClick={() =>
                  run(() => friends.sendFriendInvitation({ userId: target }), t("profile.invited", { name }))
                }
              >
                {t("profile.invite")}
              </Button>
            )}
            <span className="tt-profile__spacer" />
            {friendship.data?.blocked ? (
              <>
                <Badge tone="danger" icon={<Ban aria-hidden="true" />}>
                  {t("profile.blocked")}
                </Badge>
                <Button
                  variant="ghost"
                  disabled={act.isPending}
                  onClick={() => run(() => blocks.unblockUser({ id: target }), t("profile.unblocked", { name }))}
                >
                  {t("profile.unblock")}
                </Button>
              </>
            ) : (
              <ConfirmDialog
                title={t("profile.blockTitle", { name })}
                description={t("profile.blockBody")}
                confirmLabel={t("profile.blockConfirm")}
                tone="danger"
                trigger={
                  <Button variant="ghost" icon={<Ban aria-hidden="true" />} disabled={friendship.isPending}>
                    {t("profile.block")}
                  </Button>
                }
                onConfirm={async () => {
                  await blocks.blockUser({ blockedUserId: target });
                  await queryClient.invalidateQueries({ queryKey: socialKeys.all });
                }}
                successMessage={t("profile.blockedToast", { name })}
              />
            )}
          </div>
        )}
      </div>
    </section>
  );
}
