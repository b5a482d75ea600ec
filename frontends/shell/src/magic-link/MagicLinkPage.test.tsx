import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { screen, waitFor } from "@testing-library/react";
import { ProductSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { createTestKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { renderShell } from "../testing/render-shell.tsx";
import { magicNavigation, targetOf } from "./MagicLinkPage.tsx";

const UUID = "00000000-0000-4000-8000-000000000009";
const go = magicNavigation.go;
afterEach(() => {
  magicNavigation.go = go;
});

function setup(path: string) {
  const visited: string[] = [];
  const checkouts: string[] = [];
  magicNavigation.go = (url) => visited.push(url);
  const routes = (router: ConnectRouter) => {
    router.service(AccountService, {
      validateMagicLink: (req) => {
        if (req.token !== "good") throw new ConnectError("Invalid or expired magic link", Code.Unauthenticated);
        return {
          user: { uuid: UUID, email: "m@example.com", role: "user" },
          accessToken: { token: "jwt", tokenType: "user", expiresAt: { seconds: BigInt(4_000_000_000) } },
        };
      },
    });
    router.service(SubscriptionService, {
      listSubscriptionProducts: () => ({
        products: [create(ProductSchema, { id: "00000000-0000-4000-8000-0000000000b1", level: "gold", name: "Gold" })],
      }),
      checkoutSubscription: (req) => {
        checkouts.push(req.id);
        return { session: { sessionId: "dev_cs_9", url: "/api/payment-service/dev-checkout/dev_cs_9" } };
      },
    });
  };
  const kit = createTestKit({ routes });
  renderShell({ path, kit });
  return { kit, visited, checkouts };
}

describe("magic links (002 §2)", () => {
  it("reads the target: a path of this site or a plan; never another origin", () => {
    expect(targetOf(encodeURIComponent("/shop?tab=plans"))).toEqual({ path: "/shop?tab=plans" });
    expect(targetOf("subscribe-plan/gold")).toEqual({ plan: "gold" });
    expect(targetOf(encodeURIComponent("//evil.example/x"))).toEqual({ path: "/" });
    expect(targetOf("")).toEqual({ path: "/" });
    expect(targetOf("%E0%A4%A")).toEqual({ path: "/" });
  });

  it("signs in and opens the path", async () => {
    const { kit } = setup(`/magic-link/good/${encodeURIComponent("/people")}`);
    await waitFor(() => expect(kit.session.getSnapshot().user?.uuid).toBe(UUID));
    await waitFor(() => expect(screen.queryByText("Signing you in…")).toBeNull());
  });

  it("signs in and opens the plan's checkout", async () => {
    const { visited, checkouts } = setup("/magic-link/good/subscribe-plan/gold");
    await waitFor(() => expect(visited).toEqual(["/api/payment-service/dev-checkout/dev_cs_9"]));
    expect(checkouts).toEqual(["00000000-0000-4000-8000-0000000000b1"]);
  });

  it("shows the server's refusal for a bad token", async () => {
    const { kit } = setup("/magic-link/bad/%2F");
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(kit.session.getSnapshot().user).toBeFalsy();
  });
});
