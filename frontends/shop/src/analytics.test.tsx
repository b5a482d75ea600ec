// The shop remote's analytics (spec 002 §7): shop actions (tabs, avatar choice, token account, portal) and
// purchase actions (consumables, and the checkout of a product or plan), each sent once the server has done it,
// through the kit's analytics client pointed at a recording sink.
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { TokenAccountSchema } from "@tt/proto/tt/merch/v1/merch_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { createTestKit, recordAnalytics, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { AvatarsScreen } from "./screens/AvatarsScreen.tsx";
import { Balance } from "./screens/Balance.tsx";
import { ShopScreen } from "./screens/ShopScreen.tsx";
import { navigation } from "./subscriptions/payment-api.ts";
import { PlansScreen } from "./subscriptions/PlansScreen.tsx";
import { createTestMerchService, TEST_USER_UUID } from "./testing/merch-service.ts";

function signedIn(routes: (router: ConnectRouter) => void) {
  const kit = createTestKit({ routes });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" });
  return { kit, sink: recordAnalytics(kit) };
}

/** Opens a product's confirmation dialog and confirms. */
async function confirm(product: string, action: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: product }));
  await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: action }));
}

const go = navigation.go;
afterEach(() => {
  navigation.go = go;
});

describe("shop remote analytics", () => {
  it("sends opening another tab as a shop action", async () => {
    const { kit, sink } = signedIn(createTestMerchService().routes);
    renderWithKit(<App />, kit);
    await screen.findByTestId("token-balance");
    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "Ranking" }));
    await user.click(screen.getByRole("tab", { name: "Ranking" }));
    expect(sink.of("shop-action")).toEqual([{ action: "open-tab", tab: "ranking" }]);
  });

  it("sends a consumable bought as a purchase action, and nothing for a refused one", async () => {
    const service = createTestMerchService({ balance: 25 });
    const { kit, sink } = signedIn(service.routes);
    renderWithKit(<ShopScreen />, kit);
    await confirm("Sticker 2: Buy for 20", "Buy for 20 tokens");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(sink.of("purchase-action")).toEqual([
      { item: "consumable", consumableId: service.consumables[1]?.id, tokenCost: 20, roomUuid: "" },
    ]);
    await confirm("Sticker 2: Buy for 20", "Buy for 20 tokens");
    await within(screen.getByRole("alertdialog")).findByRole("alert");
    expect(sink.of("purchase-action")).toHaveLength(1);
    expect(sink.events.every((e) => e.deviceData.isLoggedIn)).toBe(true);
  });

  it("sends choosing an avatar as a shop action", async () => {
    const { kit, sink } = signedIn(createTestMerchService().routes);
    renderWithKit(<AvatarsScreen />, kit);
    fireEvent.click(await screen.findByRole("button", { name: "Cat: Use" }));
    await screen.findByText("Current avatar: Cat");
    expect(sink.of("shop-action")).toEqual([{ action: "choose-avatar", slug: "cat" }]);
  });

  it("sends opening a token account as a shop action", async () => {
    const { kit, sink } = signedIn(createTestMerchService({ balance: null }).routes);
    renderWithKit(<Balance />, kit);
    fireEvent.click(await screen.findByRole("button", { name: "Open a token account" }));
    await screen.findByTestId("token-balance");
    expect(sink.of("shop-action")).toEqual([{ action: "open-token-account" }]);
  });

  it("sends the checkout of a token pack and of a plan as purchase actions before the page goes to pay", async () => {
    const visited: string[] = [];
    navigation.go = (url) => void visited.push(url);
    const pack = create(ProductSchema, { id: "p1", name: "100 tokens", paymentType: "one_time", price: 499 });
    const gold = create(ProductSchema, { id: "p2", name: "Gold", paymentType: "recurring", level: "gold", price: 900 });
    for (const p of [pack, gold]) Object.assign(p, { currency: "usd", active: true });
    const { kit, sink } = signedIn((router) => {
      router.service(ProductService, {
        listProducts: () => ({ products: [pack, gold], total: 2 }),
        checkoutProduct: () => ({ session: { sessionId: "s1", url: "/pay/s1" } }),
      });
      router.service(SubscriptionService, {
        listSubscriptionProducts: () => ({ products: [gold] }),
        listMySubscriptions: () => ({ level: "", total: 0, subscriptions: [] }),
        checkoutSubscription: () => ({ session: { sessionId: "s2", url: "/pay/s2" } }),
      });
      const account = () => ({ account: create(TokenAccountSchema, { id: "a", userUuid: TEST_USER_UUID }) });
      router.service(TokenService, { createTokenAccount: account, getSelfTokenAccount: account });
    });
    renderWithKit(<PlansScreen />, kit);
    await confirm("Buy 100 tokens for $4.99", "Go to payment");
    await waitFor(() => expect(visited).toEqual(["/pay/s1"]));
    await confirm("Subscribe to Gold for $9.00", "Go to payment");
    await waitFor(() => expect(visited).toEqual(["/pay/s1", "/pay/s2"]));
    expect(sink.of("purchase-action")).toEqual([
      { item: "product", productId: "p1", step: "checkout" },
      { item: "subscription", productId: "p2", step: "checkout" },
    ]);
  });
});
