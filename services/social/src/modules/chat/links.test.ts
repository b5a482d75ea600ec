import { describe, expect, it } from "vitest";
import { crateLinkIn, isMusicLink, linksIn, MAX_RESOLVED_LINKS, musicLinksIn } from "./links.ts";

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

  it("finds the first crate link of our web origins: /crates/<uuid>", () => {
    const id = "0b5c1f2e-3d4a-4b6c-8d9e-0f1a2b3c4d5e";
    const origins = ["https://tt.example", "http://localhost:8080"];
    expect(crateLinkIn(`see https://tt.example/crates/${id}!`, origins)).toBe(id);
    expect(crateLinkIn(`https://tt.example/crates/${id.toUpperCase()}/?tab=songs#top`, origins)).toBe(id);
    expect(crateLinkIn(`http://localhost:8080/crates/${id}`, origins)).toBe(id);
    // Another origin, another port, the user-relative special crates, a path that is not a crate's.
    expect(crateLinkIn(`https://evil.example/crates/${id}`, origins)).toBeUndefined();
    expect(crateLinkIn(`http://localhost:9090/crates/${id}`, origins)).toBeUndefined();
    expect(crateLinkIn("https://tt.example/crates/queue https://tt.example/crates/likes", origins)).toBeUndefined();
    expect(crateLinkIn(`https://tt.example/rooms/${id}`, origins)).toBeUndefined();
    expect(crateLinkIn(`https://tt.example/crates/${id}/songs/1`, origins)).toBeUndefined();
    // The first crate link wins; without configured origins any origin's crate path counts.
    const other = "1b5c1f2e-3d4a-4b6c-8d9e-0f1a2b3c4d5e";
    expect(crateLinkIn(`https://tt.example/crates/${other} https://tt.example/crates/${id}`, origins)).toBe(other);
    expect(crateLinkIn(`https://anywhere.test/crates/${id}`, [])).toBe(id);
  });
});
