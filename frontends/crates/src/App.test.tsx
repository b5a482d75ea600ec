import { screen } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { App } from "./App.tsx";

describe("crates remote", () => {
  it("asks a guest to log in to keep crates", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { name: "Sign in to keep crates" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login");
  });

  it("shows a signed-in user an honest empty state until the playlist service exists", async () => {
    const kit = createTestKit();
    kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u1", email: "ada@example.com", role: "user" });
    renderWithKit(<App />, kit);
    expect(await screen.findByRole("heading", { name: "No crates yet" })).toBeTruthy();
  });
});
