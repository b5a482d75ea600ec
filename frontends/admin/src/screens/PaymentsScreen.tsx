import { useQuery } from "@tanstack/react-query";
import { PaymentTypeSchema, type Product, type Subscription } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useMemo, useState, type FormEvent } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { intOfInput, isoOf, offsetOf, offsetPage, useFormat } from "./format.ts";

const PAYMENT_TYPES = wireNamesOf(PaymentTypeSchema);

/** Subscriptions counted by period, region and level (the payment service's count call). */
function SubscriptionCount() {
  const subscriptions = useClient(SubscriptionService);
  const toText = useErrorText();
  const { t } = useFormat();
  const [draft, setDraft] = useState({ startDate: "", endDate: "", region: "", level: "" });
  const [request, setRequest] = useState(draft);
  const count = useQuery({
    queryKey: ["adminList", "subscriptionCount", request],
    queryFn: () =>
      subscriptions.countSubscriptions({
        ...request,
        startDate: isoOf(request.startDate) ?? "",
        endDate: isoOf(request.endDate) ?? "",
      }),
  });
  const field = (name: keyof typeof draft, label: string, type = "search") => (
    <div className="tt-field">
      <label htmlFor={`subscription-count-${name}`}>{label}</label>
      <input
        id={`subscription-count-${name}`}
        type={type}
        value={draft[name]}
        onChange={(event) => setDraft((d) => ({ ...d, [name]: event.target.value }))}
      />
    </div>
  );
  return (
    <form
      className="tt-admin-filters"
      aria-label={t("section_subscriptionCount")}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        setRequest(draft);
      }}
    >
      {field("startDate", t("filter_from"), "datetime-local")}
      {field("endDate", t("filter_to"), "datetime-local")}
      {field("region", t("col_region"))}
      {field("level", t("col_level"))}
      <button type="submit" className="tt-button">
        {t("applyFilters")}
      </button>
      <output aria-live="polite">
        {count.isError
          ? toText(count.error)
          : count.data
            ? t("subscriptionCount", { count: count.data.count })
            : t("loading")}
      </output>
    </form>
  );
}

/** Products (with deletion), subscription counts, and one user's subscriptions. */
export default function PaymentsScreen() {
  const products = useClient(ProductService);
  const subscriptions = useClient(SubscriptionService);
  const { t, date, text, yesNo } = useFormat();
  const productList = useMemo<ResourceDescription<Product>>(
    () => ({
      key: "products",
      title: t("section_products"),
      rowKey: (p) => p.id,
      rowName: (p) => p.name,
      columns: [
        { field: "name", label: t("col_name"), render: (p) => p.name },
        { field: "paymentType", label: t("col_type"), render: (p) => p.paymentType },
        {
          field: "price",
          label: t("col_price"),
          render: (p) => `${(p.price / 100).toFixed(2)} ${p.currency.toUpperCase()}`,
        },
        { field: "level", label: t("col_level"), render: (p) => text(p.level) },
        { field: "active", label: t("col_active"), render: (p) => yesNo(p.active) },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createProduct"),
          question: t("confirm_createProduct"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "description", label: t("field_description"), type: "textarea" },
            {
              name: "paymentType",
              label: t("col_type"),
              type: "select",
              required: true,
              options: PAYMENT_TYPES,
              initial: "one_time",
            },
            { name: "price", label: t("field_priceCents"), type: "number", required: true },
            { name: "currency", label: t("field_currency"), required: true, initial: "usd" },
            { name: "level", label: t("col_level") },
            { name: "stripePriceId", label: t("field_stripePriceId") },
          ],
          run: (v) =>
            products.createProduct({
              name: v.name ?? "",
              description: v.description ?? "",
              paymentType: v.paymentType ?? "",
              price: intOfInput(v.price) ?? 0,
              currency: v.currency?.trim().toLowerCase() ?? "",
              level: v.level?.trim() ?? "",
              stripePriceId: v.stripePriceId?.trim() ?? "",
            }),
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          question: (p) => t("confirm_edit", { name: p.name }),
          fields: (p) => [
            { name: "name", label: t("col_name"), required: true, initial: p.name },
            { name: "description", label: t("field_description"), type: "textarea", initial: p.description },
            { name: "price", label: t("field_priceCents"), type: "number", required: true, initial: String(p.price) },
            { name: "level", label: t("col_level"), initial: p.level },
            { name: "stripePriceId", label: t("field_stripePriceId"), initial: p.stripePriceId },
            { name: "active", label: t("col_active"), type: "checkbox", initial: String(p.active) },
          ],
          run: (p, v) => {
            const price = intOfInput(v.price);
            return products.updateProduct({
              id: p.id,
              name: v.name ?? "",
              description: v.description ?? "",
              level: v.level?.trim() ?? "",
              stripePriceId: v.stripePriceId?.trim() ?? "",
              active: v.active === "true",
              ...(price !== undefined ? { price } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (p) => t("confirm_delete", { name: p.name }),
          run: (p) => products.deleteProduct({ id: p.id }),
        },
      ],
      list: async (query) => {
        const { offset, limit } = offsetOf(query);
        const answer = await products.listProducts({ offset, limit });
        return offsetPage(answer.products, answer.total, limit);
      },
    }),
    [t, text, yesNo, products],
  );
  const userSubscriptions = useMemo<ResourceDescription<Subscription>>(
    () => ({
      key: "userSubscriptions",
      title: t("section_subscriptions"),
      rowKey: (s) => s.id,
      rowName: (s) => s.id,
      columns: [
        { field: "level", label: t("col_level"), render: (s) => s.level },
        { field: "status", label: t("col_status"), render: (s) => s.status },
        { field: "region", label: t("col_region"), render: (s) => text(s.region) },
        { field: "currentPeriodEnd", label: t("col_ends"), render: (s) => date(s.currentPeriodEnd) },
        { field: "createdAt", label: t("col_created"), render: (s) => date(s.createdAt) },
      ],
      // The payment service lists subscriptions per user: the user filter is required.
      filters: [{ id: "user", field: "userUuid", op: "$eq", label: t("col_user") }],
      list: async (query) => {
        const user = (query.filter ?? []).find((f) => f.startsWith("userUuid||"))?.split("||")[2];
        const { offset, limit } = offsetOf(query);
        if (!user) return { rows: [], total: 0, pageCount: 0 };
        const answer = await subscriptions.listUserSubscriptions({ id: user, offset, limit });
        return offsetPage(answer.subscriptions, answer.total, limit);
      },
    }),
    [t, date, text, subscriptions],
  );
  return (
    <>
      <ResourceList description={productList} />
      <h2 className="tt-admin-subtitle">{t("section_subscriptions")}</h2>
      <SubscriptionCount />
      <ResourceList description={userSubscriptions} />
    </>
  );
}
