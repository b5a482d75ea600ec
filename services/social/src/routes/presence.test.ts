// Issue 14: the stage answers the room service's live questions. The social service on the real host with the
// user, playlist and room services alongside (in-process calls, the test run's NATS and PostgreSQL): the room
// service's room state, room users and played time come from PresenceService while a DJ plays; the played time
// counts each ended play once, whatever the number of events announcing it.
import { randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { publishEvent } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness, codeOf } from "@tt/kit/testing";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { SongPlayedSchema } from "@tt/proto/tt/social/v1/events_pb";
import { PresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { signUpAccount } from "@tt/user-service/testing/sign-up";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { socialServiceDefinition } from "../index.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(socialServiceDefinition, {
    alongside: [userServiceDefinition, playlistServiceDefinition, roomServiceDefinition],
    env: { SOCIAL_LEASE_TTL_MS: "1000", SOCIAL_PRESENCE_INTERVAL_MS: "200" },
  });
}, 120_000);
afterAll(() => h?.close());

const account = () => signUpAccount(h);

/** Reads until `done` holds (the stage and the consumers are asynchronous), at most 30 s. */

/** A join stream kept open in the background (the listener is present while it is). */
function listen(token: string, room: string): () => void {
  const abort = new AbortController();
  void (async () => {
    try {
      for await (const _ of h.client(StageService, { token }).join({ room }, { signal: abort.signal })) void _;
    } catch {
      // ended by the test
    }
  })();
  return () => abort.abort();
}

describe("presence answers", () => {
  it("the room service's room state, users and played time come from the stage while a DJ plays", async () => {
    const dj = await account();
    const listener = await account();
    const room = (await h.client(RoomService, { token: dj.token }).createRoom({ name: `Presence ${randomUUID()}` }))
      .room!;
    await h.client(CrateService, { token: dj.token }).addQueueSongs({
      songs: [{ trackName: `P ${randomUUID().slice(0, 6)}`, artistName: "Presence", duration: 3 }],
    });
    const presence = h.client(PresenceService, { token: await h.tokens.service("room") });
    // No stage yet: the counts are 0 and the room service says the stage answered.
    expect((await presence.getRoomPresence({ roomUuid: room.uuid })).presence).toMatchObject({
      hasStage: false,
      users: 0,
      playedSeconds: 0n,
    });

    const stops = [
      listen(dj.token, room.uuid),
      listen(listener.token, room.uuid),
      listen(await h.tokens.guest(), room.uuid),
    ];
    try {
      await h.client(StageService, { token: dj.token }).takeSeat({ room: room.uuid });
      const live = await eventually(
        "the room's presence",
        async () => (await presence.getRoomPresence({ roomUuid: room.uuid })).presence!,
        (p) => p.users === 2 && p.guests === 1 && p.play !== undefined,
      );
      expect(live).toMatchObject({ hasStage: true, djUuids: [dj.uuid], play: { djUuid: dj.uuid, artist: "Presence" } });

      const info = h.client(InfoService, { token: listener.token });
      expect(await info.getRoomState({ id: room.slug })).toMatchObject({
        roomUuid: room.uuid,
        usersCount: 3,
        source: "social-service",
      });
      const users = await h.client(RoomService, { token: listener.token }).listRoomUsers({ id: room.uuid });
      expect(users.source).toBe("social-service");
      expect(users.total).toBe(2);
      expect(users.users.map((u) => u.userUuid).sort()).toEqual([dj.uuid, listener.uuid].sort());
      expect(users.users.find((u) => u.userUuid === dj.uuid)!.roles).toContain("owner");

      // The 3-second song ends (the DJ's queue then holds it again: it keeps playing; at least one play ended).
      const played = await eventually(
        "the room's presence",
        () => info.getRoomPlayedTime({ id: room.uuid }),
        (r) => r.playedSeconds >= 3n,
      );
      expect(played.playedSeconds).toBeGreaterThanOrEqual(3n);
      const listeners = await presence.listRoomListeners({ roomUuid: room.uuid, limit: 1 });
      expect(listeners).toMatchObject({ total: 2, guests: 1 });
      expect(listeners.listeners).toHaveLength(1);
      const counts = await presence.getRoomsPresence({ roomUuids: [room.uuid, randomUUID()] });
      expect(counts.rooms.map((r) => [r.users, r.guests])).toEqual([
        [2, 1],
        [0, 0],
      ]);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it("counts an ended play once per play id; admin's played seconds sum every room", async () => {
    const roomUuid = randomUUID();
    const play = {
      roomUuid,
      roomSlug: "counted",
      playId: randomUUID(),
      djUuid: randomUUID(),
      startedAt: timestampFromDate(new Date(Date.now() - 60_000)),
      endedAt: timestampFromDate(new Date()),
      playedSeconds: 42.6,
      endReason: "ended",
    };
    const presence = h.client(PresenceService, { token: await h.tokens.service("room") });
    const before = (await presence.getPlayedSeconds({})).playedSeconds;
    for (const event of [play, play, { ...play, playId: randomUUID(), playedSeconds: 10 }]) {
      await h.orm.em.fork().transactional(async (em) => {
        publishEvent(em, SongPlayedSchema, event);
      });
    }
    const after = await eventually(
      "the room's presence",
      async () => (await presence.getRoomPresence({ roomUuid })).presence!.playedSeconds,
      (s) => s >= 52n,
    );
    expect(after).toBe(52n);
    expect((await presence.getPlayedSeconds({})).playedSeconds).toBeGreaterThanOrEqual(before + 52n);
  });

  it("is for services only and refuses bad input with a 400", async () => {
    const user = await account();
    expect(await codeOf(h.client(PresenceService, { token: user.token }).getPlayedSeconds({}))).toBe(
      Code.Unauthenticated,
    );
    const presence = h.client(PresenceService, { token: await h.tokens.service("room") });
    expect(await codeOf(presence.getRoomPresence({ roomUuid: "not-a-uuid" }))).toBe(Code.InvalidArgument);
    expect(
      await codeOf(presence.getRoomsPresence({ roomUuids: Array.from({ length: 201 }, () => randomUUID()) })),
    ).toBe(Code.InvalidArgument);
    expect(await codeOf(presence.listRoomListeners({ roomUuid: randomUUID(), limit: 501 }))).toBe(Code.InvalidArgument);
  });
});
