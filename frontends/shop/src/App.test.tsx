import { screen } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { App } from "./App.tsx";

describe("shop remote", () => {
  it("says the shop is not open yet instead of showing made-up products", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "Shop" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("The shop is not open yet");
  });

  it("speaks Spanish with ?lang=es", async () => {
    renderWithKit(<App />, createTestKit({ search: "?lang=es" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Tienda" })).toBeTruthy();
  });
});
