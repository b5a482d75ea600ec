import { EventService, type Event } from "@tt/proto/tt/room/v1/event_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, useFormat } from "./format.ts";

/** Events, filtered by name, room and start. */
export default function EventsScreen() {
  const events = useClient(EventService);
  const { t, date } = useFormat();
  const description = useMemo<ResourceDescription<Event>>(
    () => ({
      key: "events",
      title: t("section_events"),
      rowKey: (e) => e.id,
      rowName: (e) => e.name,
      defaultSort: { field: "startsAt", dir: "DESC" },
      columns: [
        { field: "name", label: t("col_name"), sortable: true, render: (e) => e.name },
        { field: "slug", label: t("col_slug"), sortable: true, render: (e) => e.slug },
        { field: "roomId", label: t("col_room"), render: (e) => e.roomId },
        { field: "startsAt", label: t("col_starts"), sortable: true, render: (e) => date(e.startsAt) },
        { field: "endsAt", label: t("col_ends"), sortable: true, render: (e) => date(e.endsAt) },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "room", field: "roomId", op: "$eq", label: t("col_room") },
        { id: "from", field: "startsAt", op: "$gte", label: t("filter_from"), type: "datetime" },
        { id: "to", field: "startsAt", op: "$lte", label: t("filter_to"), type: "datetime" },
      ],
      actions: [
        {
          id: "delete",
          label: t("action_delete"),
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
