import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RoomUserRole } from "@tt/proto/tt/room/v1/room_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import {
  Avatar,
  Badge,
  Button,
  ConfirmDialog,
  Dialog,
  Field,
  FollowButton,
  FollowCounts,
  Select,
  Skeleton,
  toast,
  useFormat,
  useNames,
  UserBadges,
} from "@tt/web-kit/ui";
import {
  Ban,
  Clock,
  DoorOpen,
  MessageCircle,
  MessageSquareOff,
  ShieldCheck,
  ShieldMinus,
  UserCheck,
  UserPlus,
  UserX,
  VolumeX,
} from "lucide-react";
import { useEffect, useState } from "react";
import { useRoleClient } from "../../api.ts";
import { PROFILE_STALE_MS, useProfileClient, useStageClient } from "../api.ts";
import { useAvatarImage } from "../Avatar.tsx";
import { openDirectChat } from "../chat/open-direct.ts";
import { PEOPLE_STALE_MS, peopleKeys, useBlockClient, useDjFanClient, useFriendClient } from "./api.ts";
import { useRoomRoles } from "./lists.ts";
import { PEOPLE_NAMESPACE, peopleTranslations } from "./locales.ts";
import { onOpenPersonCard } from "./person-card.ts";
import "./people.css";

export interface PersonCardProps {
  /** The room's uuid. */
  room: string;
  /** The signed-in user; undefined for a guest (the card is read-only). */
  me: string | undefined;
  /** The room's moderators (LivePermissions.isModerator) also see the moderation actions. */
  isModerator: boolean;
  /** The DJs in the booth now, in seat order (the card says so, and a moderator may remove them). */
  seats?: readonly string[];
}

/**
 * The profile card of the live room (issue 25): mounted once, it opens on openPersonCard(uuid) from anywhere —
 * the booth, the crowd, chat, the people panel — and shows who the person is and what the viewer can do.
 */
export function PersonCard(props: PersonCardProps) {
  const [user, setUser] = useState<string | null>(null);
  useEffect(() => onOpenPersonCard(setUser), []);
  if (user === null) return null;
  return <PersonCardDialog key={user} {...props} user={user} onClose={() => setUser(null)} />;
}

type Restriction = "banned" | "kicked" | "chatDisabled" | "djDisabled";
const RESTRICTIONS: readonly Restriction[] = ["banned", "kicked", "chatDisabled", "djDisabled"];
/** The roles a moderator grants or removes from the card (the rank rule of the room service decides). */
const GRANTABLE = ["dj", "moderator"] as const;
type Grantable = (typeof GRANTABLE)[number];

const MINUTE = 60_000;
const DURATIONS = {
  m15: 15 * MINUTE,
  h1: 60 * MINUTE,
  d1: 1440 * MINUTE,
  d7: 7 * 1440 * MINUTE,
  d30: 30 * 1440 * MINUTE,
};
type Duration = keyof typeof DURATIONS | "forever";

/** A moderator's action waiting for its confirmation. */
type Pending =
  | { kind: "seat" }
  | { kind: "kick" }
  | { kind: "restrict"; role: "banned" | "chatDisabled" | "djDisabled" }
  | { kind: "grant"; role: Grantable }
  | { kind: "remove"; role: Grantable }
  | { kind: "lift"; role: Restriction };

function PersonCardDialog({
  room,
  me,
  isModerator,
  seats = [],
  user,
  onClose,
}: PersonCardProps & { user: string; onClose: () => void }) {
  const { t } = useAppTranslation(PEOPLE_NAMESPACE, peopleTranslations);
  const format = useFormat();
  const names = useNames();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const profiles = useProfileClient();
  const fans = useDjFanClient();
  const friends = useFriendClient();
  const blocks = useBlockClient();
  const roleClient = useRoleClient();
  const stageClient = useStageClient();
  const self = me === user;
  const signedIn = me !== undefined;
  const acts = signedIn && !self;

  // GetProfiles leaves an unknown user out (no 404 for the browser to log): "Someone" stands in.
  const profile = useQuery({
    queryKey: peopleKeys.profile(user),
    queryFn: async () => (await profiles.getProfiles({ users: [user] })).profiles[0] ?? null,
    staleTime: PROFILE_STALE_MS,
  });
  const image = useAvatarImage(profile.data?.avatarId ?? "");
  const counts = useQuery({
    queryKey: peopleKeys.counts(user),
    queryFn: () => fans.countDjFans({ id: user }),
    staleTime: PEOPLE_STALE_MS,
  });
  // Where I stand with them — friends, an invitation, following, blocked — in one answer with a plain "no" (GetDjFan
  // and GetBlockedUser say "no" with a 404, which the browser logs as a failed request).
  const friendship = useQuery({
    queryKey: peopleKeys.friendship(user),
    queryFn: () => friends.getFriendship({ id: user }),
    enabled: acts,
    staleTime: PEOPLE_STALE_MS,
  });
  const isFollowing = friendship.data?.following === true;
  const isBlocked = friendship.data?.blocked === true;
  const roomRoles = useRoomRoles(room);
  // A moderator sees the person's grants with their ends (the restrictive ones too).
  const grants = useQuery({
    queryKey: peopleKeys.userRoles(room, user),
    queryFn: () => roleClient.getUserRoomRoles({ roomId: room, userId: user }),
    enabled: isModerator && acts,
    retry: false,
  });

  const name = profile.data?.nickname || (profile.isPending ? "…" : t("card.someone"));
  const seated = seats.includes(user);
  const publicRoles = (grants.data?.grants.map((grant) => grant.role) ?? roomRoles.data?.get(user) ?? []).filter(
    (role) => !RESTRICTIONS.includes(role as Restriction),
  );
  const uniqueRoles = [...new Set(publicRoles)];
  const restrictions = (grants.data?.grants ?? []).filter((grant) =>
    RESTRICTIONS.includes(grant.role as Restriction),
  ) as (RoomUserRole & { role: Restriction })[];

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["rooms", "people"] });
  const act = useMutation({
    mutationFn: async ({ run }: { run: () => Promise<unknown>; done: string }) => {
      await run();
    },
    onSuccess: (_answer, { done }) => {
      toast({ title: done, tone: "success" });
      return refresh();
    },
    onError: (error) => toast({ title: errorText(error), tone: "error" }),
  });
  const run = (action: () => Promise<unknown>, done: string) => act.mutate({ run: action, done });

  const [blockOpen, setBlockOpen] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [duration, setDuration] = useState<Duration>("d1");
  const ask = (next: Pending) => {
    setDuration(next.kind === "kick" ? "m15" : "d1");
    setPending(next);
  };
  const untilOf = (choice: Duration) =>
    choice === "forever" ? undefined : timestampFromMs(Date.now() + DURATIONS[choice]);

  const pendingText = (() => {
    if (!pending) return undefined;
    switch (pending.kind) {
      case "seat":
        return {
          title: t("moderation.removeFromSeatTitle", { name }),
          text: t("moderation.removeFromSeatText"),
          confirm: t("moderation.removeFromSeatConfirm"),
          done: t("moderation.removedFromSeat", { name }),
          run: () => stageClient.removeFromSeat({ room, user }),
        };
      case "kick":
        return {
          title: t("moderation.kickTitle", { name }),
          text: t("moderation.kickText"),
          confirm: t("moderation.kickConfirm"),
          done: t("moderation.kicked", { name }),
          run: () => roleClient.kickUserFromRoom({ roomId: room, userId: user, until: untilOf(duration) }),
        };
      case "restrict": {
        const key = { banned: "ban", chatDisabled: "chatDisable", djDisabled: "djDisable" }[pending.role];
        return {
          title: t(`moderation.${key}Title`, { name }),
          text: t(`moderation.${key}Text`),
          confirm: t(`moderation.${key}Confirm`),
          done: t(`moderation.${pending.role}`, { name }),
          run: () =>
            roleClient.grantRoomRole({ roomId: room, userId: user, role: pending.role, expiresAt: untilOf(duration) }),
        };
      }
      case "grant":
        return {
          title: t(`moderation.roles.${pending.role}.grantTitle`, { name }),
          text: t("moderation.grantText"),
          confirm: t("moderation.grantConfirm"),
          done: t(`moderation.roles.${pending.role}.granted`, { name }),
          run: () => roleClient.grantRoomRole({ roomId: room, userId: user, role: pending.role }),
        };
      case "remove":
        return {
          title: t(`moderation.roles.${pending.role}.removeTitle`, { name }),
          text: t("moderation.removeText"),
          confirm: t("moderation.removeConfirm"),
          done: t(`moderation.roles.${pending.role}.removed`, { name }),
          run: () => roleClient.removeRoomRole({ roomId: room, userId: user, role: pending.role }),
        };
      case "lift": {
        const label = t(`moderation.restriction.${pending.role}`);
        return {
          title: t("moderation.liftTitle", { name, role: label }),
          text: t("moderation.liftText"),
          confirm: t("moderation.liftConfirm"),
          done: t("moderation.lifted", { name, role: label }),
          run: () => roleClient.removeRoomRole({ roomId: room, userId: user, role: pending.role }),
        };
      }
    }
  })();
  const timed = pending?.kind === "kick" || pending?.kind === "restrict";
  // A kick lasts at most 30 days (the service's limit); a restriction may also last until removed.
  const choices: readonly Duration[] =
    pending?.kind === "kick" ? ["m15", "h1", "d1", "d7", "d30"] : ["h1", "d1", "d7", "d30", "forever"];
  const durationOptions = choices.map((choice) => ({ value: choice, label: t(`moderation.durations.${choice}`) }));

  const invitation = friendship.data?.pendingInvitation;

  return (
    <>
      <Dialog
        open
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
        title={name}
        description={t("card.description", { name })}
      >
        <div className="tt-person-card" data-testid="person-card">
          <div className="tt-person-card__who">
            {profile.isPending ? (
              <Skeleton width="5rem" height="5rem" radius="50%" />
            ) : (
              <Avatar id={user} name={name} src={image} size="xl" />
            )}
            <div className="tt-person-card__facts">
              {self && <Badge tone="accent">{t("card.you")}</Badge>}
              <p className="tt-person-card__roles" role="group" aria-label={t("card.roles")}>
                {seated && <Badge tone="success">{t("card.inBooth")}</Badge>}
                {uniqueRoles.map((role) => (
                  <Badge key={role} tone="accent">
                    {names("roomRole", role)}
                  </Badge>
                ))}
                {!seated && uniqueRoles.length === 0 && <Badge>{names("roomRole", "user")}</Badge>}
              </p>
              <UserBadges role={profile.data?.role} badges={profile.data?.badges ?? []} />
              <FollowCounts fans={counts.data?.fans} following={counts.data?.following} />
            </div>
          </div>
          {restrictions.length > 0 && (
            <ul className="tt-person-card__restrictions">
              {restrictions.map((grant) => (
                <li key={grant.id || grant.role}>
                  <Badge tone="danger" icon={<Clock aria-hidden="true" />}>
                    {t(`moderation.restriction.${grant.role}`)}{" "}
                    {grant.expiresAt
                      ? t("moderation.until", { until: format.dateTime(grant.expiresAt) })
                      : t("moderation.untilRemoved")}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
          {!signedIn && <p className="tt-muted">{t("card.guest")}</p>}
          {acts && (
            <div className="tt-person-card__actions">
              <FollowButton
                following={isFollowing}
                followLabel={t("card.follow")}
                unfollowLabel={t("card.unfollow")}
                onFollow={() => run(() => fans.followDj({ djId: user }), t("card.followed", { name }))}
                onUnfollow={() => run(() => fans.unfollowDj({ id: user }), t("card.unfollowed", { name }))}
                busy={act.isPending}
                checking={friendship.isPending}
              />
              <Button
                variant="secondary"
                icon={<MessageCircle aria-hidden="true" />}
                onClick={() => {
                  onClose();
                  openDirectChat(user);
                }}
              >
                {t("card.message")}
              </Button>
              {friendship.data?.friends ? (
                <Badge tone="success" icon={<UserCheck aria-hidden="true" />}>
                  {t("card.friends")}
                </Badge>
              ) : invitation ? (
                <Badge icon={<Clock aria-hidden="true" />}>
                  {invitation.toUserId === me ? t("card.pendingToMe") : t("card.pendingFromMe")}
                </Badge>
              ) : (
                <Button
                  variant="secondary"
                  icon={<UserPlus aria-hidden="true" />}
                  disabled={act.isPending || friendship.isPending || isBlocked}
                  onClick={() => run(() => friends.sendFriendInvitation({ userId: user }), t("card.invited", { name }))}
                >
                  {t("card.invite")}
                </Button>
              )}
              {isBlocked ? (
                <Button
                  variant="ghost"
                  disabled={act.isPending}
                  onClick={() => run(() => blocks.unblockUser({ id: user }), t("card.unblocked", { name }))}
                >
                  {t("card.unblock")}
                </Button>
              ) : (
                <Button
                  variant="ghost"
                  icon={<Ban aria-hidden="true" />}
                  disabled={friendship.isPending}
                  onClick={() => setBlockOpen(true)}
                >
                  {t("card.block")}
                </Button>
              )}
            </div>
          )}
          {isModerator && acts && (
            <section className="tt-person-card__moderation" aria-labelledby="person-card-moderation">
              <h3 id="person-card-moderation" className="tt-eyebrow">
                {t("moderation.title")}
              </h3>
              <div className="tt-person-card__actions">
                {seated && (
                  <Button
                    size="sm"
                    variant="secondary"
                    icon={<UserX aria-hidden="true" />}
                    onClick={() => ask({ kind: "seat" })}
                  >
                    {t("moderation.removeFromSeat")}
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="secondary"
                  icon={<DoorOpen aria-hidden="true" />}
                  onClick={() => ask({ kind: "kick" })}
                >
                  {t("moderation.kick")}
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  icon={<Ban aria-hidden="true" />}
                  onClick={() => ask({ kind: "restrict", role: "banned" })}
                >
                  {t("moderation.ban")}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  icon={<MessageSquareOff aria-hidden="true" />}
                  onClick={() => ask({ kind: "restrict", role: "chatDisabled" })}
                >
                  {t("moderation.chatDisable")}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  icon={<VolumeX aria-hidden="true" />}
                  onClick={() => ask({ kind: "restrict", role: "djDisabled" })}
                >
                  {t("moderation.djDisable")}
                </Button>
                {GRANTABLE.map((role) =>
                  uniqueRoles.includes(role) ? (
                    <Button
                      key={role}
                      size="sm"
                      variant="ghost"
                      icon={<ShieldMinus aria-hidden="true" />}
                      onClick={() => ask({ kind: "remove", role })}
                    >
                      {t(`moderation.roles.${role}.remove`)}
                    </Button>
                  ) : (
                    <Button
                      key={role}
                      size="sm"
                      variant="ghost"
                      icon={<ShieldCheck aria-hidden="true" />}
                      onClick={() => ask({ kind: "grant", role })}
                    >
                      {t(`moderation.roles.${role}.grant`)}
                    </Button>
                  ),
                )}
                {restrictions.map((grant) => (
                  <Button
                    key={`lift-${grant.role}`}
                    size="sm"
                    variant="ghost"
                    onClick={() => ask({ kind: "lift", role: grant.role })}
                  >
                    {t("moderation.lift", { role: t(`moderation.restriction.${grant.role}`) })}
                  </Button>
                ))}
              </div>
            </section>
          )}
          <a className="tt-person-card__profile" href={`/users/${encodeURIComponent(user)}`}>
            {t("card.profile")}
          </a>
        </div>
      </Dialog>
      <ConfirmDialog
        open={blockOpen}
        onOpenChange={setBlockOpen}
        title={t("card.blockTitle", { name })}
        description={t("card.blockText")}
        confirmLabel={t("card.blockConfirm")}
        tone="danger"
        onConfirm={async () => {
          await blocks.blockUser({ blockedUserId: user });
          await refresh();
        }}
        successMessage={t("card.blockedToast", { name })}
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={pendingText?.title ?? ""}
        description={pendingText?.text}
        confirmLabel={pendingText?.confirm ?? ""}
        tone={pending?.kind === "grant" || pending?.kind === "lift" ? "primary" : "danger"}
        onConfirm={async () => {
          await pendingText?.run();
          await refresh();
        }}
        {...(pendingText ? { successMessage: pendingText.done } : {})}
      >
        {timed && (
          <Field label={t("moderation.duration")}>
            <Select
              value={duration}
              onValueChange={(value) => setDuration(value as Duration)}
              options={durationOptions}
            />
          </Field>
        )}
      </ConfirmDialog>
    </>
  );
}
