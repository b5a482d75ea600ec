import { describe, expect, it } from "vitest";
import { providerOfLink } from "./links.ts";

describe("providerOfLink (spec 002 §5 recognised hosts)", () => {
  it.each([
    ["https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M", "spotify"],
    ["https://music.apple.com/us/playlist/todays-hits/pl.f4d106fed2bd41149aaacabb233eb5eb", "apple"],
    ["https://soundcloud.com/user/sets/mix", "soundCloudPublic"],
    ["https://www.youtube.com/playlist?list=PL1", "youtube"],
    ["https://youtu.be/dQw4w9WgXcQ", "youtube"],
    ["https://www.deezer.com/playlist/1", "deezer"],
    ["https://music.amazon.com/playlists/B0", "amazonMusic"],
    ["https://audius.co/u/playlist/x", "audius"],
    ["https://example.com/playlist/1", undefined],
    ["not a link", undefined],
    ["javascript:alert(1)//spotify", undefined],
    ["", undefined],
  ])("%s → %s", (link, provider) => {
    expect(providerOfLink(link)).toBe(provider);
  });
});
