import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "./testing/crate-service.ts";

function signedInKit(service: TestCrateService, search = "") {
  const kit = createTestKit({ routes: service.routes, search });
  kit.session.signIn(
    { token: "t", tokenType: "user" },
    { uuid: TEST_USER_UUID, email: "ada@example.com", role: "user" },
  );
  return kit;
}

describe("crates remote", () => {
  let service: TestCrateService;
  beforeEach(() => {
    service = createTestCrateService();
    window.history.replaceState(null, "", "/crates");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("asks a guest to log in to keep crates", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { name: "Sign in to keep crates" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login");
  });

  it("lists the queue and likes first, then the user's crates, and opens one", async () => {
    service.addCrate("Road trip", ["One", "Two"]);
    renderWithKit(<App />, signedInKit(service));
    const list = await screen.findByRole("list", { name: "Your crates" });
    const names = within(list)
      .getAllByRole("link")
      .map((link) => link.querySelector("strong")?.textContent);
    expect(names).toEqual(["Queue", "Likes", "Road trip"]);
    expect(within(list).getByRole("link", { name: /Queue/ }).getAttribute("href")).toBe("/crates/queue");
    fireEvent.click(within(list).getByRole("link", { name: /Road trip/ }));
    expect(await screen.findByRole("heading", { name: "Road trip" })).toBeTruthy();
    expect(window.location.pathname).toMatch(/^\/crates\/[0-9a-f-]{36}$/);
    const tabs = screen.getByRole("navigation", { name: "Crates" });
    expect(within(tabs).getByRole("link", { name: "Crates" }).getAttribute("aria-current")).toBe("page");
    // The shell's router hears the navigation: back returns to the list.
    window.history.back();
    expect(await screen.findByRole("list", { name: "Your crates" })).toBeTruthy();
  });

  it("creates a crate without a name and opens it", async () => {
    renderWithKit(<App />, signedInKit(service));
    fireEvent.click(await screen.findByRole("button", { name: "Create crate" }));
    expect(await screen.findByRole("heading", { name: "New Playlist #1" })).toBeTruthy();
    expect(service.calls).toContain("CreateCrate");
  });

  it("imports a playlist by link and shows its progress, refusing unknown links", async () => {
    renderWithKit(<App />, signedInKit(service));
    const link = await screen.findByLabelText("Playlist link");
    fireEvent.change(link, { target: { value: "https://example.com/playlist/1" } });
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Sorry, this song does not have any supported music providers to import from",
    );
    fireEvent.change(link, { target: { value: "https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M" } });
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    expect(await screen.findByRole("progressbar", { name: "Import progress" })).toBeTruthy();
    expect(screen.getByText(/Importing… 0 songs/)).toBeTruthy();
  });

  it("speaks Spanish", async () => {
    renderWithKit(<App />, signedInKit(service, "?lang=es"));
    expect(await screen.findByRole("heading", { name: "Tus cajas" })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("link", { name: /Cola/ })).toBeTruthy());
  });
});
