import { ModerationActionTypeSchema, type ModerationAction } from "@tt/proto/tt/audit/v1/audit_pb";
import { ModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { adminPage, useFormat } from "./format.ts";

const ACTION_TYPES = wireNamesOf(ModerationActionTypeSchema);

/** The moderation log (audit service), filtered by action, moderator, user and time; newest first. */
export default function ModerationLogScreen() {
  const log = useClient(ModerationService);
  const { t, date, text } = useFormat();
  const description = useMemo<ResourceDescription<ModerationAction>>(
    () => ({
      key: "moderationLog",
      title: t("section_moderation"),
      rowKey: (a) => a.id,
      rowName: (a) => `${a.actionType} ${a.userUuid}`,
      defaultSort: { field: "createdAt", dir: "DESC" },
      columns: [
        { field: "createdAt", label: t("col_at"), sortable: true, render: (a) => date(a.createdAt) },
        { field: "actionType", label: t("col_action"), sortable: true, render: (a) => a.actionType },
        { field: "userUuid", label: t("col_user"), render: (a) => a.userUuid },
        { field: "moderatorUuid", label: t("col_moderator"), render: (a) => text(a.moderatorUuid) },
        { field: "roomUuid", label: t("col_room"), render: (a) => text(a.roomUuid) },
        { field: "reason", label: t("col_reason"), render: (a) => text(a.reason) },
        { field: "endsAt", label: t("col_ends"), render: (a) => date(a.endsAt) },
      ],
      filters: [
        { id: "action", field: "actionType", op: "$eq", label: t("col_action"), options: ACTION_TYPES },
        { id: "moderator", field: "moderatorUuid", op: "$eq", label: t("col_moderator") },
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user") },
        { id: "from", field: "createdAt", op: "$gte", label: t("filter_from"), type: "datetime" },
        { id: "to", field: "createdAt", op: "$lte", label: t("filter_to"), type: "datetime" },
      ],
      list: async (query) => adminPage(await log.listModerationActions({ query })),
    }),
    [t, date, text, log],
  );
  return <ResourceList description={description} />;
}
