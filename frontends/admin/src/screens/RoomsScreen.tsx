import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { DjTypeSchema, RoomDesignSchema, RoomTypeSchema, type Room } from "@tt/proto/tt/room/v1/room_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge } from "@tt/web-kit/ui";
import { Pencil, Trash } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { UserRef } from "./refs.tsx";
import { adminPage, intOfInput, useAdminFormat, useOptions } from "./format.ts";

const ROOM_TYPES = wireNamesOf(RoomTypeSchema);
const DESIGNS = wireNamesOf(RoomDesignSchema);
const DJ_TYPES = wireNamesOf(DjTypeSchema);

/** Rooms, filtered by name, slug, type, owner and liveness; deleting one asks first. */
export default function RoomsScreen() {
  const admin = useClient(AdminService);
  const rooms = useClient(RoomService);
  const { t, yesNo, name, number } = useAdminFormat();
  const typeOptions = useOptions("roomType", ROOM_TYPES);
  const designOptions = useOptions("design", DESIGNS);
  const djTypeOptions = useOptions("djType", DJ_TYPES);
  const description = useMemo<ResourceDescription<Room>>(
    () => ({
      key: "rooms",
      title: t("section_rooms"),
      rowKey: (r) => r.uuid,
      rowName: (r) => r.name || r.slug,
      emptyBody: t("emptyBody_rooms"),
      columns: [
        { field: "name", label: t("col_name"), sortable: true, fixed: true, render: (r) => r.name },
        {
          field: "slug",
          label: t("col_slug"),
          sortable: true,
          render: (r) => <span className="tt-muted">{r.slug}</span>,
        },
        { field: "type", label: t("col_type"), sortable: true, render: (r) => name("roomType", r.type) },
        { field: "design", label: t("field_design"), hidden: true, render: (r) => name("design", r.design) },
        { field: "ownerUuid", label: t("col_owner"), render: (r) => <UserRef uuid={r.ownerUuid} /> },
        {
          field: "numberOfDjs",
          label: t("col_djs"),
          sortable: true,
          align: "end",
          render: (r) => number(r.numberOfDjs),
        },
        {
          field: "isLive",
          label: t("col_live"),
          sortable: true,
          render: (r) =>
            r.isLive ? <Badge tone="live">{t("liveNow")}</Badge> : <span className="tt-muted">{yesNo(false)}</span>,
        },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "slug", field: "slug", op: "$contL", label: t("col_slug") },
        { id: "type", field: "type", op: "$eq", label: t("col_type"), options: typeOptions },
        { id: "owner", field: "ownerUuid", op: "$eq", label: t("col_owner"), type: "user" },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (r) => t("title_edit", { name: r.name || r.slug }),
          fields: (r) => [
            { name: "name", label: t("col_name"), required: true, initial: r.name },
            { name: "description", label: t("field_description"), type: "textarea", initial: r.description },
            {
              name: "type",
              label: t("col_type"),
              type: "select",
              required: true,
              options: typeOptions,
              initial: r.type,
            },
            {
              name: "design",
              label: t("field_design"),
              type: "select",
              required: true,
              options: designOptions,
              initial: r.design,
            },
            {
              name: "djType",
              label: t("field_djType"),
              type: "select",
              required: true,
              options: djTypeOptions,
              initial: r.djType,
            },
            {
              name: "numberOfDjs",
              label: t("col_djs"),
              type: "number",
              required: true,
              initial: String(r.numberOfDjs),
            },
            { name: "ownerUuid", label: t("col_owner"), type: "user", required: true, initial: r.ownerUuid },
            { name: "isLive", label: t("col_live"), type: "checkbox", initial: String(r.isLive) },
            { name: "promoted", label: t("field_promoted"), type: "checkbox", initial: String(r.promoted) },
          ],
          run: (r, v) => {
            const numberOfDjs = intOfInput(v.numberOfDjs);
            return admin.adminUpdateRoom({
              id: r.uuid,
              name: v.name ?? "",
              description: v.description ?? "",
              isLive: v.isLive === "true",
              promoted: v.promoted === "true",
              ...(v.type ? { type: v.type } : {}),
              ...(v.design ? { design: v.design } : {}),
              ...(v.djType ? { djType: v.djType } : {}),
              ...(numberOfDjs !== undefined ? { numberOfDjs } : {}),
              // A new owner only when it changed.
              ...(v.ownerUuid?.trim() && v.ownerUuid.trim() !== r.ownerUuid ? { ownerUuid: v.ownerUuid.trim() } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (r) => t("confirm_delete", { name: r.name || r.slug }),
          run: (r) => rooms.deleteRoom({ id: r.uuid }),
        },
      ],
      list: async (query) => adminPage(await admin.adminListRooms({ query })),
    }),
    [t, yesNo, name, number, admin, rooms, typeOptions, designOptions, djTypeOptions],
  );
  return <ResourceList description={description} />;
}
