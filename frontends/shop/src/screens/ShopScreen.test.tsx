import { act, screen, waitFor, fireEvent, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import axe from "axe-core";
import { describe, expect, it } from "vitest";
import { createTestMerchService, TEST_USER_UUID } from "../testing/merch-service.ts";
import { Balance } from "./Balance.tsx";
import { ShopScreen } from "./ShopScreen.tsx";

function setup(opts: Parameters<typeof createTestMerchService>[0] = {}, search = "") {
  const service = createTestMerchService(opts);
  const kit = createTestKit({ routes: service.routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" });
  renderWithKit(
    <>
      <Balance />
      <ShopScreen />
    </>,
    kit,
  );
  return service;
}

/** Buys through the confirmation dialog: the product's button asks, the dialog's button buys. */
async function buy(name: string, cost: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name }));
  const dialog = await screen.findByRole("alertdialog");
  await user.click(within(dialog).getByRole("button", { name: `Buy for ${cost}` }));
  return dialog;
}

describe("ShopScreen", () => {
  it("names the balance while it loads without an ARIA attribute a span may not carry", async () => {
    setup({ balance: 100 });
    const loading = document.querySelector<HTMLElement>('.tt-shop-balance[aria-busy="true"]');
    expect(loading?.textContent).toBe("Your balance");
    const { violations } = await axe.run(loading!, { runOnly: ["aria-prohibited-attr", "aria-allowed-attr"] });
    expect(violations.map((v) => v.id)).toEqual([]);
    await screen.findByTestId("token-balance");
  });

  it("buys optimistically: the balance drops at once, the answer confirms it, one Idempotency-Key per purchase", async () => {
    const service = setup({ balance: 100 });
    let release!: () => void;
    service.holdPurchase = new Promise((r) => (release = r));
    await screen.findByTestId("token-balance");
    const dialog = await buy("Sticker 2: Buy for 20", "20 tokens");
    // The dialog says what remains before the purchase is made.
    expect(dialog.textContent).toContain("It costs 20 tokens; 80 tokens remain after it.");
    await waitFor(() => expect(screen.getByTestId("token-balance").textContent).toBe("80 tokens"));
    expect(service.account!.balance).toBe(100);
    await act(async () => release());
    // The outcome is told as a toast, and the dialog closes.
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(service.account!.balance).toBe(80);
    expect(service.keys).toHaveLength(1);
    expect(service.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("puts the balance back and shows the server's refusal", async () => {
    const service = setup({ balance: 15 });
    await screen.findByTestId("token-balance");
    const dialog = await buy("Sticker 2: Buy for 20", "20 tokens");
    // The server's message inside the dialog, which stays open.
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Not enough tokens");
    expect(screen.getByRole("alertdialog")).toBe(dialog);
    expect(screen.getByTestId("token-balance").textContent).toBe("15 tokens");
    expect(service.account!.balance).toBe(15);
  });

  it("shows the §8 text when the token account is missing, in English and in Spanish", async () => {
    const service = setup({ balance: 50 });
    await screen.findByTestId("token-balance");
    service.account = null;
    const dialog = await buy("Sticker 1: Buy for 10", "10 tokens");
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "We were unable to find your token account. Please try again.",
    );
  });

  it("speaks Spanish for the §8 text", async () => {
    const service = setup({ balance: 50 }, "?lang=es");
    await screen.findByTestId("token-balance");
    service.account = null;
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Sticker 1: Comprar por 10" }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Comprar por 10 fichas" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "No hemos podido encontrar tu cuenta de fichas. Inténtalo de nuevo.",
    );
  });

  it("lists 32 consumables a page and fetches the next on demand", async () => {
    const service = setup({ consumables: 40 });
    expect(await screen.findByRole("button", { name: "Sticker 32: Buy for 320" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Sticker 33: Buy for 330" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show more" }));
    expect(await screen.findByRole("button", { name: "Sticker 40: Buy for 400" })).toBeTruthy();
    expect(service.calls.filter((c) => c.startsWith("ListConsumables"))).toEqual([
      "ListConsumables:0:32",
      "ListConsumables:32:32",
    ]);
  });

  it("lists 32 token bundles a page and fetches the next on demand", async () => {
    const service = setup({ bundles: 33 });
    const list = await screen.findByRole("list", { name: "Token bundles" });
    await waitFor(() => expect(list.querySelectorAll("li")).toHaveLength(32));
    const more = screen.getAllByRole("button", { name: "Show more" });
    fireEvent.click(more[more.length - 1]!);
    expect(await screen.findByText("Bundle 33")).toBeTruthy();
    expect(service.calls.filter((c) => c.startsWith("ListTokenBundles"))).toEqual([
      "ListTokenBundles:0:32",
      "ListTokenBundles:32:32",
    ]);
  });

  it("offers to open a token account when there is none, and refetches the balance on window focus", async () => {
    const service = setup({ balance: null });
    fireEvent.click(await screen.findByRole("button", { name: "Open a token account" }));
    expect((await screen.findByTestId("token-balance")).textContent).toBe("0 tokens");
    service.account = { ...service.account!, balance: 7 };
    const before = service.calls.filter((c) => c === "GetSelfTokenAccount").length;
    await act(async () => {
      window.dispatchEvent(new Event("visibilitychange"));
      window.dispatchEvent(new FocusEvent("focus"));
    });
    await waitFor(() => expect(screen.getByTestId("token-balance").textContent).toBe("7 tokens"));
    expect(service.calls.filter((c) => c === "GetSelfTokenAccount").length).toBeGreaterThan(before);
  });
});
