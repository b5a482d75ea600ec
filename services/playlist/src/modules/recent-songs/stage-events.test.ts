// Issue 14: the live stage's SongPlayed puts the finished song in the room's recent songs, once per play, on real
// NATS and PostgreSQL. The events are published on the bus as the social service's relay does (binary, event id
// and aggregate id in the headers), so the test needs no social service.
import { randomUUID } from "node:crypto";
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { AGGREGATE_ID_HEADER, EVENT_ID_HEADER } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import { SongPlayedSchema } from "@tt/proto/tt/social/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../../index.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: { RECENT_SONGS_ROOM_DURABLE: `recent-songs-stage-test-${randomUUID().slice(0, 8)}` },
  });
});
afterAll(() => h?.close());

async function played(event: MessageInitShape<typeof SongPlayedSchema>): Promise<void> {
  await h.bus.publishDurable("tt.social.song.played", toBinary(SongPlayedSchema, create(SongPlayedSchema, event)), {
    headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: event.roomUuid ?? "" },
  });
}

describe("SongPlayed consumer", () => {
  it("adds the finished song to the room's recent songs once per play, under the room's slug", async () => {
    const roomUuid = randomUUID();
    const slug = `stage-${roomUuid.slice(0, 8)}`;
    const dj = randomUUID();
    const startedAt = new Date(Date.now() - 200_000);
    const play = {
      roomUuid,
      roomSlug: slug,
      playId: randomUUID(),
      djUuid: dj,
      song: { title: "Stage Song", artist: "Stage Band", duration: 180, isrc: "USAAA2600001" },
      startedAt: timestampFromDate(startedAt),
      endedAt: timestampFromDate(new Date(startedAt.getTime() + 180_000)),
      playedSeconds: 180,
      likes: 3,
    };
    // The same play twice (two event ids), a play with a song the catalogue refuses (no title, no providers),
    // then a later play: the later one landing means the ones before it were handled.
    await played(play);
    await played(play);
    await played({ ...play, playId: randomUUID(), song: { title: "", artist: "" } });
    await played({
      ...play,
      playId: randomUUID(),
      song: { title: "Second", artist: "Stage Band", duration: 100, musicProviders: { unknownProvider: "x" } },
      startedAt: timestampFromDate(new Date(startedAt.getTime() + 180_000)),
    });
    // Read as a service: anyone else is admitted by the room service (issue 23), which this harness does not run.
    const reader = h.client(RecentSongsService, { token: await h.tokens.service("social") });
    const list = await eventually(
      "the room's recent songs",
      () => reader.listRecentSongs({ slug }),
      (r) => r.total >= 2,
    );
    expect(list.songPlays.map((p) => p.song!.trackName)).toEqual(["Second", "Stage Song"]);
    expect(list.songPlays[1]).toMatchObject({ songPlayUuid: play.playId, roomUuid, djUuid: dj });
    expect(list.songPlays[1]!.song).toMatchObject({ artistName: "Stage Band", isrc: "USAAA2600001" });
    expect(list.total).toBe(2);
  });

  it("keeps a catalogue song by its id", async () => {
    const roomUuid = randomUUID();
    const slug = `stage-${roomUuid.slice(0, 8)}`;
    const stage = h.client(RecentSongsService, { token: await h.tokens.service("social") });
    // A song the catalogue holds (posted once through the REST path), then played by the stage by its id.
    const posted = await stage.addRecentSong({
      slug: `${slug}-seed`,
      roomUuid: randomUUID(),
      song: { trackName: "Catalogued", artistName: "Known", duration: 90 },
    });
    const songId = posted.songPlay!.song!.songId;
    await played({ roomUuid, roomSlug: slug, playId: randomUUID(), song: { songId, title: "ignored", artist: "x" } });
    const list = await eventually(
      "the room's recent songs",
      () => stage.listRecentSongs({ slug }),
      (r) => r.total >= 1,
    );
    expect(list.songPlays.map((p) => [p.song!.songId, p.song!.trackName])).toEqual([[songId, "Catalogued"]]);
  });
});
