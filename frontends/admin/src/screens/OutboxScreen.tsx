import type { DevOutboxMessage } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge } from "@tt/web-kit/ui";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { useAdminFormat, wholeListPage, type SortKey } from "./format.ts";

const OUTBOX_SORT: Record<string, SortKey<DevOutboxMessage>> = {
  createdAt: (m) => m.createdAt,
  to: (m) => m.to,
  subject: (m) => m.subject,
};

/** The development outbox (e-mails and SMS of the embedded default), newest first. */
export default function OutboxScreen() {
  const contacts = useClient(ContactService);
  const { t, date, text, name, language } = useAdminFormat();
  const description = useMemo<ResourceDescription<DevOutboxMessage>>(
    () => ({
      key: "outbox",
      title: t("section_outbox"),
      rowKey: (m) => m.id,
      rowName: (m) => m.subject || m.to,
      emptyTitle: t("emptyTitle_outbox"),
      emptyBody: t("emptyBody_outbox"),
      defaultSort: { field: "createdAt", dir: "DESC" },
      columns: [
        { field: "createdAt", label: t("col_at"), sortable: true, descFirst: true, render: (m) => date(m.createdAt) },
        { field: "channel", label: t("col_channel"), render: (m) => <Badge>{name("channel", m.channel)}</Badge> },
        { field: "to", label: t("col_to"), sortable: true, fixed: true, render: (m) => m.to },
        { field: "subject", label: t("col_subject"), sortable: true, render: (m) => text(m.subject) },
        { field: "body", label: t("col_body"), render: (m) => <span className="tt-admin-pre">{m.body}</span> },
      ],
      // The outbox comes whole: the screen sorts and pages it.
      list: async (query) => wholeListPage((await contacts.listDevOutbox({})).messages, query, OUTBOX_SORT, language),
    }),
    [t, date, text, name, language, contacts],
  );
  return <ResourceList description={description} />;
}
