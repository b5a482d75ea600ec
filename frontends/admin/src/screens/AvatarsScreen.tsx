import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { AvatarStatusSchema, type Avatar } from "@tt/proto/tt/merch/v1/merch_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import type { AdminText } from "../i18n.ts";
import type { ActionField } from "../list/ConfirmAction.tsx";
import { adminPage, intOfInput, useFormat } from "./format.ts";

const STATUSES = wireNamesOf(AvatarStatusSchema);

/** The inputs of the create and edit forms, filled from the avatar when editing. */
function avatarFields(t: AdminText, a?: Avatar): ActionField[] {
  return [
    { name: "name", label: t("col_name"), initial: a?.name ?? "" },
    { name: "status", label: t("col_status"), type: "select", options: STATUSES, initial: a?.status ?? "" },
    { name: "tokenCost", label: t("col_tokenCost"), type: "number", initial: String(a?.tokenCost ?? 0) },
    { name: "minPoints", label: t("col_minPoints"), type: "number", initial: String(a?.minPoints ?? 0) },
    { name: "seasonId", label: t("field_seasonId"), initial: a?.seasonId ?? "" },
    { name: "discordOnly", label: t("field_discordOnly"), type: "checkbox", initial: String(a?.discordOnly ?? false) },
  ];
}

/** Avatars of the shop and the seasons. */
export default function AvatarsScreen() {
  const avatars = useClient(AvatarService);
  const { t, date } = useFormat();
  const description = useMemo<ResourceDescription<Avatar>>(
    () => ({
      key: "avatars",
      title: t("section_avatars"),
      rowKey: (a) => a.id,
      rowName: (a) => a.name || a.slug,
      columns: [
        { field: "name", label: t("col_name"), sortable: true, render: (a) => a.name },
        { field: "slug", label: t("col_slug"), sortable: true, render: (a) => a.slug },
        { field: "status", label: t("col_status"), sortable: true, render: (a) => a.status },
        { field: "tokenCost", label: t("col_tokenCost"), sortable: true, render: (a) => a.tokenCost },
        { field: "minPoints", label: t("col_minPoints"), sortable: true, render: (a) => a.minPoints },
        { field: "createdAt", label: t("col_created"), sortable: true, render: (a) => date(a.createdAt) },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "status", field: "status", op: "$eq", label: t("col_status"), options: wireNamesOf(AvatarStatusSchema) },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createAvatar"),
          question: t("confirm_createAvatar"),
          fields: [{ name: "slug", label: t("col_slug"), required: true }, ...avatarFields(t)],
          run: (v) =>
            avatars.createAvatar({
              slug: v.slug?.trim() ?? "",
              name: v.name ?? "",
              status: v.status ?? "",
              discordOnly: v.discordOnly === "true",
              tokenCost: intOfInput(v.tokenCost) ?? 0,
              minPoints: intOfInput(v.minPoints) ?? 0,
              seasonId: v.seasonId?.trim() ?? "",
            }),
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          question: (a) => t("confirm_edit", { name: a.name || a.slug }),
          fields: (a) => avatarFields(t, a),
          run: (a, v) => {
            const tokenCost = intOfInput(v.tokenCost);
            const minPoints = intOfInput(v.minPoints);
            // Empty inputs leave the avatar's value as it is.
            return avatars.updateAvatar({
              slug: a.slug,
              name: v.name ?? "",
              discordOnly: v.discordOnly === "true",
              ...(v.status ? { status: v.status } : {}),
              ...(tokenCost !== undefined ? { tokenCost } : {}),
              ...(minPoints !== undefined ? { minPoints } : {}),
              ...(v.seasonId?.trim() ? { seasonId: v.seasonId.trim() } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (a) => t("confirm_delete", { name: a.name || a.slug }),
          run: (a) => avatars.adminDeleteAvatar({ slug: a.slug }),
        },
      ],
      list: async (query) => adminPage(await avatars.adminListAvatars({ query })),
    }),
    [t, date, avatars],
  );
  return <ResourceList description={description} />;
}
