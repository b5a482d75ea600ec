import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { createTestMerchService, TEST_USER_UUID } from "./testing/merch-service.ts";

function signedInKit(search = "") {
  const service = createTestMerchService();
  const kit = createTestKit({ routes: service.routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" });
  return { kit, service };
}

describe("shop remote", () => {
  it("asks guests to sign in", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "Shop" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("Sign in to shop");
  });

  it("shows the balance and the consumables, and loads the other screens lazily", async () => {
    const user = userEvent.setup();
    const { kit } = signedInKit();
    renderWithKit(<App />, kit);
    expect((await screen.findByTestId("token-balance")).textContent).toBe("100 tokens");
    expect(await screen.findByRole("button", { name: "Sticker 1: Buy for 10" })).toBeTruthy();
    await user.click(screen.getByRole("tab", { name: "Ranking" }));
    expect(await screen.findByRole("heading", { name: "Season Winter" })).toBeTruthy();
  });

  it("opens the tab a link asks for", async () => {
    const { kit } = signedInKit();
    window.history.replaceState(null, "", "/shop?tab=plans");
    try {
      renderWithKit(<App />, kit);
      expect((await screen.findByRole("tab", { name: "Tokens and plans" })).getAttribute("aria-selected")).toBe("true");
    } finally {
      window.history.replaceState(null, "", "/");
    }
  });

  it("speaks Spanish with ?lang=es", async () => {
    const { kit } = signedInKit("?lang=es");
    renderWithKit(<App />, kit);
    expect(await screen.findByRole("heading", { level: 1, name: "Tienda" })).toBeTruthy();
    expect((await screen.findByTestId("token-balance")).textContent).toBe("100 fichas");
    expect(screen.getByRole("tab", { name: "Clasificación" })).toBeTruthy();
  });
});
