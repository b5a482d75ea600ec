import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import type { PhoneNumber } from "@tt/proto/tt/user/v1/user_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge } from "@tt/web-kit/ui";
import { Plus, Trash } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { UserRef } from "./refs.tsx";
import { adminPage, useAdminFormat } from "./format.ts";

/** The phone whitelist: admin phone numbers, added and removed here. */
export default function PhonesScreen() {
  const contacts = useClient(ContactService);
  const { t, date, yesNo, text } = useAdminFormat();
  const description = useMemo<ResourceDescription<PhoneNumber>>(
    () => ({
      key: "phones",
      title: t("section_phones"),
      rowKey: (p) => p.id,
      rowName: (p) => p.phoneNumber,
      emptyTitle: t("emptyTitle_phones"),
      emptyBody: t("emptyBody_phones"),
      columns: [
        { field: "phoneNumber", label: t("col_phone"), sortable: true, fixed: true, render: (p) => p.phoneNumber },
        { field: "userUuid", label: t("col_user"), render: (p) => <UserRef uuid={p.userUuid} /> },
        {
          field: "whitelisted",
          label: t("col_whitelisted"),
          sortable: true,
          render: (p) => <Badge tone={p.whitelisted ? "success" : "neutral"}>{yesNo(p.whitelisted)}</Badge>,
        },
        { field: "note", label: t("col_note"), render: (p) => text(p.note) },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (p) => date(p.createdAt),
        },
      ],
      filters: [
        { id: "phone", field: "phoneNumber", op: "$cont", label: t("col_phone") },
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user"), type: "user" },
        {
          id: "whitelisted",
          field: "whitelisted",
          op: "$eq",
          label: t("col_whitelisted"),
          options: [
            { value: "true", label: t("yes") },
            { value: "false", label: t("no") },
          ],
        },
      ],
      listActions: [
        {
          id: "whitelist",
          label: t("action_whitelist"),
          icon: <Plus />,
          confirmLabel: t("action_whitelist"),
          fields: [
            {
              name: "phoneNumber",
              label: t("field_phone"),
              required: true,
              hint: t("phoneHint"),
              pattern: { test: /^\+[\d\s().-]{6,24}$/, message: t("phoneHint") },
            },
            { name: "userUuid", label: t("field_userUuid"), type: "user" },
            { name: "note", label: t("field_note") },
          ],
          run: (v) =>
            contacts.adminCreatePhoneNumber({
              phoneNumber: v.phoneNumber ?? "",
              userUuid: v.userUuid?.trim() ?? "",
              note: v.note ?? "",
              whitelisted: true,
            }),
        },
      ],
      actions: [
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (p) => t("confirm_delete", { name: p.phoneNumber }),
          run: (p) => contacts.adminDeletePhoneNumber({ id: p.id }),
        },
      ],
      list: async (query) => adminPage(await contacts.adminListPhoneNumbers({ query })),
    }),
    [t, date, yesNo, text, contacts],
  );
  return <ResourceList description={description} />;
}
