// The payment service's environment, read once in create (docs/new-service.md §5); documented in README.md.
import { z } from "zod";
import { parseEnv, parseEnvParts } from "@tt/kit";

const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const optionalString = z.preprocess(unsetIfEmpty, z.string().optional());

const paymentSchema = z
  .object({
    /** "development" (the local pay page, the embedded default) or "stripe". */
    PAYMENT_PROVIDER: z.preprocess(unsetIfEmpty, z.enum(["development", "stripe"]).default("development")),
    /** The site's public origin (https://turntable.example); empty: URLs relative to the site. */
    PAYMENT_PUBLIC_URL: z.preprocess(unsetIfEmpty, z.url().optional()),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_API_URL: z.preprocess(unsetIfEmpty, z.url().default("https://api.stripe.com")),
    /** The webhook endpoint's signing secrets (whsec_…), comma-separated while one is rolled. */
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Seconds a Stripe-Signature timestamp may be away from now. */
    STRIPE_WEBHOOK_TOLERANCE_S: z.coerce.number().int().min(1).max(3600).default(300),
    /** PEM of the Apple root CA the x5c chain of App Store notifications must end at (Apple Root CA - G3). */
    APPLE_ROOT_CA_PEM: optionalString,
    /** The app's bundle id; notifications for another are refused. */
    APPLE_BUNDLE_ID: optionalString,
  })
  .superRefine((v, ctx) => {
    if (v.PAYMENT_PROVIDER !== "stripe") return;
    for (const key of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "PAYMENT_PUBLIC_URL"] as const) {
      if (!v[key]) ctx.addIssue({ code: "custom", path: [key], message: "required when PAYMENT_PROVIDER=stripe" });
    }
  });

export type PaymentConfig = z.output<typeof paymentSchema>;

export function loadPaymentConfig(env: Record<string, string | undefined>): PaymentConfig {
  return parseEnv(paymentSchema, env);
}

export function loadPaymentServiceConfig(env: Record<string, string | undefined>) {
  return parseEnvParts({ payment: loadPaymentConfig }, env);
}
