import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { SongSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { act, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, useDebounced } from "../lib/use-debounced.ts";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { clearToasts, toasts } from "../testing/ui.ts";
import { SearchScreen } from "./SearchScreen.tsx";

// Radix Select asks the element for pointer capture and scrolls its chosen item into view; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.scrollIntoView ??= () => undefined;
});

const catalogueSong = create(SongSchema, {
  songId: "00000000-0000-4000-8000-0000000000aa",
  trackName: "Alpha Song",
  artistName: "Ada",
  duration: 201,
  thumbnails: { uploadService: "https://media.example/alpha.jpg" },
});
const spotifySong = create(SongSchema, {
  trackName: "Alpha Remix",
  artistName: "Bo",
  duration: 3_725,
  explicit: true,
  isrc: "QZTST2600009",
  musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" },
});

function searchRoutes(terms: string[]) {
  return (router: ConnectRouter) =>
    router.service(SearchService, {
      search: ({ q }) => {
        terms.push(q);
        return {
          results: [
            { musicProvider: "catalogue", songs: q.startsWith("alpha") ? [catalogueSong] : [] },
            { musicProvider: "spotify", songs: q.startsWith("alpha") ? [spotifySong] : [] },
            { musicProvider: "apple", songs: [], error: "Apple Music is not available" },
          ],
        };
      },
      searchV2: () => ({ results: [] }),
    });
}

describe("SearchScreen", () => {
  let crates: TestCrateService;
  let terms: string[];
  beforeEach(() => {
    crates = createTestCrateService();
    terms = [];
    clearToasts();
    window.history.replaceState(null, "", "/crates/search");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  function render() {
    const kit = createTestKit({
      routes: (router) => {
        crates.routes(router);
        searchRoutes(terms)(router);
      },
    });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    return renderWithKit(<SearchScreen />, kit);
  }

  it("searches once the typing stops (300 ms), one list per provider, and never for an empty term", async () => {
    const trip = crates.addCrate("Road trip", []);
    render();
    const box = screen.getByRole("searchbox", { name: "Search songs" });
    fireEvent.change(box, { target: { value: " " } });
    fireEvent.change(box, { target: { value: "a" } });
    fireEvent.change(box, { target: { value: "al" } });
    fireEvent.change(box, { target: { value: "alpha" } });
    const catalogue = await screen.findByRole("region", { name: "Results from Catalogue" });
    expect(terms).toEqual(["alpha"]);
    expect(window.location.search).toBe("?q=alpha");
    expect(within(catalogue).getByText("Alpha Song")).toBeTruthy();
    expect(within(catalogue).getByText("3:21")).toBeTruthy();
    const spotify = screen.getByRole("region", { name: "Results from Spotify" });
    expect(within(spotify).getByText("1:02:05")).toBeTruthy();
    expect(within(spotify).getByText("Explicit")).toBeTruthy();
    expect(
      within(screen.getByRole("region", { name: "Results from Apple Music" })).getByText(
        "Apple Music is not available",
      ),
    ).toBeTruthy();

    // Add the catalogue song to a crate (by its id) and the Spotify one to the queue (by its data).
    const user = userEvent.setup();
    await user.click(within(catalogue).getByRole("button", { name: "Add Alpha Song to a crate" }));
    const menu = await screen.findByRole("menu");
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole("menuitem")
          .map((item) => item.textContent),
      ).toEqual(["Road trip", "New crate…"]),
    );
    await user.click(within(menu).getByRole("menuitem", { name: "Road trip" }));
    await waitFor(() => expect(toasts()).toContain("success: Alpha Song added to Road trip."));
    expect(trip.songs.map((song) => song.songId)).toEqual([catalogueSong.songId]);
    await user.click(screen.getByRole("button", { name: "Add Alpha Remix to the queue" }));
    await waitFor(() => expect(toasts()).toContain("success: Alpha Remix added to Queue."));
    expect(crates.queue.songs.map((song) => song.trackName)).toEqual(["Alpha Remix"]);

    // One provider's results alone, chosen by its name.
    await user.click(screen.getByRole("combobox", { name: "Show results from" }));
    await user.click(await screen.findByRole("option", { name: "Spotify" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Results from Catalogue" })).toBeNull());
    expect(screen.getByRole("region", { name: "Results from Spotify" })).toBeTruthy();

    fireEvent.change(box, { target: { value: "" } });
    expect(await screen.findByRole("heading", { name: "Search every music provider" })).toBeTruthy();
    expect(terms).toEqual(["alpha"]);
  });

  it("says when nothing matches, and offers to clear the search", async () => {
    const user = userEvent.setup();
    render();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search songs" }), { target: { value: "zzz" } });
    expect(await screen.findByRole("heading", { name: "No songs found" })).toBeTruthy();
    expect(screen.getByText("Nothing matches “zzz”. Try another spelling, or search for the artist.")).toBeTruthy();
    // Apple Music's refusal still says why it has nothing.
    expect(screen.queryByText("Apple Music is not available")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Clear the search" }));
    expect(screen.getByRole<HTMLInputElement>("searchbox", { name: "Search songs" }).value).toBe("");
    expect(await screen.findByRole("heading", { name: "Search every music provider" })).toBeTruthy();
  });
});

describe("useDebounced", () => {
  afterEach(() => vi.useRealTimers());

  it("settles 300 ms after the last change", () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ value }) => useDebounced(value), { initialProps: { value: "" } });
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    rerender({ value: "a" });
    act(() => void vi.advanceTimersByTime(200));
    rerender({ value: "ab" });
    act(() => void vi.advanceTimersByTime(299));
    expect(result.current).toBe("");
    act(() => void vi.advanceTimersByTime(1));
    expect(result.current).toBe("ab");
  });
});
