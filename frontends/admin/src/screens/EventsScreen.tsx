import { EventService, type Event } from "@tt/proto/tt/room/v1/event_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { CalendarPlus, Pencil, Trash } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { RoomRef } from "./refs.tsx";
import { adminPage, localInputOf, timestampOfInput, useAdminFormat } from "./format.ts";

/** Events, filtered by name, room and start. */
export default function EventsScreen() {
  const events = useClient(EventService);
  const { t, date } = useAdminFormat();
  const description = useMemo<ResourceDescription<Event>>(
    () => ({
      key: "events",
      title: t("section_events"),
      rowKey: (e) => e.id,
      rowName: (e) => e.name,
      defaultSort: { field: "startsAt", dir: "DESC" },
      emptyBody: t("emptyBody_events"),
      columns: [
        { field: "name", label: t("col_name"), sortable: true, fixed: true, render: (e) => e.name },
        { field: "slug", label: t("col_slug"), sortable: true, hidden: true, render: (e) => e.slug },
        { field: "roomId", label: t("col_room"), render: (e) => <RoomRef uuid={e.roomId} /> },
        { field: "startsAt", label: t("col_starts"), sortable: true, descFirst: true, render: (e) => date(e.startsAt) },
        { field: "endsAt", label: t("col_ends"), sortable: true, descFirst: true, render: (e) => date(e.endsAt) },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "room", field: "roomId", op: "$eq", label: t("col_room") },
        { id: "from", field: "startsAt", op: "$gte", label: t("filter_from"), type: "datetime" },
        { id: "to", field: "startsAt", op: "$lte", label: t("filter_to"), type: "datetime" },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createEvent"),
          icon: <CalendarPlus />,
          confirmLabel: t("create"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "slug", label: t("field_slugFromName") },
            { name: "description", label: t("field_description"), type: "textarea" },
            { name: "roomId", label: t("field_roomOptional"), type: "room" },
            { name: "startsAt", label: t("col_starts"), type: "datetime", required: true },
            { name: "endsAt", label: t("col_ends"), type: "datetime", required: true },
          ],
          run: (v) => {
            const startsAt = timestampOfInput(v.startsAt);
            const endsAt = timestampOfInput(v.endsAt);
            return events.createEvent({
              name: v.name?.trim() ?? "",
              slug: v.slug?.trim() ?? "",
              description: v.description ?? "",
              roomId: v.roomId?.trim() ?? "",
              ...(startsAt ? { startsAt } : {}),
              ...(endsAt ? { endsAt } : {}),
            });
          },
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (e) => t("title_edit", { name: e.name }),
          fields: (e) => [
            { name: "name", label: t("col_name"), required: true, initial: e.name },
            { name: "slug", label: t("col_slug"), required: true, initial: e.slug },
            { name: "description", label: t("field_description"), type: "textarea", initial: e.description },
            { name: "roomId", label: t("field_roomOptional"), type: "room", initial: e.roomId },
            {
              name: "startsAt",
              label: t("col_starts"),
              type: "datetime",
              required: true,
              initial: localInputOf(e.startsAt),
            },
            { name: "endsAt", label: t("col_ends"), type: "datetime", required: true, initial: localInputOf(e.endsAt) },
          ],
          run: (e, v) => {
            const startsAt = timestampOfInput(v.startsAt);
            const endsAt = timestampOfInput(v.endsAt);
            return events.updateEvent({
              id: e.id,
              name: v.name?.trim() ?? "",
              slug: v.slug?.trim() ?? "",
              description: v.description ?? "",
              ...(v.roomId?.trim() ? { roomId: v.roomId.trim() } : {}),
              ...(startsAt ? { startsAt } : {}),
              ...(endsAt ? { endsAt } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (e) => t("confirm_delete", { name: e.name }),
          run: (e) => events.deleteEvent({ id: e.id }),
        },
      ],
      list: async (query) => adminPage(await events.adminListEvents({ query })),
    }),
    [t, date, events],
  );
  return <ResourceList description={description} />;
}
