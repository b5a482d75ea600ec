import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import type { RoomUserRole } from "@tt/proto/tt/room/v1/room_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { RoomRef, UserRef } from "./refs.tsx";
import { adminPage, useAdminFormat } from "./format.ts";

/** DJs (room roles) across rooms. */
export default function DjsScreen() {
  const admin = useClient(AdminService);
  const { t, date, name } = useAdminFormat();
  const description = useMemo<ResourceDescription<RoomUserRole>>(
    () => ({
      key: "djs",
      title: t("section_djs"),
      rowKey: (r) => r.id,
      rowName: (r) => r.userUuid,
      emptyTitle: t("emptyTitle_djs"),
      emptyBody: t("emptyBody_djs"),
      emptyLink: { label: t("openSection", { section: t("section_rooms") }), href: "#rooms" },
      columns: [
        {
          field: "userUuid",
          label: t("col_user"),
          sortable: true,
          fixed: true,
          render: (r) => <UserRef uuid={r.userUuid} />,
        },
        { field: "roomUuid", label: t("col_room"), sortable: true, render: (r) => <RoomRef uuid={r.roomUuid} /> },
        { field: "role", label: t("col_role"), render: (r) => name("roomRole", r.role) },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (r) => date(r.createdAt),
        },
      ],
      filters: [
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user"), type: "user" },
        { id: "room", field: "roomUuid", op: "$eq", label: t("col_room") },
      ],
      list: async (query) => adminPage(await admin.adminListDjs({ query })),
    }),
    [t, date, name, admin],
  );
  return <ResourceList description={description} />;
}
