import type { DevOutboxMessage } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge } from "@tt/web-kit/ui";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { useAdminFormat } from "./format.ts";

/** The development outbox (e-mails and SMS of the embedded default), newest first. */
export default function OutboxScreen() {
  const contacts = useClient(ContactService);
  const { t, date, text, name } = useAdminFormat();
  const description = useMemo<ResourceDescription<DevOutboxMessage>>(
    () => ({
      key: "outbox",
      title: t("section_outbox"),
      rowKey: (m) => m.id,
      rowName: (m) => m.subject || m.to,
      emptyTitle: t("emptyTitle_outbox"),
      emptyBody: t("emptyBody_outbox"),
      columns: [
        { field: "createdAt", label: t("col_at"), render: (m) => date(m.createdAt) },
        { field: "channel", label: t("col_channel"), render: (m) => <Badge>{name("channel", m.channel)}</Badge> },
        { field: "to", label: t("col_to"), fixed: true, render: (m) => m.to },
        { field: "subject", label: t("col_subject"), render: (m) => text(m.subject) },
        { field: "body", label: t("col_body"), render: (m) => <span className="tt-admin-pre">{m.body}</span> },
      ],
      // The outbox comes whole, newest first: the screen pages it.
      list: async (query) => {
        const all = (await contacts.listDevOutbox({})).messages;
        const limit = query.limit ?? 20;
        const start = ((query.page ?? 1) - 1) * limit;
        return { rows: all.slice(start, start + limit), total: all.length, pageCount: Math.ceil(all.length / limit) };
      },
    }),
    [t, date, text, name, contacts],
  );
  return <ResourceList description={description} />;
}
