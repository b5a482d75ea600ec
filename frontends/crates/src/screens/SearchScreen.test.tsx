import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { SongSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { act, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, useDebounced } from "../lib/use-debounced.ts";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { SearchScreen } from "./SearchScreen.tsx";

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
    await waitFor(() =>
      expect(
        within(screen.getByRole("combobox", { name: "Add Alpha Song to a crate" }))
          .getAllByRole("option")
          .map((o) => o.textContent),
      ).toEqual(["Road trip"]),
    );
    fireEvent.click(within(catalogue).getByRole("button", { name: "Add to crate" }));
    await screen.findByText("Alpha Song added to Road trip.");
    expect(trip.songs.map((song) => song.songId)).toEqual([catalogueSong.songId]);
    fireEvent.click(screen.getByRole("button", { name: "Add Alpha Remix to the queue" }));
    await screen.findByText("Alpha Remix added to Queue.");
    expect(crates.queue.songs.map((song) => song.trackName)).toEqual(["Alpha Remix"]);

    fireEvent.change(box, { target: { value: "" } });
    expect(await screen.findByText("Type to search every music provider.")).toBeTruthy();
    expect(terms).toEqual(["alpha"]);
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
