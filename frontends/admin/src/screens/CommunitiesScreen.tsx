import { CommunityService, type Community } from "@tt/proto/tt/room/v1/community_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { ListPlus, Pencil, Plus, Trash } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { UserRef } from "./refs.tsx";
import { adminPage, useAdminFormat } from "./format.ts";

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
  const { t, date, number } = useAdminFormat();
  const description = useMemo<ResourceDescription<Community>>(
    () => ({
      key: "communities",
      title: t("section_communities"),
      rowKey: (c) => c.id,
      rowName: (c) => c.name,
      emptyBody: t("emptyBody_communities"),
      columns: [
        { field: "name", label: t("col_name"), sortable: true, fixed: true, render: (c) => c.name },
        {
          field: "slug",
          label: t("col_slug"),
          sortable: true,
          render: (c) => <span className="tt-muted">{c.slug}</span>,
        },
        { field: "ownerId", label: t("col_owner"), hidden: true, render: (c) => <UserRef uuid={c.ownerId} /> },
        { field: "memberCount", label: t("col_members"), align: "end", render: (c) => number(c.memberCount) },
        { field: "roomCount", label: t("col_rooms"), align: "end", render: (c) => number(c.roomCount) },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (c) => date(c.createdAt),
        },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "slug", field: "slug", op: "$contL", label: t("col_slug") },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createCommunity"),
          icon: <Plus />,
          confirmLabel: t("create"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "slug", label: t("field_slugFromName") },
            { name: "description", label: t("field_description"), type: "textarea" },
            { name: "ownerId", label: t("field_ownerOptional"), type: "user" },
          ],
          run: (v) =>
            communities.adminCreateCommunity({
              name: v.name?.trim() ?? "",
              slug: v.slug?.trim() || slugOf(v.name ?? ""),
              description: v.description ?? "",
              ownerId: v.ownerId?.trim() ?? "",
            }),
        },
        {
          id: "bulkCreate",
          label: t("action_bulkCreate"),
          icon: <ListPlus />,
          confirmLabel: t("create"),
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
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (c) => t("title_edit", { name: c.name }),
          fields: (c) => [
            { name: "name", label: t("col_name"), required: true, initial: c.name },
            { name: "slug", label: t("col_slug"), required: true, initial: c.slug },
            { name: "description", label: t("field_description"), type: "textarea", initial: c.description },
            { name: "ownerId", label: t("field_ownerOptional"), type: "user", initial: c.ownerId },
          ],
          run: (c, v) =>
            communities.adminUpdateCommunity({
              id: c.id,
              name: v.name?.trim() ?? "",
              slug: v.slug?.trim() ?? "",
              description: v.description ?? "",
              ...(v.ownerId?.trim() ? { ownerId: v.ownerId.trim() } : {}),
            }),
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (c) => t("confirm_delete", { name: c.name }),
          run: (c) => communities.adminDeleteCommunity({ id: c.id }),
        },
      ],
      list: async (query) => adminPage(await communities.adminListCommunities({ query })),
    }),
    [t, date, number, communities],
  );
  return <ResourceList description={description} />;
}
