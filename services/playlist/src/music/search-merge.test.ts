import { describe, expect, it } from "vitest";
import { mergeCatalogueAndSoundCloud } from "./search-merge.ts";

const c = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`);
const s = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}`);

describe("catalogue + SoundCloud merge (spec 002 §9: first five catalogue results, then alternating)", () => {
  it.each([
    { catalogue: 0, soundcloud: 0, expected: [] },
    { catalogue: 3, soundcloud: 0, expected: ["c1", "c2", "c3"] },
    { catalogue: 0, soundcloud: 3, expected: ["s1", "s2", "s3"] },
    { catalogue: 3, soundcloud: 2, expected: ["c1", "c2", "c3", "s1", "s2"] },
    { catalogue: 5, soundcloud: 2, expected: ["c1", "c2", "c3", "c4", "c5", "s1", "s2"] },
    { catalogue: 7, soundcloud: 3, expected: ["c1", "c2", "c3", "c4", "c5", "s1", "c6", "s2", "c7", "s3"] },
    { catalogue: 9, soundcloud: 1, expected: ["c1", "c2", "c3", "c4", "c5", "s1", "c6", "c7", "c8", "c9"] },
  ])("$catalogue catalogue + $soundcloud SoundCloud", ({ catalogue, soundcloud, expected }) => {
    expect(mergeCatalogueAndSoundCloud(c(catalogue), s(soundcloud))).toEqual(expected);
  });

  it("keeps every result exactly once", () => {
    const merged = mergeCatalogueAndSoundCloud(c(13), s(8));
    expect(merged).toHaveLength(21);
    expect(new Set(merged).size).toBe(21);
  });
});
