// Issue 14: the live stage's SongStarted notifies the DJ's fans through the room service's durable consumer. The
// events are written here through the room service's own outbox (its relay publishes them on their subject,
// tt.social.song.started), so the test needs no social service: real NATS, real PostgreSQL, the user service
// alongside for the accounts and the DJ's name.
import { randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { publishEvent } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { SongStartedSchema } from "@tt/proto/tt/social/v1/events_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roomServiceDefinition } from "../../index.ts";
import { seedRoom, testUser } from "../../testing/people-fixtures.ts";

let h: ServiceHarness;
beforeAll(async () => {
  // A zero interval: every SongStarted event may notify, so "once" below is the consumer's idempotency alone.
  h = await createServiceHarness(roomServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: "0" },
  });
});
afterAll(() => h?.close());

async function titlesOf(token: string): Promise<string[]> {
  const inbox = await h.client(DjFanService, { token }).listDjFansNotifications({});
  return inbox.notifications.map((n) => `${n.title} / ${n.body}`);
}

/** Reads until `read` gives `want` (the consumer is asynchronous), at most 20 s; returns the last reading. */

describe("SongStarted consumer", () => {
  it("notifies the DJ's fans once per play, with the DJ's nickname and the room's name", async () => {
    const dj = await testUser(h);
    const fan = await testUser(h);
    const stranger = await testUser(h);
    await h.client(ProfileService, { token: dj.token }).updateProfile({ nickname: "Night Owl" });
    await h.client(DjFanService, { token: fan.token }).followDj({ djId: dj.id });
    const room = await seedRoom(h, dj.id);
    const event = {
      roomUuid: room,
      roomSlug: "club",
      playId: randomUUID(),
      djUuid: dj.id,
      song: { title: "Song", artist: "Artist", duration: 180 },
      startedAt: timestampFromDate(new Date()),
    };
    // The same play announced twice (two event ids, as a song timer taken over by another instance may write
    // it), then a second play by the same DJ: two notifications (the interval is zero here), not three.
    for (const e of [event, event, { ...event, playId: randomUUID() }]) {
      await h.orm.em.fork().transactional(async (em) => {
        publishEvent(em, SongStartedSchema, e);
      });
    }
    const titles = await eventually(
      "the fan's notifications",
      () => titlesOf(fan.token),
      (t) => t.length >= 2,
    );
    const roomName = `Room ${room.slice(0, 8)}`;
    expect(titles).toEqual([
      `Night Owl is playing / Now playing in ${roomName}.`,
      `Night Owl is playing / Now playing in ${roomName}.`,
    ]);
    expect(await titlesOf(stranger.token)).toEqual([]);
    // A later play lands: everything before it has been handled, and the repeated play notified once.
    await h.orm.em.fork().transactional(async (em) => {
      publishEvent(em, SongStartedSchema, { ...event, playId: randomUUID() });
    });
    expect(
      await eventually(
        "the fan's notifications",
        () => titlesOf(fan.token),
        (t) => t.length >= 3,
      ),
    ).toHaveLength(3);
  });

  it("ignores an event without a DJ uuid or about a song long over, and keeps consuming", async () => {
    const dj = await testUser(h);
    const fan = await testUser(h);
    await h.client(DjFanService, { token: fan.token }).followDj({ djId: dj.id });
    const room = await seedRoom(h, dj.id);
    await h.orm.em.fork().transactional(async (em) => {
      publishEvent(em, SongStartedSchema, { roomUuid: room, playId: randomUUID(), djUuid: "not-a-uuid" });
      publishEvent(em, SongStartedSchema, {
        roomUuid: room,
        playId: randomUUID(),
        djUuid: dj.id,
        startedAt: timestampFromDate(new Date(Date.now() - 20 * 60_000)),
      });
      publishEvent(em, SongStartedSchema, { roomUuid: room, playId: randomUUID(), djUuid: dj.id });
    });
    const titles = await eventually(
      "the fan's notifications",
      () => titlesOf(fan.token),
      (t) => t.length >= 1,
    );
    // One notification: the play with a DJ (named by the user service's default nickname).
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(new RegExp(`^.+ is playing / Now playing in Room ${room.slice(0, 8)}\\.$`));
  });
});
