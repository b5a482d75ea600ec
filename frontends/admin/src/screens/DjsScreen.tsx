import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import type { RoomUserRole } from "@tt/proto/tt/room/v1/room_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, useFormat } from "./format.ts";

/** DJs (room roles) across rooms. */
export default function DjsScreen() {
  const admin = useClient(AdminService);
  const { t, date } = useFormat();
  const description = useMemo<ResourceDescription<RoomUserRole>>(
    () => ({
      key: "djs",
      title: t("section_djs"),
      rowKey: (r) => r.id,
      rowName: (r) => r.userUuid,
      columns: [
        { field: "userUuid", label: t("col_user"), sortable: true, render: (r) => r.userUuid },
        { field: "roomUuid", label: t("col_room"), sortable: true, render: (r) => r.roomUuid },
        { field: "role", label: t("col_role"), render: (r) => r.role },
        { field: "createdAt", label: t("col_created"), sortable: true, render: (r) => date(r.createdAt) },
      ],
      filters: [
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user") },
        { id: "room", field: "roomUuid", op: "$eq", label: t("col_room") },
      ],
      list: async (query) => adminPage(await admin.adminListDjs({ query })),
    }),
    [t, date, admin],
  );
  return <ResourceList description={description} />;
}
