// RecentSongsService through the host: the live stage posts plays by room uuid and slug; the GET pages them
// newest first, and a renamed room (new slug) keeps its history. These read as a service (by the slugs the room
// events mapped); who else may read a room's songs is the room service's rule (tests/e2e/room-private-admission).
import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, toBinary } from "@bufbuild/protobuf";
import { AGGREGATE_ID_HEADER, EVENT_ID_HEADER } from "@tt/kit";
import { createServiceHarness, type ServiceHarness, codeOf } from "@tt/kit/testing";
import { RoomCreatedSchema, RoomSettingsChangedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import { playlistServiceDefinition } from "../index.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: { RECENT_SONGS_ROOM_DURABLE: `recent-songs-test-${randomUUID().slice(0, 8)}` },
  });
});
afterAll(() => h?.close());

describe("recent songs", () => {
  it("are posted by the live stage and listed newest first with limit and offset; a new slug keeps the history", async () => {
    const stage = h.client(RecentSongsService, { token: await h.tokens.service("room") });
    const roomUuid = randomUUID();
    const slug = `room-${roomUuid.slice(0, 8)}`;
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 3; i++) {
      await stage.addRecentSong({
        slug,
        roomUuid,
        djUuid: randomUUID(),
        song: { trackName: `Played ${i}`, artistName: "Band", duration: 120 },
        playedAt: timestampFromDate(new Date(t0 + i * 1000)),
      });
    }
    const anyone = h.client(RecentSongsService, { token: await h.tokens.service("social") });
    const all = await anyone.listRecentSongs({ slug });
    expect(all.total).toBe(3);
    expect(all.songPlays.map((p) => p.song!.trackName)).toEqual(["Played 2", "Played 1", "Played 0"]);
    expect(all.songPlays[0]).toMatchObject({ roomUuid });
    const page = await anyone.listRecentSongs({ slug, limit: 1, offset: 1 });
    expect(page.songPlays.map((p) => p.song!.trackName)).toEqual(["Played 1"]);

    // The room is renamed: the stage posts under the new slug, and both slugs read the same history.
    await stage.addRecentSong({
      slug: `${slug}-renamed`,
      roomUuid,
      song: { trackName: "Played 3", artistName: "Band", duration: 120 },
    });
    expect((await anyone.listRecentSongs({ slug: `${slug}-renamed` })).total).toBe(4);
    expect((await anyone.listRecentSongs({ slug })).total).toBe(4);
    expect((await anyone.listRecentSongs({ slug: "never-used" })).songPlays).toEqual([]);
  });

  it("follow a room's new slug from the room service's events, before the stage posts under it", async () => {
    const stage = h.client(RecentSongsService, { token: await h.tokens.service("room") });
    const roomUuid = randomUUID();
    const slug = `evt-${roomUuid.slice(0, 8)}`;
    const publish = async (subject: string, data: Uint8Array) =>
      h.bus.publishDurable(subject, data, {
        headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: roomUuid },
      });
    await publish(
      "tt.room.room.created",
      toBinary(RoomCreatedSchema, create(RoomCreatedSchema, { roomUuid, slug, ownerUuid: randomUUID() })),
    );
    const anyone = h.client(RecentSongsService, { token: await h.tokens.service("social") });
    await stage.addRecentSong({ slug, roomUuid, song: { trackName: "Before rename", artistName: "Band" } });
    await publish(
      "tt.room.settings.changed",
      toBinary(
        RoomSettingsChangedSchema,
        create(RoomSettingsChangedSchema, { roomUuid, slug: `${slug}-renamed`, changed: ["slug"] }),
      ),
    );
    const deadline = Date.now() + 10_000;
    let got = await anyone.listRecentSongs({ slug: `${slug}-renamed` });
    while (got.total === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      got = await anyone.listRecentSongs({ slug: `${slug}-renamed` });
    }
    expect(got.songPlays.map((s) => s.song!.trackName)).toEqual(["Before rename"]);
  });

  it("refuses users, bad input and absurd times", async () => {
    const user = h.client(RecentSongsService, { token: await h.tokens.user() });
    const song = { trackName: "x", artistName: "y" };
    expect(await codeOf(user.addRecentSong({ slug: "a", roomUuid: randomUUID(), song }))).toBe(Code.Unauthenticated);
    const stage = h.client(RecentSongsService, { token: await h.tokens.service("room") });
    expect(await codeOf(stage.addRecentSong({ slug: "a", roomUuid: "nope", song }))).toBe(Code.InvalidArgument);
    expect(await codeOf(stage.addRecentSong({ slug: "a", roomUuid: randomUUID() }))).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        stage.addRecentSong({
          slug: "a",
          roomUuid: randomUUID(),
          song,
          playedAt: timestampFromDate(new Date(Date.now() + 86_400_000)),
        }),
      ),
    ).toBe(Code.InvalidArgument);
    const reader = h.client(RecentSongsService, { token: await h.tokens.service("social") });
    expect(await codeOf(reader.listRecentSongs({ slug: "a", limit: 101 }))).toBe(Code.InvalidArgument);
    // Without the room service to ask, a caller who is not a service is refused, never answered unchecked.
    expect(await codeOf(h.client(RecentSongsService).listRecentSongs({ slug: "a" }))).toBe(Code.Unavailable);
  });
});
