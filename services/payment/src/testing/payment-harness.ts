// The payment service on createServiceHarness (real PostgreSQL and NATS), in development mode, with a Stripe
// webhook secret; optionally the merch service alongside (its ProductPurchased consumer credits token bundles).
import { generateKeyPairSync } from "node:crypto";
import type { Code } from "@connectrpc/connect";
import type { ServiceDefinition, ServiceDeps } from "@tt/kit";
import { createServiceHarness, refusalOf, type ServiceHarness } from "@tt/kit/testing";
import { paymentServiceDefinition } from "../index.ts";
import { freePort } from "@tt/kit";

export const WEBHOOK_SECRET = "whsec_test_secret";

export interface PaymentHarness extends ServiceHarness {
  user(role?: string): Promise<{ token: string; uuid: string }>;
}

export async function createPaymentHarness(
  env: Record<string, string> = {},
  alongside: ServiceDefinition[] = [],
  logger?: ServiceDeps["logger"],
): Promise<PaymentHarness> {
  const h = await createServiceHarness(paymentServiceDefinition, {
    env: {
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // Nothing listens there: a port the system gave out and took back.
      USER_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
      SERVICE_TOKEN_PRIVATE_KEY: generateKeyPairSync("ed25519")
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
      ...env,
    },
    alongside,
    ...(logger ? { logger } : {}),
  });
  return Object.assign(h, {
    async user(role = "user") {
      const token = await h.tokens.user(role as never);
      return { token, uuid: (await h.identityOf(token)).subject };
    },
  });
}

/** The code and message a call was refused with (fails when it was not refused). */
export async function refusal(call: Promise<unknown>): Promise<{ code: Code; message: string }> {
  const e = await refusalOf(call);
  return { code: e.code, message: e.rawMessage };
}
