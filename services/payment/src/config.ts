// The payment service's environment, read once in create (docs/new-service.md §5); documented in README.md.
import { z } from "zod";
import { envFlag, optionalEnvString, parseEnv, parseEnvParts, unsetIfEmpty } from "@tt/kit";

export const DEVELOPMENT_IN_PRODUCTION =
  "is development (the default): its checkout gives tokens away, which NODE_ENV=production refuses; set " +
  "PAYMENT_PROVIDER=stripe, or PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION=true for a deployment meant to give them away";

const paymentSchema = z
  .object({
    /**
     * "development" (the local pay page, the embedded default: whoever is signed in pays nothing) or "stripe".
     * Under NODE_ENV=production the development checkout is refused unless
     * PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION=true (issue 23 finding 1).
     */
    PAYMENT_PROVIDER: z.preprocess(unsetIfEmpty, z.enum(["development", "stripe"]).default("development")),
    /** "true": run the free development checkout even under NODE_ENV=production (a demo that gives tokens away). */
    PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION: envFlag(false),
    /**
     * "true": stock two demo token packs and a demo plan when there is no product yet (npm start turns it on; the
     * chart and the tests leave it off). Only with the development checkout: a Stripe deployment sells real prices.
     */
    PAYMENT_DEMO_PRODUCTS: envFlag(false),
    /** The process's mode; "production" in the image (Dockerfile) and the chart. */
    NODE_ENV: optionalEnvString,
    /** The site's public origin (https://turntable.example); empty: URLs relative to the site. */
    PAYMENT_PUBLIC_URL: z.preprocess(unsetIfEmpty, z.url().optional()),
    STRIPE_SECRET_KEY: optionalEnvString,
    STRIPE_API_URL: z.preprocess(unsetIfEmpty, z.url().default("https://api.stripe.com")),
    /** The webhook endpoint's signing secrets (whsec_…), comma-separated while one is rolled. */
    STRIPE_WEBHOOK_SECRET: optionalEnvString,
    STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Seconds a Stripe-Signature timestamp may be away from now. */
    STRIPE_WEBHOOK_TOLERANCE_S: z.coerce.number().int().min(1).max(3600).default(300),
    /** PEM of the Apple root CA the x5c chain of App Store notifications must end at (Apple Root CA - G3). */
    APPLE_ROOT_CA_PEM: optionalEnvString,
    /** The app's bundle id; notifications for another are refused. */
    APPLE_BUNDLE_ID: optionalEnvString,
  })
  .superRefine((v, ctx) => {
    if (
      v.PAYMENT_PROVIDER === "development" &&
      v.NODE_ENV === "production" &&
      !v.PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION
    ) {
      ctx.addIssue({ code: "custom", path: ["PAYMENT_PROVIDER"], message: DEVELOPMENT_IN_PRODUCTION });
    }
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
