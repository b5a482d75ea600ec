import { describe, expect, it } from "vitest";
import { importProviderOf } from "./import-providers.ts";

describe("import provider order (spec 002 §5)", () => {
  it.each([
    { providers: { sevenDigital: "7", spotify: "s", apple: "a" }, expected: { provider: "sevenDigital", id: "7" } },
    { providers: { apple: "a", soundCloudPublic: "sc" }, expected: { provider: "soundCloudPublic", id: "sc" } },
    { providers: { uploadService: "9", spotify: "s" }, expected: { provider: "spotify", id: "s" } },
    { providers: { uploadService: "9", apple: "a" }, expected: { provider: "apple", id: "a" } },
    { providers: { uploadService: "9", youtube: "y" }, expected: { provider: "uploadService", id: "9" } },
    { providers: { youtube: "y", deezer: "d" }, expected: undefined },
    { providers: { spotify: "" }, expected: undefined },
  ])("$providers → $expected", ({ providers, expected }) => {
    expect(importProviderOf(providers)).toEqual(expected);
  });
});
