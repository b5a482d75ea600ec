// 002 §5's same-track rule, as a table.
import { describe, expect, it } from "vitest";
import { isSameTrack, type TrackKeys } from "./same-track.ts";

const base: TrackKeys = { trackName: "Hello", artistName: "Adele", duration: 295 };

const table: [string, TrackKeys, TrackKeys, boolean][] = [
  ["the same crate song id", { crateSongUuid: "A-1" }, { crateSongUuid: "a-1" }, true],
  ["the same song id", { songId: "s1", trackName: "x" }, { songId: "s1", trackName: "y" }, true],
  ["the same short id", { songShortId: "abc123" }, { songShortId: "abc123" }, true],
  ["short ids differing in case", { songShortId: "abc123" }, { songShortId: "ABC123" }, false],
  ["the same isrc, any case", { isrc: "GBBKS1500214" }, { isrc: "gbbks1500214" }, true],
  [
    "an id shared at one provider",
    { musicProviders: { spotify: "1", apple: "9" } },
    { musicProviders: { spotify: "1" } },
    true,
  ],
  [
    "the same id at two different providers",
    { musicProviders: { spotify: "1" } },
    { musicProviders: { apple: "1" } },
    false,
  ],
  ["equal names, durations equal", base, { ...base }, true],
  ["equal names ignoring case, 5 s apart", base, { trackName: "HELLO", artistName: "adele", duration: 300 }, true],
  ["equal names, 5.5 s apart", base, { ...base, duration: 300.5 }, false],
  ["equal names, 5 s apart the other way", base, { ...base, duration: 290 }, true],
  ["equal track name, another artist", base, { ...base, artistName: "Lionel Richie" }, false],
  ["another track name, same artist", base, { ...base, trackName: "Skyfall" }, false],
  ["names surrounded by spaces", base, { trackName: " Hello ", artistName: "Adele ", duration: 295 }, true],
  [
    "empty ids never match",
    { songId: "", isrc: "", crateSongUuid: "" },
    { songId: "", isrc: "", crateSongUuid: "" },
    false,
  ],
  ["empty provider ids never match", { musicProviders: { spotify: "" } }, { musicProviders: { spotify: "" } }, false],
  ["empty names never match", { trackName: "", artistName: "" }, { trackName: "", artistName: "" }, false],
  ["different isrcs, equal names within 5 s", { ...base, isrc: "A" }, { ...base, isrc: "B", duration: 297 }, true],
  ["nothing in common", { songId: "1", isrc: "X" }, { songId: "2", isrc: "Y" }, false],
];

describe("isSameTrack (002 §5)", () => {
  it.each(table)("%s → %s", (_name, a, b, expected) => {
    expect(isSameTrack(a, b)).toBe(expected);
    expect(isSameTrack(b, a)).toBe(expected);
  });
});
