import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { ProductSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { TokenAccountSchema } from "@tt/proto/tt/merch/v1/merch_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Balance } from "../screens/Balance.tsx";
import { navigation } from "./payment-api.ts";
import { PlansScreen } from "./PlansScreen.tsx";

const UUID = "00000000-0000-4000-8000-000000000001";
const pack = create(ProductSchema, {
  id: "p1",
  name: "100 tokens",
  paymentType: "one_time",
  price: 499,
  currency: "usd",
  active: true,
});
const gold = create(ProductSchema, {
  id: "p2",
  name: "Gold",
  paymentType: "recurring",
  level: "gold",
  price: 900,
  currency: "usd",
  active: true,
});
const go = navigation.go;
afterEach(() => {
  navigation.go = go;
});

function setup(level = "") {
  const visited: string[] = [];
  const checkouts: string[] = [];
  navigation.go = (url) => visited.push(url);
  const routes = (router: ConnectRouter) => {
    router.service(ProductService, {
      listProducts: () => ({ products: [pack, gold], total: 2 }),
      checkoutProduct: (req) => {
        checkouts.push(`${req.id}:${req.successPath}`);
        return { session: { sessionId: "dev_cs_1", url: "/api/payment-service/dev-checkout/dev_cs_1" } };
      },
    });
    router.service(SubscriptionService, {
      listSubscriptionProducts: () => ({ products: [gold] }),
      listMySubscriptions: () => ({
        level,
        total: level ? 1 : 0,
        subscriptions: level ? [create(SubscriptionSchema, { level, status: "active" })] : [],
      }),
      checkoutSubscription: (req) => {
        checkouts.push(`plan:${req.id}`);
        return { session: { sessionId: "dev_cs_2", url: "/api/payment-service/dev-checkout/dev_cs_2" } };
      },
      createPortalSession: () => ({ url: "/shop" }),
    });
    const account = () => ({
      account: create(TokenAccountSchema, { id: "a", userUuid: UUID, balance: 30, status: "active" }),
    });
    // The shop opens the account on first need (create answers the existing one), then reads it.
    router.service(TokenService, { createTokenAccount: account, getSelfTokenAccount: account });
  };
  const kit = createTestKit({ routes });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: UUID, email: "a@example.com", role: "user" });
  renderWithKit(
    <>
      <Balance />
      <PlansScreen />
    </>,
    kit,
  );
  return { visited, checkouts };
}

/** Buys through the confirmation dialog, which says the payment is on the next page. */
async function checkout(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name }));
  const dialog = await screen.findByRole("alertdialog");
  await user.click(within(dialog).getByRole("button", { name: "Go to payment" }));
}

describe("PlansScreen", () => {
  it("buys a token pack: the checkout comes back to the shop and the browser goes to the pay page", async () => {
    const { visited, checkouts } = setup();
    expect((await screen.findByTestId("token-balance")).textContent).toBe("30 tokens");
    await checkout("Buy 100 tokens for $4.99");
    await waitFor(() => expect(visited).toEqual(["/api/payment-service/dev-checkout/dev_cs_1"]));
    expect(checkouts).toEqual(["p1:/shop"]);
    expect(screen.queryByRole("button", { name: /Buy Gold/ })).toBeNull();
  });

  it("subscribes to a plan when there is none; shows the current plan and the portal when there is", async () => {
    const first = setup();
    expect((await screen.findByTestId("current-plan")).textContent).toBe("You have no subscription.");
    await checkout("Subscribe to Gold for $9.00");
    await waitFor(() => expect(first.checkouts).toEqual(["plan:p2"]));
  });

  it("shows the current plan and opens the portal", async () => {
    const { visited } = setup("gold");
    expect((await screen.findByTestId("current-plan")).textContent).toBe("Your plan: Gold");
    expect((await screen.findByRole("button", { name: "Subscribe to Gold for $9.00" })).hasAttribute("disabled")).toBe(
      true,
    );
    fireEvent.click(screen.getByRole("button", { name: "Manage subscription" }));
    await waitFor(() => expect(visited).toEqual(["/shop"]));
  });
});
