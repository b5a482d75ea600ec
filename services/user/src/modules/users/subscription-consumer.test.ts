// Issue 16: the payment service's SubscriptionChanged sets subscriptionLevel on the user (User and Profile
// answers), once per event; the payment service runs alongside on the real NATS.
import { randomUUID } from "node:crypto";
import { paymentServiceDefinition } from "@tt/payment-service";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userServiceDefinition } from "../../index.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(userServiceDefinition, { alongside: [paymentServiceDefinition], network: false });
}, 60_000);
afterAll(() => h?.close());

async function level(uuid: string): Promise<string> {
  const { user } = await h
    .client(ProfileService, { token: await h.tokens.service("merch") })
    .getServiceUserProfile({ id: uuid });
  return user!.subscriptionLevel;
}

describe("subscriptionLevel", () => {
  it("follows the payment service's SubscriptionChanged events", async () => {
    const res = await h
      .client(AuthService)
      .signUp({ email: `${randomUUID()}@example.test`, password: "correct-horse-1" });
    const uuid = res.user!.uuid;
    const token = res.accessToken!.token;
    expect(await level(uuid)).toBe("");
    const admin = await h.tokens.user("admin");
    const { product } = await h
      .client(ProductService, { token: admin })
      .createProduct({ name: "Gold", paymentType: "recurring", level: "gold" });
    const { session } = await h.client(SubscriptionService, { token }).checkoutSubscription({ id: product!.id });
    await h.client(ProductService, { token }).completeDevCheckout({ session: session!.sessionId });
    expect(
      await eventually(
        "the subscription level",
        () => level(uuid),
        (l) => l === "gold",
      ),
    ).toBe("gold");
  });
});
