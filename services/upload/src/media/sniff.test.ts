// The file type comes from the bytes: every supported container FFmpeg makes is recognised, its name and
// declared type play no part, and anything else is refused.
import { describe, expect, it } from "vitest";
import { makeAudio } from "../testing/fixtures.ts";
import { sniffAudio } from "./sniff.ts";
import { missingFields, readTags } from "./tags.ts";

describe("sniffAudio", () => {
  it.each(["mp3", "wav", "flac", "ogg", "m4a", "aac"] as const)("recognises %s made by FFmpeg", async (format) => {
    expect(sniffAudio(await makeAudio({ seconds: 1, format }))).toBe(format);
  });

  it.each([
    ["text", new TextEncoder().encode("hello, this is not audio")],
    ["PNG", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ["RIFF that is not WAVE", new TextEncoder().encode("RIFF\0\0\0\0AVI LIST")],
    ["a free-bitrate MPEG header", Uint8Array.from([0xff, 0xfb, 0x00, 0x00])],
    ["empty", new Uint8Array()],
    ["one byte", Uint8Array.from([0xff])],
  ])("refuses %s", (_what, bytes) => {
    expect(sniffAudio(bytes)).toBeUndefined();
  });
});

describe("readTags", () => {
  it("reads title, artist and duration; an untagged file misses title and artist", async () => {
    const tagged = await readTags(await makeAudio({ seconds: 2, title: "T", artist: "A" }), "mp3");
    expect(tagged).toMatchObject({ trackName: "T", artistName: "A" });
    expect(missingFields(tagged)).toEqual([]);
    const bare = await readTags(await makeAudio({ seconds: 2, format: "wav" }), "wav");
    expect(missingFields(bare)).toEqual(["trackName", "artistName"]);
    expect(bare.duration).toBe(2);
  });

  it("a file whose tags cannot be read has none, rather than failing", async () => {
    const tags = await readTags(Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0xff, 0xff, 0xff, 0xff]), "mp3");
    expect(missingFields(tags)).toEqual(["trackName", "artistName", "duration"]);
  });
});
