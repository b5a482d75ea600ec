import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { User } from "@tt/proto/tt/user/v1/user_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo, useState } from "react";
import { UserDetail } from "./UserDetail.tsx";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, intOfInput, useFormat } from "./format.ts";

/** The roles an admin can give (000 §6; AddRole's list). */
const ROLES = ["user", "promoter", "staff", "moderator", "globalModerator", "admin"] as const;

/** Users: roles, capabilities, badges, bans with expiry, deactivation, moderation comments, their rooms. */
export default function UsersScreen() {
  const users = useClient(AdminService);
  const moderation = useClient(ModerationService);
  const profiles = useClient(ProfileService);
  const rooms = useClient(RoomService);
  const tokens = useClient(TokenService);
  const { t, date } = useFormat();
  const [selected, setSelected] = useState<string | undefined>();
  const description = useMemo<ResourceDescription<User>>(
    () => ({
      key: "users",
      title: t("section_users"),
      rowKey: (u) => u.uuid,
      rowName: (u) => u.email || u.uuid,
      columns: [
        {
          field: "email",
          label: t("col_email"),
          sortable: true,
          render: (u) => (
            <button type="button" className="tt-admin-link" onClick={() => setSelected(u.uuid)}>
              {u.email}
            </button>
          ),
        },
        { field: "role", label: t("col_role"), sortable: true, render: (u) => u.role },
        { field: "badges", label: t("col_badges"), render: (u) => u.badges.join(", ") || t("none") },
        { field: "capabilities", label: t("col_capabilities"), render: (u) => u.capabilities.join(", ") || t("none") },
        {
          field: "ban",
          label: t("col_ban"),
          render: (u) =>
            !u.ban ? t("none") : u.ban.endsAt ? t("bannedUntil", { at: date(u.ban.endsAt) }) : t("bannedForever"),
        },
        {
          field: "deactivation",
          label: t("col_deactivation"),
          render: (u) =>
            u.deactivatedAt
              ? t("deactivated")
              : u.deactivationRequestedAt
                ? t("requestedAt", { at: date(u.deactivationRequestedAt) })
                : t("none"),
        },
        { field: "createdAt", label: t("col_created"), sortable: true, render: (u) => date(u.createdAt) },
      ],
      filters: [
        { id: "email", field: "email", op: "$contL", label: t("col_email") },
        { id: "role", field: "role", op: "$eq", label: t("col_role") },
      ],
      actions: [
        {
          id: "ban",
          label: t("action_ban"),
          destructive: true,
          // AdminListUsers carries the active ban: a banned user is offered Unban (and a new end) instead.
          visible: (u) => !u.ban,
          question: (u) => t("confirm_ban", { name: u.email }),
          fields: [{ name: "reason", label: t("field_reason") }],
          run: (u, v) => moderation.banUser({ uuid: u.uuid, reason: v.reason ?? "" }),
        },
        {
          id: "temporaryBan",
          label: t("action_temporaryBan"),
          destructive: true,
          question: (u) => t("confirm_temporaryBan", { name: u.email }),
          fields: [
            { name: "until", label: t("field_until"), type: "datetime", required: true },
            { name: "reason", label: t("field_reason") },
          ],
          run: (u, v) =>
            moderation.temporaryBanUser({
              uuid: u.uuid,
              reason: v.reason ?? "",
              end: { case: "until", value: timestampFromDate(new Date(v.until ?? "")) },
            }),
        },
        {
          id: "unban",
          label: t("action_unban"),
          visible: (u) => Boolean(u.ban),
          question: (u) => t("confirm_unban", { name: u.email }),
          run: (u) => moderation.unbanUser({ uuid: u.uuid }),
        },
        {
          id: "addRole",
          label: t("action_addRole"),
          question: (u) => t("confirm_addRole", { name: u.email }),
          fields: (u) => [
            { name: "role", label: t("field_role"), type: "select", required: true, options: ROLES, initial: u.role },
          ],
          run: (u, v) => moderation.addRole({ uuid: u.uuid, role: v.role ?? "" }),
        },
        {
          id: "addCapability",
          label: t("action_addCapability"),
          question: (u) => t("confirm_addCapability", { name: u.email }),
          fields: [{ name: "capability", label: t("field_capability"), required: true }],
          run: (u, v) => moderation.addCapability({ id: u.uuid, capability: v.capability ?? "" }),
        },
        {
          id: "removeCapability",
          label: t("action_removeCapability"),
          destructive: true,
          visible: (u) => u.capabilities.length > 0,
          question: (u) => t("confirm_removeCapability", { name: u.email }),
          fields: [{ name: "capability", label: t("field_capability"), required: true }],
          run: (u, v) => moderation.removeCapability({ id: u.uuid, capability: v.capability ?? "" }),
        },
        {
          id: "badges",
          label: t("action_badges"),
          question: (u) => t("confirm_badges", { name: u.email }),
          fields: [{ name: "badges", label: t("field_badges") }],
          run: (u, v) =>
            profiles.adminChangeBadges({
              uuid: u.uuid,
              badges: (v.badges ?? "")
                .split(",")
                .map((b) => b.trim())
                .filter(Boolean),
            }),
        },
        {
          id: "comment",
          label: t("action_comment"),
          question: (u) => t("confirm_comment", { name: u.email }),
          fields: [{ name: "comment", label: t("field_comment"), type: "textarea", required: true }],
          run: (u, v) => moderation.createModerationComment({ userUuid: u.uuid, comment: v.comment ?? "" }),
        },
        {
          id: "cancelDeactivation",
          label: t("action_cancelDeactivation"),
          visible: (u) => Boolean(u.deactivationRequestedAt) && !u.deactivatedAt,
          question: (u) => t("confirm_cancelDeactivation", { name: u.email }),
          run: (u) => moderation.cancelRequestedDeactivation({ uuid: u.uuid }),
        },
        {
          id: "deactivate",
          label: t("action_deactivate"),
          destructive: true,
          visible: (u) => !u.deactivatedAt,
          question: (u) => t("confirm_deactivate", { name: u.email }),
          run: (u) => moderation.deactivateUser({ id: u.uuid }),
        },
        {
          id: "reactivate",
          label: t("action_reactivate"),
          visible: (u) => Boolean(u.deactivatedAt),
          question: (u) => t("confirm_reactivate", { name: u.email }),
          run: (u) => moderation.reactivateUser({ id: u.uuid }),
        },
        {
          id: "grantTokens",
          label: t("action_grant"),
          question: (u) => t("confirm_grantUser", { name: u.email || u.uuid }),
          fields: [
            { name: "tokens", label: t("field_tokens"), type: "number", required: true },
            { name: "reason", label: t("field_reason"), required: true },
          ],
          // The account by the user first (Issue 16): a user without one gets the server's 404 message.
          run: async (u, v) => {
            const { account } = await tokens.getUserTokenAccount({ userUuid: u.uuid });
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
          question: (u) => t("confirm_updateUserRooms", { name: u.email }),
          fields: [
            { name: "type", label: t("field_roomType") },
            { name: "isLive", label: t("field_isLive") },
          ],
          run: (u, v) =>
            rooms.updateUserRooms({
              userId: u.uuid,
              ...(v.type?.trim() ? { type: v.type.trim() } : {}),
              ...(v.isLive?.trim() ? { isLive: v.isLive.trim() === "true" } : {}),
            }),
        },
        {
          id: "deleteUserRooms",
          label: t("action_deleteUserRooms"),
          destructive: true,
          question: (u) => t("confirm_deleteUserRooms", { name: u.email }),
          run: (u) => rooms.deleteUserRooms({ userId: u.uuid }),
        },
      ],
      list: async (query) => adminPage(await users.adminListUsers({ query })),
    }),
    [t, date, users, moderation, profiles, rooms, tokens],
  );
  return (
    <>
      <ResourceList description={description} />
      {selected && <UserDetail uuid={selected} onClose={() => setSelected(undefined)} />}
    </>
  );
}
