import { CommunityService, type Community } from "@tt/proto/tt/room/v1/community_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, useFormat } from "./format.ts";

/** A community's slug from its name, as typed in the bulk form ("Jazz Lovers" → "jazz-lovers"). */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Communities, with bulk creation (one name per line) and deletion. */
export default function CommunitiesScreen() {
  const communities = useClient(CommunityService);
  const { t, date } = useFormat();
  const description = useMemo<ResourceDescription<Community>>(
    () => ({
      key: "communities",
      title: t("section_communities"),
      rowKey: (c) => c.id,
      rowName: (c) => c.name,
      columns: [
        { field: "name", label: t("col_name"), sortable: true, render: (c) => c.name },
        { field: "slug", label: t("col_slug"), sortable: true, render: (c) => c.slug },
        { field: "memberCount", label: t("col_members"), render: (c) => c.memberCount },
        { field: "roomCount", label: t("col_rooms"), render: (c) => c.roomCount },
        { field: "createdAt", label: t("col_created"), sortable: true, render: (c) => date(c.createdAt) },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "slug", field: "slug", op: "$contL", label: t("col_slug") },
      ],
      listActions: [
        {
          id: "bulkCreate",
          label: t("action_bulkCreate"),
          question: t("confirm_bulkCreate"),
          fields: [{ name: "names", label: t("field_names"), type: "textarea", required: true }],
          run: (v) =>
            communities.adminBulkCreateCommunities({
              bulk: (v.names ?? "")
                .split("\n")
                .map((name) => name.trim())
                .filter(Boolean)
                .map((name) => ({ name, slug: slugOf(name) })),
            }),
        },
      ],
      actions: [
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (c) => t("confirm_delete", { name: c.name }),
          run: (c) => communities.adminDeleteCommunity({ id: c.id }),
        },
      ],
      list: async (query) => adminPage(await communities.adminListCommunities({ query })),
    }),
    [t, date, communities],
  );
  return <ResourceList description={description} />;
}
