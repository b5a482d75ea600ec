import { describe, expect, it } from "vitest";
import { keepSuggestions } from "./similar.ts";

const s = (trackName: string, artistName: string, duration = 200, thumbnail: string | undefined = "t.jpg") => ({
  trackName,
  artistName,
  duration,
  thumbnail,
});

describe("similar suggestions (spec 002 §9)", () => {
  it("dedupes by track and artist ignoring case, keeps only those with a thumbnail and a duration above 0", () => {
    const kept = keepSuggestions(
      [
        s("One", "A"),
        s("ONE", "a"),
        s("One", "B"),
        { ...s("No thumb", "A"), thumbnail: undefined },
        s("No thumb 2", "A", 200, ""),
        s("Zero", "A", 0),
        s("Seed", "Z"),
      ],
      [s("seed", "z")],
    );
    expect(kept.map((k) => `${k.trackName}/${k.artistName}`)).toEqual(["One/A", "One/B"]);
  });
});
