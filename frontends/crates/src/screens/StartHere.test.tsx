import { act, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, recordAnalytics, renderWithKit } from "@tt/web-kit/testing";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { START_HERE_KEY } from "../api/search.ts";
import { createTestCatalogue, demoCatalogueSong, type TestCatalogue } from "../testing/catalogue-service.ts";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { clearToasts, toasts } from "../testing/ui.ts";
import { CratesScreen } from "./CratesScreen.tsx";
import { SearchScreen } from "./SearchScreen.tsx";

describe('the "Start here" shelf', () => {
  let crates: TestCrateService;
  let catalogue: TestCatalogue;
  beforeEach(() => {
    crates = createTestCrateService();
    catalogue = createTestCatalogue([
      demoCatalogueSong("Slow Chords", 2),
      // An ordinary upload: never on the shelf.
      demoCatalogueSong("Not a demo", 3, { trackName: "Someone's Upload", artistName: "Someone", demo: false }),
      demoCatalogueSong("Sine Arpeggio", 1),
    ]);
    clearToasts();
    window.history.replaceState(null, "", "/crates/search");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  function render(ui: ReactElement) {
    const kit = createTestKit({
      routes: (router) => {
        crates.routes(router);
        catalogue.routes(router);
      },
    });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    const sink = recordAnalytics(kit);
    renderWithKit(ui, kit);
    return { kit, sink };
  }

  it("lists the demo songs under the search hint; one click queues one, the menu adds one to a crate", async () => {
    const trip = crates.addCrate("Road trip", []);
    const { sink } = render(<SearchScreen />);
    const shelf = await screen.findByRole("region", { name: "Start here" });
    expect(screen.getByRole("heading", { name: "Search every music provider" })).toBeTruthy();
    expect(catalogue.demoFilters).toEqual([true]);
    expect(
      within(shelf)
        .getAllByTestId("search-result")
        .map((row) => row.querySelector("strong")?.textContent),
    ).toEqual(["Demo: Slow Chords", "Demo: Sine Arpeggio"]);
    expect(within(shelf).getByText("0:32")).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(shelf).getByRole("button", { name: "Add Demo: Sine Arpeggio to the queue" }));
    await waitFor(() => expect(toasts()).toContain("success: Demo: Sine Arpeggio added to Queue."));
    expect(crates.queue.songs.map((song) => song.songId)).toEqual([catalogue.songs[2]!.songId]);
    expect(sink.of("queue-action")).toEqual([
      expect.objectContaining({
        action: "add",
        crate: "queue",
        from: "start-here",
        songId: catalogue.songs[2]!.songId,
      }),
    ]);

    await user.click(within(shelf).getByRole("button", { name: "Add Demo: Slow Chords to a crate" }));
    const menu = await screen.findByRole("menu");
    await user.click(await within(menu).findByRole("menuitem", { name: "Road trip" }));
    await waitFor(() => expect(toasts()).toContain("success: Demo: Slow Chords added to Road trip."));
    expect(trip.songs.map((song) => song.songId)).toEqual([catalogue.songs[0]!.songId]);
  });

  it("is on the crates home too", async () => {
    window.history.replaceState(null, "", "/crates");
    render(<CratesScreen />);
    const shelf = await screen.findByRole("region", { name: "Start here" });
    expect(within(shelf).getAllByTestId("search-result")).toHaveLength(2);
    expect(await screen.findByRole("list", { name: "Your crates" })).toBeTruthy();
  });

  it("shows nothing when the catalogue has no demo songs (production)", async () => {
    catalogue.songs.splice(0, catalogue.songs.length, catalogue.songs[1]!);
    const { kit } = render(<SearchScreen />);
    await waitFor(() => expect(kit.queryClient.getQueryState(START_HERE_KEY)?.status).toBe("success"));
    await act(async () => undefined);
    expect(screen.queryByRole("region", { name: "Start here" })).toBeNull();
    expect(screen.queryByText("Start here")).toBeNull();
    expect(screen.getByRole("heading", { name: "Search every music provider" })).toBeTruthy();
  });

  it("shows nothing when the catalogue cannot be asked", async () => {
    const kit = createTestKit({ routes: crates.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(<SearchScreen />, kit);
    await waitFor(() => expect(kit.queryClient.getQueryState(START_HERE_KEY)?.status).toBe("error"));
    await act(async () => undefined);
    expect(screen.queryByText("Start here")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
