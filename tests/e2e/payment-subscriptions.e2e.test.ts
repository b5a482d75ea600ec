// Subscriptions through the gateway (issue 16): a plan checked out on the development pay page becomes the
// caller's plan; the user service keeps its level on the user (SubscriptionChanged); the access matrix.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

const p = (path: string) => `/api/payment-service${path}`;

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

describe("payment subscriptions through the gateway", () => {
  it("subscribes on the development page; the level shows in the payment and the user service", async () => {
    const plan = await platform.call("POST", p("/api/v1/products"), {
      token: admin,
      body: { name: "Platinum", paymentType: "recurring", level: "platinum", price: 999 },
    });
    expect(plan.status).toBe(200);
    const planId = (plan.body as { id: string }).id;
    const plans = await platform.call("GET", p("/subscription/products"));
    expect((plans.body as { products: Array<{ id: string }> }).products.map((x) => x.id)).toContain(planId);

    const { user, token } = await platform.signUp();
    const checkout = await platform.call("POST", p(`/subscription/checkout/${planId}`), {
      token,
      body: { region: "e2e-region" },
    });
    expect(checkout.status).toBe(200);
    const { sessionId } = checkout.body as { sessionId: string };
    const done = await platform.call("POST", p(`/dev-checkout/${sessionId}/complete`), { token, body: {} });
    expect(done.status).toBe(200);

    const mine = await platform.call("GET", p("/subscription"), { token });
    expect(mine.body).toMatchObject({ level: "platinum", subscriptions: [{ status: "active", region: "e2e-region" }] });
    const again = await platform.call("POST", p(`/subscription/checkout/${planId}`), { token, body: {} });
    expect(again.status).toBe(409);

    // Someone else may not read them; an admin may.
    const other = await platform.signUp();
    expect((await platform.call("GET", p(`/subscription/user/${user.uuid}`), { token: other.token })).status).toBe(401);
    expect((await platform.call("GET", p(`/subscription/user/${user.uuid}`), { token: admin })).body).toMatchObject({
      level: "platinum",
    });
    const count = await platform.call("GET", p("/subscription/count?region=e2e-region&level=platinum"), {
      token: admin,
    });
    expect(count.body).toEqual({ count: 1 });
    const portal = await platform.call("POST", p("/subscription/portal"), { token, body: { returnPath: "/shop" } });
    expect(portal.body).toEqual({ url: "/shop" });

    // The user service keeps the level on the user (one place every service and client reads it).
    const level = async () =>
      (
        (await platform.call("GET", "/api/user-service/users/profile", { token })).body as {
          subscriptionLevel?: string;
        }
      ).subscriptionLevel ?? "";
    expect(await eventually("the subscription level", level, (l) => l === "platinum")).toBe("platinum");
  });
});
