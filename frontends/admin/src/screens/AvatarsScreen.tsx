import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { AvatarStatusSchema, type Avatar } from "@tt/proto/tt/merch/v1/merch_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { adminPage, useFormat } from "./format.ts";

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
      actions: [
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
