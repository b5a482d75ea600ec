import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "./testing/crate-service.ts";
import { clearToasts, toasts } from "./testing/ui.ts";

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
    clearToasts();
    window.history.replaceState(null, "", "/crates");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("asks a guest to log in to keep crates", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { name: "Sign in to keep crates" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Your crates", level: 1 })).toBeTruthy();
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
    // The crate screen's chunk is imported on first use, dnd-kit and all: give a loaded machine time.
    expect(await screen.findByRole("heading", { name: "Road trip" }, { timeout: 10_000 })).toBeTruthy();
    expect(window.location.pathname).toMatch(/^\/crates\/[0-9a-f-]{36}$/);
    const tabs = screen.getByRole("navigation", { name: "Crates" });
    expect(within(tabs).getByRole("link", { name: "Crates" }).getAttribute("aria-current")).toBe("page");
    // The built-in crates are named in words, never "default" or "tt-stars".
    expect(
      within(tabs)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Crates", "Queue", "Likes", "Search", "Uploads"]);
    // The shell's router hears the navigation: back returns to the list.
    window.history.back();
    expect(await screen.findByRole("list", { name: "Your crates" })).toBeTruthy();
  });

  it("creates a crate without a name and opens it", async () => {
    const user = userEvent.setup();
    renderWithKit(<App />, signedInKit(service));
    await user.click(await screen.findByRole("button", { name: "New crate" }));
    const dialog = await screen.findByRole("dialog", { name: "New crate" });
    // The form arrives with the dialog (its chunk is fetched on first open).
    expect(await within(dialog).findByText("Leave it empty for “New Playlist #…”.")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Create crate" }));
    expect(await screen.findByRole("heading", { name: "New Playlist #1" }, { timeout: 10_000 })).toBeTruthy();
    expect(service.calls).toContain("CreateCrate");
    expect(toasts()).toContain("success: “New Playlist #1” created.");
  });

  it("imports a playlist by link and shows its progress, refusing unknown links", async () => {
    const user = userEvent.setup();
    renderWithKit(<App />, signedInKit(service));
    await user.click(await screen.findByRole("button", { name: "Import a playlist" }));
    const dialog = await screen.findByRole("dialog", { name: "Import a playlist" });
    const link = await within(dialog).findByLabelText("Playlist link");
    await user.type(link, "https://example.com/playlist/1");
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "Sorry, this song does not have any supported music providers to import from",
    );
    expect(service.calls).not.toContain("CreateCrate");
    await user.clear(link);
    await user.type(link, "https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M");
    // The provider the link belongs to, in words.
    expect(within(dialog).getByText("Spotify playlist")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await screen.findByRole("progressbar", { name: "Import progress" })).toBeTruthy();
    expect(screen.getByText(/Importing… 0 songs/)).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts()).toContain("info: Importing your Spotify playlist…");
  });

  it("speaks Spanish", async () => {
    renderWithKit(<App />, signedInKit(service, "?lang=es"));
    expect(await screen.findByRole("heading", { name: "Tus cajas" })).toBeTruthy();
    await waitFor(() =>
      expect(within(screen.getByRole("list", { name: "Tus cajas" })).getAllByRole("link")).toHaveLength(2),
    );
    const names = within(screen.getByRole("list", { name: "Tus cajas" }))
      .getAllByRole("link")
      .map((link) => link.querySelector("strong")?.textContent);
    expect(names).toEqual(["Cola", "Me gusta"]);
  });
});
