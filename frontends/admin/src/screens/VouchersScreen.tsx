import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import type { DeactivationRequest } from "@tt/proto/tt/user/v1/moderation_pb";
import type { Voucher } from "@tt/proto/tt/user/v1/voucher_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, useFormat } from "./format.ts";

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** Vouchers (create, revoke) and the accounts that asked to be deactivated. */
export default function VouchersScreen() {
  const accounts = useClient(AccountService);
  const moderation = useClient(ModerationService);
  const { t, date, text } = useFormat();
  const vouchers = useMemo<ResourceDescription<Voucher>>(
    () => ({
      key: "vouchers",
      title: t("section_vouchers"),
      rowKey: (v) => v.id,
      rowName: (v) => v.code,
      columns: [
        { field: "code", label: t("col_code"), sortable: true, render: (v) => v.code },
        { field: "status", label: t("col_status"), sortable: true, render: (v) => v.status },
        { field: "capabilities", label: t("col_capabilities"), render: (v) => v.capabilities.join(", ") || t("none") },
        { field: "badges", label: t("col_badges"), render: (v) => v.badges.join(", ") || t("none") },
        { field: "note", label: t("col_note"), render: (v) => text(v.note) },
        { field: "redeemedByUuid", label: t("col_redeemedBy"), render: (v) => text(v.redeemedByUuid) },
        { field: "createdAt", label: t("col_created"), sortable: true, render: (v) => date(v.createdAt) },
      ],
      filters: [
        { id: "code", field: "code", op: "$contL", label: t("col_code") },
        { id: "status", field: "status", op: "$eq", label: t("col_status") },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createVoucher"),
          question: t("confirm_createVoucher"),
          fields: [
            { name: "code", label: t("col_code") },
            { name: "capabilities", label: t("field_capabilities") },
            { name: "badges", label: t("field_badges") },
            { name: "note", label: t("field_note") },
          ],
          run: (v) =>
            accounts.createVoucher({
              code: v.code?.trim() ?? "",
              capabilities: list(v.capabilities),
              badges: list(v.badges),
              note: v.note ?? "",
            }),
        },
      ],
      actions: [
        {
          id: "revoke",
          label: t("action_revoke"),
          destructive: true,
          question: (v) => t("confirm_revoke", { name: v.code }),
          run: (v) => accounts.revokeVoucher({ id: v.id }),
        },
      ],
      list: async (query) => adminPage(await accounts.listVouchers({ query })),
    }),
    [t, date, text, accounts],
  );
  const requests = useMemo<ResourceDescription<DeactivationRequest>>(
    () => ({
      key: "deactivationRequests",
      title: t("section_deactivations"),
      rowKey: (r) => r.uuid,
      rowName: (r) => r.email || r.uuid,
      columns: [
        { field: "email", label: t("col_email"), render: (r) => r.email },
        { field: "nickname", label: t("col_name"), render: (r) => text(r.nickname) },
        { field: "reason", label: t("col_reason"), render: (r) => text(r.reason) },
        { field: "requestedAt", label: t("col_at"), render: (r) => date(r.requestedAt) },
      ],
      actions: [
        {
          id: "deactivate",
          label: t("action_deactivate"),
          destructive: true,
          question: (r) => t("confirm_deactivate", { name: r.email }),
          run: (r) => moderation.deactivateUser({ id: r.uuid }),
        },
        {
          id: "cancelDeactivation",
          label: t("action_cancelDeactivation"),
          question: (r) => t("confirm_cancelDeactivation", { name: r.email }),
          run: (r) => moderation.cancelRequestedDeactivation({ uuid: r.uuid }),
        },
      ],
      // The spec's list is not paged: all of it comes back, and the screen pages it.
      list: async (query) => {
        const all = (await moderation.listDeactivationRequests({})).requests;
        const limit = query.limit ?? 20;
        const start = ((query.page ?? 1) - 1) * limit;
        return { rows: all.slice(start, start + limit), total: all.length, pageCount: Math.ceil(all.length / limit) };
      },
    }),
    [t, date, text, moderation],
  );
  return (
    <>
      <ResourceList description={vouchers} />
      <h2 className="tt-admin-subtitle">{t("section_deactivations")}</h2>
      <ResourceList description={requests} />
    </>
  );
}
