// 002 §5: a new playlist is "New Playlist #" plus the lowest unused positive number, as a table.
import { describe, expect, it } from "vitest";
import { nextNewPlaylistName } from "./crate-store.ts";

const table: [string, string[], string][] = [
  ["no crates", [], "New Playlist #1"],
  ["#1 taken", ["New Playlist #1"], "New Playlist #2"],
  ["a gap", ["New Playlist #1", "New Playlist #3"], "New Playlist #2"],
  ["only a higher one", ["New Playlist #2"], "New Playlist #1"],
  ["other names do not count", ["Road trip", "default", "tt-stars"], "New Playlist #1"],
  ["not a number after the prefix", ["New Playlist #one", "New Playlist #1a"], "New Playlist #1"],
  ["zero and leading zeros are not positive numbers", ["New Playlist #0", "New Playlist #01"], "New Playlist #1"],
  ["another case is another name", ["new playlist #1"], "New Playlist #1"],
  ["unordered", ["New Playlist #3", "New Playlist #1", "New Playlist #2"], "New Playlist #4"],
];

describe("nextNewPlaylistName", () => {
  it.each(table)("%s", (_name, names, expected) => {
    expect(nextNewPlaylistName(names)).toBe(expected);
  });
});
