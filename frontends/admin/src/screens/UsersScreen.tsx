import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { useQuery } from "@tanstack/react-query";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Profile, User } from "@tt/proto/tt/user/v1/user_pb";
import { useClient } from "@tt/web-kit/connect";
import { Avatar, Badge } from "@tt/web-kit/ui";
import {
  Ban,
  Coins,
  DoorOpen,
  Eye,
  MessageSquareText,
  ShieldCheck,
  ShieldOff,
  Sparkles,
  Trash,
  UserRoundCheck,
  UserRoundX,
  Wand,
} from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { UserDetail } from "./UserDetail.tsx";
import { userHref, userOfHash } from "./refs.tsx";
import { adminPage, intOfInput, listOf, useAdminFormat, useOptions } from "./format.ts";

/** The roles an admin can give (000 §6; AddRole's list). */
const ROLES = ["user", "promoter", "staff", "moderator", "globalModerator", "admin"] as const;
/** The capabilities a user can hold (the User message's documented list). */
export const CAPABILITIES = ["uploadMusic", "promoteRoom"] as const;
/** The badges a profile can show. */
export const BADGES = ["VERIFIED", "PLATINUM", "DOUBLE_PLATINUM", "JQBX", "STAFF"] as const;
const ROOM_TYPES = ["PUBLIC", "PRIVATE"] as const;
/** An update's picker value for "leave it as it is" (a picker's value cannot be empty). */
const KEEP = "keep";

/** A row of the users table: the account and, when the user has one, the public profile (nickname, avatar). */
export interface UserRow {
  user: User;
  profile: Profile | undefined;
}

/** The image of the shop avatar a profile wears (merch service, cached an hour); undefined while unknown or none. */
function useAvatarImage(slug: string | undefined): string | undefined {
  const avatars = useClient(AvatarService);
  const image = useQuery({
    queryKey: ["adminAvatarImage", slug],
    queryFn: async () => {
      try {
        return (await avatars.getAvatar({ slug: slug ?? "" })).avatar?.imageUrl ?? "";
      } catch {
        // A slug the catalogue no longer has (or hides): the generated avatar stands in.
        return "";
      }
    },
    enabled: Boolean(slug),
    staleTime: 3_600_000,
    retry: false,
  });
  return image.data || undefined;
}

/** The user's avatar and nickname; the nickname opens their details. */
function UserCell({ row, onOpen }: { row: UserRow; onOpen: () => void }) {
  const { t } = useAdminFormat();
  const nickname = row.profile?.nickname;
  const image = useAvatarImage(row.profile?.avatarId || undefined);
  return (
    <span className="tt-admin-user">
      <Avatar id={row.user.uuid} name={nickname || row.user.email} src={image} size="sm" decorative />
      <button type="button" className="tt-admin-link" onClick={onOpen}>
        {nickname || <span className="tt-muted">{t("noProfile")}</span>}
      </button>
    </span>
  );
}

/** Where an account stands: active, banned (until when), leaving, deactivated. */
function StatusBadge({ user }: { user: User }) {
  const { t, date } = useAdminFormat();
  if (user.deactivatedAt) return <Badge>{t("status_deactivated")}</Badge>;
  if (user.ban)
    return (
      <Badge tone="danger">
        {user.ban.endsAt ? t("status_bannedUntil", { at: date(user.ban.endsAt) }) : t("status_banned")}
      </Badge>
    );
  if (user.deactivationRequestedAt)
    return (
      <Badge tone="warning">{t("status_deactivationRequested", { at: date(user.deactivationRequestedAt) })}</Badge>
    );
  return <Badge tone="success">{t("status_active")}</Badge>;
}

/** Users: roles, capabilities, badges, bans with expiry, deactivation, moderation comments, their rooms. */
export default function UsersScreen() {
  const users = useClient(AdminService);
  const moderation = useClient(ModerationService);
  const profiles = useClient(ProfileService);
  const rooms = useClient(RoomService);
  const tokens = useClient(TokenService);
  const { t, date, name, names } = useAdminFormat();
  const roleOptions = useOptions("userRole", ROLES);
  const capabilityOptions = useOptions("capability", CAPABILITIES);
  const badgeOptions = useOptions("badge", BADGES);
  const roomTypeOptions = useOptions("roomType", ROOM_TYPES);
  // The user whose details are open: from a row, or from the address (a link to the user's page elsewhere).
  const [selected, setSelectedState] = useState<{ uuid: string; row?: UserRow } | undefined>(() => {
    const uuid = userOfHash(window.location.hash);
    return uuid ? { uuid } : undefined;
  });
  useEffect(() => {
    const onHash = () => {
      const uuid = userOfHash(window.location.hash);
      setSelectedState(uuid ? { uuid } : undefined);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  /** Opens (or closes) a user's details and keeps them in the address, so the page can be linked to. */
  const setSelected = useCallback((row: UserRow | undefined) => {
    setSelectedState(row ? { uuid: row.user.uuid, row } : undefined);
    window.history.replaceState(null, "", row ? userHref(row.user.uuid) : "#users");
  }, []);
  const description = useMemo<ResourceDescription<UserRow>>(
    () => ({
      key: "users",
      title: t("section_users"),
      rowKey: (r) => r.user.uuid,
      rowName: (r) => r.user.email || r.user.uuid,
      defaultSort: undefined,
      emptyBody: t("emptyBody_users"),
      columns: [
        {
          field: "nickname",
          label: t("col_user"),
          fixed: true,
          render: (r) => <UserCell row={r} onOpen={() => setSelected(r)} />,
        },
        { field: "email", label: t("col_email"), sortable: true, render: (r) => r.user.email },
        {
          field: "role",
          label: t("col_role"),
          sortable: true,
          render: (r) => (
            <Badge tone={r.user.role === "user" ? "neutral" : "accent"}>{name("userRole", r.user.role)}</Badge>
          ),
        },
        { field: "status", label: t("col_status"), render: (r) => <StatusBadge user={r.user} /> },
        { field: "badges", label: t("col_badges"), hidden: true, render: (r) => names("badge", r.user.badges) },
        {
          field: "capabilities",
          hidden: true,
          label: t("col_capabilities"),
          render: (r) => names("capability", r.user.capabilities),
        },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (r) => date(r.user.createdAt),
        },
      ],
      filters: [
        { id: "nickname", field: "nickname", op: "$contL", label: t("col_nickname") },
        { id: "email", field: "email", op: "$contL", label: t("col_email") },
        { id: "role", field: "role", op: "$eq", label: t("col_role"), options: roleOptions },
      ],
      actions: [
        { id: "details", label: t("viewDetails"), icon: <Eye />, open: (r) => setSelected(r) },
        {
          id: "addRole",
          label: t("action_addRole"),
          icon: <ShieldCheck />,
          confirmLabel: t("action_addRole"),
          question: (r) => t("confirm_addRole", { name: r.user.email }),
          fields: (r) => [
            {
              name: "role",
              label: t("field_role"),
              type: "select",
              required: true,
              options: roleOptions,
              initial: r.user.role,
            },
          ],
          run: (r, v) => moderation.addRole({ uuid: r.user.uuid, role: v.role ?? "" }),
        },
        {
          id: "addCapability",
          label: t("action_addCapability"),
          icon: <Wand />,
          visible: (r) => CAPABILITIES.some((c) => !r.user.capabilities.includes(c)),
          question: (r) => t("confirm_addCapability", { name: r.user.email }),
          fields: (r) => [
            {
              name: "capability",
              label: t("field_capability"),
              type: "select",
              required: true,
              options: capabilityOptions.filter((o) => !r.user.capabilities.includes(o.value)),
            },
          ],
          run: (r, v) => moderation.addCapability({ id: r.user.uuid, capability: v.capability ?? "" }),
        },
        {
          id: "removeCapability",
          label: t("action_removeCapability"),
          icon: <ShieldOff />,
          visible: (r) => r.user.capabilities.length > 0,
          question: (r) => t("confirm_removeCapability", { name: r.user.email }),
          fields: (r) => [
            {
              name: "capability",
              label: t("field_capability"),
              type: "select",
              required: true,
              options: r.user.capabilities.map((c) => ({ value: c, label: name("capability", c) })),
            },
          ],
          run: (r, v) => moderation.removeCapability({ id: r.user.uuid, capability: v.capability ?? "" }),
        },
        {
          id: "badges",
          label: t("action_badges"),
          icon: <Sparkles />,
          confirmLabel: t("save"),
          question: (r) => t("confirm_badges", { name: r.user.email }),
          fields: (r) => [
            {
              name: "badges",
              label: t("field_badges"),
              type: "multi",
              options: badgeOptions,
              initial: r.user.badges.join(","),
            },
          ],
          run: (r, v) => profiles.adminChangeBadges({ uuid: r.user.uuid, badges: listOf(v.badges) }),
        },
        {
          id: "comment",
          label: t("action_comment"),
          icon: <MessageSquareText />,
          confirmLabel: t("action_comment"),
          question: (r) => t("confirm_comment", { name: r.user.email }),
          fields: [{ name: "comment", label: t("field_comment"), type: "textarea", required: true }],
          run: (r, v) => moderation.createModerationComment({ userUuid: r.user.uuid, comment: v.comment ?? "" }),
        },
        {
          id: "grantTokens",
          label: t("action_grant"),
          icon: <Coins />,
          question: () => t("confirm_grantUser"),
          fields: [
            { name: "tokens", label: t("field_tokens"), type: "number", required: true },
            { name: "reason", label: t("field_reason"), required: true },
          ],
          // The account by the user first (Issue 16): a user without one gets the server's 404 message.
          run: async (r, v) => {
            const { account } = await tokens.getUserTokenAccount({ userUuid: r.user.uuid });
            return tokens.grantTokens({
              accountId: account?.id ?? "",
              tokens: intOfInput(v.tokens) ?? 0,
              reason: v.reason ?? "",
            });
          },
        },
        {
          id: "updateUserRooms",
          label: t("action_updateUserRooms"),
          icon: <DoorOpen />,
          confirmLabel: t("save"),
          question: (r) => t("confirm_updateUserRooms", { name: r.user.email }),
          fields: [
            {
              name: "type",
              label: t("field_roomType"),
              type: "select",
              required: true,
              initial: KEEP,
              options: [{ value: KEEP, label: t("keep") }, ...roomTypeOptions],
            },
            {
              name: "isLive",
              label: t("field_isLive"),
              type: "select",
              required: true,
              initial: KEEP,
              options: [
                { value: KEEP, label: t("keep") },
                { value: "true", label: t("yes") },
                { value: "false", label: t("no") },
              ],
            },
          ],
          run: (r, v) =>
            rooms.updateUserRooms({
              userId: r.user.uuid,
              ...(v.type && v.type !== KEEP ? { type: v.type } : {}),
              ...(v.isLive && v.isLive !== KEEP ? { isLive: v.isLive === "true" } : {}),
            }),
        },
        {
          id: "cancelDeactivation",
          label: t("action_cancelDeactivation"),
          icon: <UserRoundCheck />,
          visible: (r) => Boolean(r.user.deactivationRequestedAt) && !r.user.deactivatedAt,
          question: (r) => t("confirm_cancelDeactivation", { name: r.user.email }),
          run: (r) => moderation.cancelRequestedDeactivation({ uuid: r.user.uuid }),
        },
        {
          id: "reactivate",
          label: t("action_reactivate"),
          icon: <UserRoundCheck />,
          visible: (r) => Boolean(r.user.deactivatedAt),
          question: (r) => t("confirm_reactivate", { name: r.user.email }),
          run: (r) => moderation.reactivateUser({ id: r.user.uuid }),
        },
        {
          id: "unban",
          label: t("action_unban"),
          icon: <UserRoundCheck />,
          visible: (r) => Boolean(r.user.ban),
          question: (r) => t("confirm_unban", { name: r.user.email }),
          run: (r) => moderation.unbanUser({ uuid: r.user.uuid }),
        },
        {
          id: "ban",
          label: t("action_ban"),
          icon: <Ban />,
          destructive: true,
          // AdminListUsers carries the active ban: a banned user is offered Unban (and a new end) instead.
          visible: (r) => !r.user.ban,
          question: (r) => t("confirm_ban", { name: r.user.email }),
          fields: [{ name: "reason", label: t("field_reason") }],
          run: (r, v) => moderation.banUser({ uuid: r.user.uuid, reason: v.reason ?? "" }),
        },
        {
          id: "temporaryBan",
          label: t("action_temporaryBan"),
          icon: <Ban />,
          destructive: true,
          confirmLabel: t("action_ban"),
          question: (r) => t("confirm_temporaryBan", { name: r.user.email }),
          fields: [
            { name: "until", label: t("field_until"), type: "datetime", required: true },
            { name: "reason", label: t("field_reason") },
          ],
          run: (r, v) =>
            moderation.temporaryBanUser({
              uuid: r.user.uuid,
              reason: v.reason ?? "",
              end: { case: "until", value: timestampFromDate(new Date(v.until ?? "")) },
            }),
        },
        {
          id: "deactivate",
          label: t("action_deactivate"),
          icon: <UserRoundX />,
          destructive: true,
          visible: (r) => !r.user.deactivatedAt,
          question: (r) => t("confirm_deactivate", { name: r.user.email }),
          run: (r) => moderation.deactivateUser({ id: r.user.uuid }),
        },
        {
          id: "deleteUserRooms",
          label: t("action_deleteUserRooms"),
          icon: <Trash />,
          destructive: true,
          question: (r) => t("confirm_deleteUserRooms", { name: r.user.email }),
          run: (r) => rooms.deleteUserRooms({ userId: r.user.uuid }),
        },
      ],
      // The page's users, then their profiles in one batch (nickname, avatar); a failed batch leaves them out.
      list: async (query) => {
        const page = adminPage(await users.adminListUsers({ query }));
        const uuids = page.rows.map((u) => u.uuid);
        const found = uuids.length
          ? await profiles.getProfiles({ users: uuids }).then(
              (answer) => answer.profiles,
              () => [],
            )
          : [];
        const byUuid = new Map(found.map((profile) => [profile.uuid, profile]));
        return { ...page, rows: page.rows.map((user) => ({ user, profile: byUuid.get(user.uuid) })) };
      },
    }),
    [
      t,
      date,
      name,
      names,
      users,
      moderation,
      profiles,
      rooms,
      tokens,
      roleOptions,
      capabilityOptions,
      badgeOptions,
      roomTypeOptions,
      setSelected,
    ],
  );
  return (
    <>
      <ResourceList description={description} />
      {selected && <UserDetail uuid={selected.uuid} row={selected.row} onClose={() => setSelected(undefined)} />}
    </>
  );
}
