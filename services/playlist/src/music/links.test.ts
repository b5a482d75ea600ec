import { describe, expect, it } from "vitest";
import { isRecognisedLink, parsePlaylistLink, parseSongLink } from "./links.ts";

describe("link recognition (spec 002 §5)", () => {
  it.each([
    ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC", true],
    ["https://music.apple.com/us/album/x/1440857781?i=1440857786", true],
    ["https://soundcloud.com/artist/track", true],
    ["https://youtu.be/dQw4w9WgXcQ", true],
    ["https://www.deezer.com/track/1", true],
    ["https://listen.tidal.com/track/1", true],
    ["https://music.amazon.com/albums/1", true],
    ["https://example.com/spotify", false],
    ["ftp://open.spotify.com/track/1", false],
    ["not a link", false],
    ["", false],
  ])("%s → %s", (link, expected) => {
    expect(isRecognisedLink(link)).toBe(expected);
  });

  it.each([
    [
      "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=x",
      { provider: "spotify", id: "4uLU6hMCjMI75M1A2tKUQC" },
    ],
    ["spotify:track:4uLU6hMCjMI75M1A2tKUQC", { provider: "spotify", id: "4uLU6hMCjMI75M1A2tKUQC" }],
    [
      "https://music.apple.com/gb/album/x/1440857781?i=1440857786",
      { provider: "apple", id: "1440857786", storefront: "gb" },
    ],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", { provider: "youtube", id: "dQw4w9WgXcQ" }],
    ["https://soundcloud.com/a/b", { provider: "soundCloudPublic", id: "https://soundcloud.com/a/b" }],
    ["https://www.deezer.com/track/1", undefined],
    ["https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M", undefined],
  ])("song link %s", (link, expected) => {
    expect(parseSongLink(link)).toEqual(expected);
  });

  it.each([
    ["https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M", { provider: "spotify", id: "37i9dQZF1DXcBWIGoYBM5M" }],
    [
      "https://music.apple.com/us/playlist/todays-hits/pl.f4d106fed2bd41149aaacabb233eb5eb",
      { provider: "apple", id: "pl.f4d106fed2bd41149aaacabb233eb5eb", storefront: "us" },
    ],
    ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC", undefined],
    ["https://example.com/playlist/1", undefined],
  ])("playlist link %s", (link, expected) => {
    expect(parsePlaylistLink(link)).toEqual(expected);
  });
});
