import { create } from "@bufbuild/protobuf";
import { SongSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { describe, expect, it } from "vitest";
import { similarSuggestions } from "./SimilarSongs.tsx";

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
