import { ModerationActionTypeSchema, type ModerationAction } from "@tt/proto/tt/audit/v1/audit_pb";
import { ModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge, type BadgeTone } from "@tt/web-kit/ui";
import { useCallback, useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { RoomRef, UserRef } from "./refs.tsx";
import { adminPage, useAdminFormat, useOptions } from "./format.ts";

const ACTION_TYPES = wireNamesOf(ModerationActionTypeSchema);
const ACTION_TONE: Record<string, BadgeTone> = {
  globalBan: "danger",
  temporaryBan: "danger",
  banUser: "danger",
  globalKick: "warning",
  kickUser: "warning",
  globalUnBan: "success",
  grantRole: "accent",
  removeRole: "neutral",
};

/** The moderation log (audit service), filtered by action, moderator, user and time; newest first. */
export default function ModerationLogScreen() {
  const log = useClient(ModerationService);
  const { t, date, text, name } = useAdminFormat();
  const actionOptions = useOptions("moderationAction", ACTION_TYPES);
  /** A role action's roles in words ("Member → Moderator"): a room's roles in a room, else the account's. */
  const roleChange = useCallback(
    (a: ModerationAction) => {
      const kind = a.roomUuid ? "roomRole" : "userRole";
      const roles = [a.previousRole, a.role].filter(Boolean).map((role) => name(kind, role));
      return roles.length ? roles.join(" → ") : t("none");
    },
    [name, t],
  );
  const description = useMemo<ResourceDescription<ModerationAction>>(
    () => ({
      key: "moderationLog",
      title: t("section_moderation"),
      rowKey: (a) => a.id,
      rowName: (a) => `${name("moderationAction", a.actionType)} · ${date(a.createdAt)}`,
      defaultSort: { field: "createdAt", dir: "DESC" },
      emptyTitle: t("emptyTitle_moderation"),
      emptyBody: t("emptyBody_moderation"),
      emptyLink: { label: t("openSection", { section: t("section_users") }), href: "#users" },
      columns: [
        { field: "createdAt", label: t("col_at"), sortable: true, descFirst: true, render: (a) => date(a.createdAt) },
        {
          field: "actionType",
          label: t("col_action"),
          sortable: true,
          fixed: true,
          render: (a) => (
            <Badge tone={ACTION_TONE[a.actionType] ?? "neutral"}>{name("moderationAction", a.actionType)}</Badge>
          ),
        },
        { field: "userUuid", label: t("col_user"), render: (a) => <UserRef uuid={a.userUuid} /> },
        { field: "moderatorUuid", label: t("col_moderator"), render: (a) => <UserRef uuid={a.moderatorUuid} /> },
        { field: "roomUuid", label: t("col_room"), render: (a) => <RoomRef uuid={a.roomUuid} /> },
        { field: "role", label: t("col_role"), render: (a) => roleChange(a) },
        { field: "reason", label: t("col_reason"), render: (a) => text(a.reason) },
        { field: "endsAt", label: t("col_ends"), render: (a) => date(a.endsAt) },
      ],
      filters: [
        { id: "action", field: "actionType", op: "$eq", label: t("col_action"), options: actionOptions },
        { id: "moderator", field: "moderatorUuid", op: "$eq", label: t("col_moderator"), type: "user" },
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user"), type: "user" },
        { id: "from", field: "createdAt", op: "$gte", label: t("filter_from"), type: "datetime" },
        { id: "to", field: "createdAt", op: "$lte", label: t("filter_to"), type: "datetime" },
      ],
      list: async (query) => adminPage(await log.listModerationActions({ query })),
    }),
    [t, date, text, name, log, actionOptions, roleChange],
  );
  return <ResourceList description={description} />;
}
