import { create } from "@bufbuild/protobuf";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import { SongSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestCrateService, TEST_USER_UUID } from "../testing/crate-service.ts";
import { clearToasts, toasts } from "../testing/ui.ts";
import { SimilarSongs, similarSuggestions } from "./SimilarSongs.tsx";

const song = (trackName: string, artistName: string, duration = 200, art = true) =>
  create(SongSchema, { trackName, artistName, duration, thumbnails: art ? { spotify: "https://i.scdn.co/x" } : {} });

describe("similarSuggestions (002 §9)", () => {
  it("dedupes by track and artist (ignoring case) and keeps only songs with a thumbnail and a duration", () => {
    const kept = similarSuggestions([
      {
        suggestions: [song("One", "Ada"), song("one ", "ADA"), song("Two", "Ada", 0), song("Three", "Ada", 10, false)],
      },
      { suggestions: [song("One", "Bo"), song("Four", "Ada")] },
    ]);
    expect(kept.map((s) => `${s.trackName}/${s.artistName}`)).toEqual(["One/Ada", "One/Bo", "Four/Ada"]);
  });

  it("takes suggestions for up to 8 songs", () => {
    const lists = Array.from({ length: 10 }, (_, i) => ({ suggestions: [song(`Song ${i}`, "Ada")] }));
    expect(similarSuggestions(lists)).toHaveLength(8);
  });
});

describe("SimilarSongs", () => {
  beforeEach(clearToasts);

  it("asks for suggestions on demand and adds one to the crate", async () => {
    const crates = createTestCrateService();
    const crate = crates.addCrate("Road trip", ["One"]);
    const asked: string[] = [];
    const kit = createTestKit({
      routes: (router) => {
        crates.routes(router);
        router.service(AnalysisService, {
          getSimilarSongs: ({ crateUuid }) => {
            asked.push(crateUuid);
            return {
              songs: [
                {
                  songId: "s1",
                  suggestions: [
                    create(SongSchema, {
                      songId: "00000000-0000-4000-8000-0000000000bb",
                      trackName: "Close Cousin",
                      artistName: "Ada",
                      duration: 200,
                      thumbnails: { spotify: "https://i.scdn.co/cc" },
                    }),
                    create(SongSchema, { trackName: "No Art", artistName: "Ada", duration: 200 }),
                  ],
                },
              ],
            };
          },
          cyaniteWebhook: () => ({}),
        });
      },
    });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(
      <SimilarSongs
        crateUuid={crate.crate.crateUuid}
        crateName="Road trip"
        target={{ crateUuid: crate.crate.crateUuid }}
      />,
      kit,
    );
    expect(asked).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Suggest similar songs" }));
    expect(await screen.findByText("Close Cousin")).toBeTruthy();
    expect(screen.queryByText("No Art")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Add Close Cousin" }));
    await waitFor(() =>
      expect(crate.songs.map((song) => song.songId)).toContain("00000000-0000-4000-8000-0000000000bb"),
    );
    await waitFor(() => expect(toasts()).toContain("success: Close Cousin added to Road trip."));
    // Added once: its button says so and cannot add it twice.
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Add Close Cousin" }).disabled).toBe(true);
  });

  it("says when there is nothing to suggest, with a way to look for songs", async () => {
    const crates = createTestCrateService();
    const crate = crates.addCrate("Road trip", ["One"]);
    const kit = createTestKit({
      routes: (router) => {
        crates.routes(router);
        router.service(AnalysisService, { getSimilarSongs: () => ({ songs: [] }), cyaniteWebhook: () => ({}) });
      },
    });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(
      <SimilarSongs
        crateUuid={crate.crate.crateUuid}
        crateName="Road trip"
        target={{ crateUuid: crate.crate.crateUuid }}
      />,
      kit,
    );
    fireEvent.click(screen.getByRole("button", { name: "Suggest similar songs" }));
    expect(await screen.findByRole("heading", { name: "No suggestions yet" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Search for songs" }).getAttribute("href")).toBe("/search");
  });
});
