// Stripe behind a small interface: a real HTTP client in Stripe's API shapes (form-encoded POSTs with the
// secret key as bearer) and a development implementation whose checkout is the payment service's own pay page,
// so the embedded default works on one laptop with no credentials and no internet.
import { randomBytes } from "node:crypto";
import { isRecord, optionalString, requestJson, requireString } from "@tt/providers";

export interface CheckoutSessionInput {
  mode: "payment" | "subscription";
  /** Our checkout's id: Stripe's client_reference_id, back in checkout.session.completed. */
  clientReferenceId: string;
  priceId: string;
  quantity: number;
  productName: string;
  unitAmount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  customerId?: string;
  metadata: Record<string, string>;
}

export interface ProviderSubscription {
  id: string;
  status: string;
  customerId: string;
  currentPeriodEnd?: Date;
}

export interface PaymentProvider {
  readonly kind: "stripe" | "development";
  createCheckoutSession(input: CheckoutSessionInput, signal?: AbortSignal): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  getSubscription(id: string): Promise<ProviderSubscription>;
}

export interface StripeOptions {
  secretKey: string;
  baseUrl: string;
  timeoutMs: number;
}

/** Stripe's REST API: https://docs.stripe.com/api (checkout/sessions, billing_portal/sessions, subscriptions). */
export function stripeProvider(opts: StripeOptions): PaymentProvider {
  const headers = { authorization: `Bearer ${opts.secretKey}` };
  const url = (path: string) => new URL(path, opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`);
  return {
    kind: "stripe",
    async createCheckoutSession(input) {
      const form: Record<string, string | undefined> = {
        mode: input.mode,
        client_reference_id: input.clientReferenceId,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        "line_items[0][quantity]": String(input.quantity),
        customer: input.customerId,
      };
      if (input.priceId) {
        form["line_items[0][price]"] = input.priceId;
      } else {
        form["line_items[0][price_data][currency]"] = input.currency;
        form["line_items[0][price_data][unit_amount]"] = String(input.unitAmount);
        form["line_items[0][price_data][product_data][name]"] = input.productName;
      }
      for (const [k, v] of Object.entries(input.metadata)) form[`metadata[${k}]`] = v;
      const body = await requestJson({
        provider: "stripe",
        method: "POST",
        url: url("v1/checkout/sessions"),
        headers,
        form,
        timeoutMs: opts.timeoutMs,
      });
      return { id: requireString("stripe", body, "id"), url: requireString("stripe", body, "url") };
    },
    async createPortalSession(input) {
      const body = await requestJson({
        provider: "stripe",
        method: "POST",
        url: url("v1/billing_portal/sessions"),
        headers,
        form: { customer: input.customerId, return_url: input.returnUrl },
        timeoutMs: opts.timeoutMs,
      });
      return { url: requireString("stripe", body, "url") };
    },
    async getSubscription(id) {
      const body = await requestJson({
        provider: "stripe",
        method: "GET",
        url: url(`v1/subscriptions/${encodeURIComponent(id)}`),
        headers,
        timeoutMs: opts.timeoutMs,
      });
      const end = isRecord(body) && typeof body.current_period_end === "number" ? body.current_period_end : undefined;
      return {
        id: requireString("stripe", body, "id"),
        status: requireString("stripe", body, "status"),
        customerId: optionalString(body, "customer") ?? "",
        currentPeriodEnd: end === undefined ? undefined : new Date(end * 1000),
      };
    },
  };
}

/** The development provider: the checkout URL is the payment service's pay page behind the gateway. */
export function developmentProvider(publicUrl: string): PaymentProvider {
  const base = publicUrl.replace(/\/$/, "");
  return {
    kind: "development",
    async createCheckoutSession() {
      const id = `dev_cs_${randomBytes(16).toString("hex")}`;
      return { id, url: `${base}/api/payment-service/dev-checkout/${id}` };
    },
    async createPortalSession(input) {
      // No portal in development: back to the page the user came from.
      return { url: input.returnUrl };
    },
    async getSubscription(id) {
      return { id, status: "active", customerId: "" };
    },
  };
}
