import { describe, expect, it } from "vitest";
import { isMusicLink, linksIn, MAX_RESOLVED_LINKS, musicLinksIn } from "./links.ts";

describe("links in chat (002 §5)", () => {
  it("recognises a link only when its host contains a provider name of the list", () => {
    expect(isMusicLink(new URL("https://open.spotify.com/track/abc"))).toBe(true);
    expect(isMusicLink(new URL("https://youtu.be/xyz"))).toBe(true);
    expect(isMusicLink(new URL("https://music.apple.com/us/album/x"))).toBe(true);
    expect(isMusicLink(new URL("https://www.amazon.de/music/player"))).toBe(true);
    expect(isMusicLink(new URL("https://example.com/spotify/track"))).toBe(false);
    expect(isMusicLink(new URL("https://bandcamp.com/track/x"))).toBe(false);
  });

  it("finds http(s) links in text without trailing punctuation, each once, and caps what is resolved", () => {
    const text =
      "listen https://open.spotify.com/track/1, and (https://soundcloud.com/a/b). again https://open.spotify.com/track/1";
    expect(linksIn(text).map((u) => u.href)).toEqual([
      "https://open.spotify.com/track/1",
      "https://soundcloud.com/a/b",
    ]);
    const many = Array.from({ length: 6 }, (_, i) => `https://deezer.com/track/${i}`).join(" ");
    expect(musicLinksIn(many)).toHaveLength(MAX_RESOLVED_LINKS);
    expect(linksIn("no links, ftp://spotify.com/x")).toEqual([]);
  });
});
