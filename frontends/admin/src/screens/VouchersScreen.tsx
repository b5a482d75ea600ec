import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { DeactivationRequest } from "@tt/proto/tt/user/v1/moderation_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import type { Voucher } from "@tt/proto/tt/user/v1/voucher_pb";
import { useClient } from "@tt/web-kit/connect";
import { Badge, type BadgeTone } from "@tt/web-kit/ui";
import { Ban, Plus, UserRoundCheck, UserRoundX } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { UserRef } from "./refs.tsx";
import { BADGES, CAPABILITIES } from "./UsersScreen.tsx";
import { adminPage, listOf, useAdminFormat, useOptions, wholeListPage, type SortKey } from "./format.ts";

const STATUSES = ["PENDING", "REDEEMED", "REVOKED"] as const;
const STATUS_TONE: Record<string, BadgeTone> = { PENDING: "accent", REDEEMED: "success", REVOKED: "neutral" };

const REQUEST_SORT: Record<string, SortKey<DeactivationRequest>> = {
  nickname: (r) => r.nickname,
  email: (r) => r.email,
  requestedAt: (r) => r.requestedAt,
};

/** Vouchers (create, revoke) and the accounts that asked to be deactivated. */
export default function VouchersScreen() {
  const accounts = useClient(AccountService);
  const moderation = useClient(ModerationService);
  const { t, date, text, name, names, language } = useAdminFormat();
  const statusOptions = useOptions("status", STATUSES);
  const capabilityOptions = useOptions("capability", CAPABILITIES);
  const badgeOptions = useOptions("badge", BADGES);
  const vouchers = useMemo<ResourceDescription<Voucher>>(
    () => ({
      key: "vouchers",
      title: t("section_vouchers"),
      rowKey: (v) => v.id,
      rowName: (v) => v.code,
      emptyBody: t("emptyBody_vouchers"),
      columns: [
        { field: "code", label: t("col_code"), sortable: true, fixed: true, render: (v) => <code>{v.code}</code> },
        {
          field: "status",
          label: t("col_status"),
          sortable: true,
          render: (v) => <Badge tone={STATUS_TONE[v.status] ?? "neutral"}>{name("status", v.status)}</Badge>,
        },
        { field: "capabilities", label: t("col_capabilities"), render: (v) => names("capability", v.capabilities) },
        { field: "badges", label: t("col_badges"), render: (v) => names("badge", v.badges) },
        { field: "note", label: t("col_note"), hidden: true, render: (v) => text(v.note) },
        { field: "redeemedByUuid", label: t("col_redeemedBy"), render: (v) => <UserRef uuid={v.redeemedByUuid} /> },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (v) => date(v.createdAt),
        },
      ],
      filters: [
        { id: "code", field: "code", op: "$contL", label: t("col_code") },
        { id: "status", field: "status", op: "$eq", label: t("col_status"), options: statusOptions },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createVoucher"),
          icon: <Plus />,
          confirmLabel: t("create"),
          fields: [
            { name: "code", label: t("col_code"), hint: t("codeHint") },
            { name: "capabilities", label: t("field_capabilities"), type: "multi", options: capabilityOptions },
            { name: "badges", label: t("field_badges"), type: "multi", options: badgeOptions },
            { name: "note", label: t("field_note") },
          ],
          run: (v) =>
            accounts.createVoucher({
              code: v.code?.trim() ?? "",
              capabilities: listOf(v.capabilities),
              badges: listOf(v.badges),
              note: v.note ?? "",
            }),
        },
      ],
      actions: [
        {
          id: "revoke",
          label: t("action_revoke"),
          icon: <Ban />,
          destructive: true,
          visible: (v) => v.status === "PENDING",
          question: (v) => t("confirm_revoke", { name: v.code }),
          run: (v) => accounts.revokeVoucher({ id: v.id }),
        },
      ],
      list: async (query) => adminPage(await accounts.listVouchers({ query })),
    }),
    [t, date, text, name, names, accounts, statusOptions, capabilityOptions, badgeOptions],
  );
  const requests = useMemo<ResourceDescription<DeactivationRequest>>(
    () => ({
      key: "deactivationRequests",
      title: t("section_deactivations"),
      rowKey: (r) => r.uuid,
      rowName: (r) => r.email || r.uuid,
      emptyBody: t("emptyBody_deactivations"),
      defaultSort: { field: "requestedAt", dir: "DESC" },
      emptyLink: { label: t("openSection", { section: t("section_users") }), href: "#users" },
      columns: [
        { field: "nickname", label: t("col_nickname"), sortable: true, fixed: true, render: (r) => text(r.nickname) },
        { field: "email", label: t("col_email"), sortable: true, render: (r) => r.email },
        { field: "reason", label: t("col_reason"), render: (r) => text(r.reason) },
        {
          field: "requestedAt",
          label: t("col_at"),
          sortable: true,
          descFirst: true,
          render: (r) => date(r.requestedAt),
        },
      ],
      actions: [
        {
          id: "cancelDeactivation",
          label: t("action_cancelDeactivation"),
          icon: <UserRoundCheck />,
          question: (r) => t("confirm_cancelDeactivation", { name: r.email }),
          run: (r) => moderation.cancelRequestedDeactivation({ uuid: r.uuid }),
        },
        {
          id: "deactivate",
          label: t("action_deactivate"),
          icon: <UserRoundX />,
          destructive: true,
          question: (r) => t("confirm_deactivate", { name: r.email }),
          run: (r) => moderation.deactivateUser({ id: r.uuid }),
        },
      ],
      // The spec's list is not paged: all of it comes back, and the screen sorts and pages it.
      list: async (query) =>
        wholeListPage((await moderation.listDeactivationRequests({})).requests, query, REQUEST_SORT, language),
    }),
    [t, date, text, language, moderation],
  );
  return (
    <div className="tt-admin-sections">
      <ResourceList description={vouchers} />
      <ResourceList description={requests} heading={t("section_deactivations")} />
    </div>
  );
}
