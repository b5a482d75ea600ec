import { create } from "@bufbuild/protobuf";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { UploadedSongSchema } from "@tt/proto/tt/upload/v1/song_pb";
import { describe, expect, it } from "vitest";
import { publishedSong } from "./published-song.ts";

describe("publishedSong", () => {
  it("carries the API's answer for a VERIFIED song into the catalogue event, field for field", () => {
    const song = create(UploadedSongSchema, {
      songId: 42n,
      uuid: "0b6f3f5e-7d1c-4c57-9d0e-3f1f4c7e2a10",
      ownerUuid: "5a0d2b9c-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
      trackName: "Track",
      artistName: "Artist",
      albumName: "Album",
      genre: "House",
      releaseYear: 1999,
      duration: 215.5,
      explicit: true,
      isrc: "USRC17607839",
      status: "VERIFIED",
      progress: 100,
      public: true,
      demo: false,
      hlsPlaylistUrl: "/media/songs/42/v1/master.m3u8",
      statusMessage: "",
    });
    expect(create(UploadedSongPublishedSchema, publishedSong(song))).toEqual(
      create(UploadedSongPublishedSchema, {
        songUuid: song.uuid,
        songId: 42n,
        ownerUuid: song.ownerUuid,
        trackName: "Track",
        artistName: "Artist",
        albumName: "Album",
        genre: "House",
        releaseYear: 1999,
        duration: 215.5,
        explicit: true,
        isrc: "USRC17607839",
        hlsPlaylistUrl: "/media/songs/42/v1/master.m3u8",
        thumbnailUrl: "",
        public: true,
        demo: false,
      }),
    );
  });
});
