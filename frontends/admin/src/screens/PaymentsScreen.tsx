import { useQuery } from "@tanstack/react-query";
import { PaymentTypeSchema, type Product, type Subscription } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { Badge, Button, ErrorMessage, Field, Input, Spinner, type BadgeTone } from "@tt/web-kit/ui";
import { PackagePlus, Pencil, Trash } from "lucide-react";
import { useId, useMemo, useState, type FormEvent } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { NOBODY } from "../list/query.ts";
import { wireNamesOf } from "../list/wire.ts";
import { UserRef } from "./refs.tsx";
import { intOfInput, isoOf, offsetOf, offsetPage, useAdminFormat, useOptions } from "./format.ts";

const PAYMENT_TYPES = wireNamesOf(PaymentTypeSchema);
const SUBSCRIPTION_TONE: Record<string, BadgeTone> = {
  active: "success",
  past_due: "warning",
  canceled: "neutral",
  incomplete: "warning",
};

/** A price in the reader's format ("$4.99", "4,99 €"); the bare amount and code when the currency is unknown. */
function priceOf(product: Product, language: string): string {
  const amount = product.price / 100;
  try {
    return new Intl.NumberFormat(language, { style: "currency", currency: product.currency.toUpperCase() }).format(
      amount,
    );
  } catch {
    return `${amount.toFixed(2)} ${product.currency.toUpperCase()}`;
  }
}

/** Subscriptions counted by period, region and level (the payment service's count call). */
function SubscriptionCount() {
  const subscriptions = useClient(SubscriptionService);
  const toText = useErrorText();
  const { t, number } = useAdminFormat();
  const formId = useId();
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
    <Field label={label} className="tt-admin-filters__field">
      <Input
        id={`${formId}-${name}`}
        type={type}
        value={draft[name]}
        onChange={(event) => setDraft((d) => ({ ...d, [name]: event.target.value }))}
      />
    </Field>
  );
  return (
    <section className="tt-admin-count" aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="tt-admin-count__title">
        {t("section_subscriptionCount")}
      </h3>
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
        <div className="tt-admin-filters__buttons">
          <Button type="submit" variant="secondary">
            {t("applyFilters")}
          </Button>
        </div>
      </form>
      <output className="tt-admin-count__value" aria-live="polite">
        {count.isError ? (
          <ErrorMessage>{toText(count.error)}</ErrorMessage>
        ) : count.data ? (
          t("subscriptionCount", { count: number(count.data.count) })
        ) : (
          <Spinner />
        )}
      </output>
    </section>
  );
}

/** Products (with deletion), subscription counts, and one user's subscriptions. */
export default function PaymentsScreen() {
  const products = useClient(ProductService);
  const subscriptions = useClient(SubscriptionService);
  const { t, date, text, name, language } = useAdminFormat();
  const paymentTypeOptions = useOptions("paymentType", PAYMENT_TYPES);
  const productList = useMemo<ResourceDescription<Product>>(
    () => ({
      key: "products",
      title: t("section_products"),
      rowKey: (p) => p.id,
      rowName: (p) => p.name,
      emptyBody: t("emptyBody_products"),
      columns: [
        { field: "name", label: t("col_name"), fixed: true, render: (p) => p.name },
        { field: "paymentType", label: t("col_type"), render: (p) => name("paymentType", p.paymentType) },
        { field: "price", label: t("col_price"), align: "end", render: (p) => priceOf(p, language) },
        { field: "level", label: t("col_level"), render: (p) => text(p.level) },
        {
          field: "active",
          label: t("col_active"),
          render: (p) => <Badge tone={p.active ? "success" : "neutral"}>{p.active ? t("yes") : t("no")}</Badge>,
        },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createProduct"),
          icon: <PackagePlus />,
          confirmLabel: t("action_createProductConfirm"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "description", label: t("field_description"), type: "textarea" },
            {
              name: "paymentType",
              label: t("col_type"),
              type: "select",
              required: true,
              options: paymentTypeOptions,
              initial: "one_time",
            },
            { name: "price", label: t("field_price"), type: "money", required: true, hint: t("field_priceHint") },
            {
              name: "currency",
              label: t("field_currency"),
              required: true,
              initial: "usd",
              pattern: { test: /^[A-Za-z]{3}$/, message: t("currencyCode") },
            },
            { name: "level", label: t("field_level"), hint: t("field_levelHint") },
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
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (p) => t("title_edit", { name: p.name }),
          fields: (p) => [
            { name: "name", label: t("col_name"), required: true, initial: p.name },
            { name: "description", label: t("field_description"), type: "textarea", initial: p.description },
            {
              name: "price",
              label: t("field_price"),
              type: "money",
              required: true,
              hint: t("field_priceHint"),
              initial: String(p.price),
            },
            { name: "level", label: t("field_level"), hint: t("field_levelHint"), initial: p.level },
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
          icon: <Trash />,
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
    [t, text, name, language, products, paymentTypeOptions],
  );
  const userSubscriptions = useMemo<ResourceDescription<Subscription>>(
    () => ({
      key: "userSubscriptions",
      title: t("section_subscriptions"),
      rowKey: (s) => s.id,
      rowName: (s) => s.level || s.id,
      emptyBody: t("emptyBody_subscriptions"),
      columns: [
        { field: "userUuid", label: t("col_user"), fixed: true, render: (s) => <UserRef uuid={s.userUuid} /> },
        { field: "level", label: t("col_level"), render: (s) => text(s.level) },
        {
          field: "status",
          label: t("col_status"),
          render: (s) => <Badge tone={SUBSCRIPTION_TONE[s.status] ?? "neutral"}>{name("status", s.status)}</Badge>,
        },
        { field: "region", label: t("col_region"), render: (s) => text(s.region) },
        { field: "currentPeriodEnd", label: t("col_ends"), render: (s) => date(s.currentPeriodEnd) },
        { field: "createdAt", label: t("col_created"), render: (s) => date(s.createdAt) },
      ],
      // The payment service lists subscriptions per user: the user filter (a nickname, an e-mail or part of one)
      // is required, and the first user it finds is shown.
      filters: [{ id: "user", field: "userUuid", op: "$eq", label: t("col_user"), type: "user" }],
      list: async (query) => {
        const found = (query.filter ?? []).find((f) => f.startsWith("userUuid||"))?.split("||")[2] ?? "";
        const user = found.split(",").find((uuid) => uuid !== NOBODY);
        const { offset, limit } = offsetOf(query);
        if (!user) return { rows: [], total: 0, pageCount: 0 };
        const answer = await subscriptions.listUserSubscriptions({ id: user, offset, limit });
        return offsetPage(answer.subscriptions, answer.total, limit);
      },
    }),
    [t, date, text, name, subscriptions],
  );
  return (
    <div className="tt-admin-sections">
      <ResourceList description={productList} heading={t("section_products")} />
      <div className="tt-admin-list">
        <div className="tt-admin-list__head">
          <h2 className="tt-admin-list__title">{t("section_subscriptions")}</h2>
        </div>
        <SubscriptionCount />
        <ResourceList description={userSubscriptions} />
      </div>
    </div>
  );
}
