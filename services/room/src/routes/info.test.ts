import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceHarness } from "@tt/kit/testing";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { Room } from "../modules/rooms/room.entity.ts";
import { account, roomOf, startRoomHarness } from "../testing/room-harness.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await startRoomHarness();
});
afterAll(() => h?.close());

describe("InfoService", () => {
  it("hello answers the service's API version without a token", async () => {
    await expect(h.client(InfoService).hello({})).resolves.toMatchObject({
      service: "room-service",
      version: "1.2.23",
    });
  });

  it("answers the admin figures", async () => {
    const admin = await account(h, "admin");
    const owner = await account(h);
    const room = await roomOf(h, owner);
    await h.client(RoomService, { token: owner.token }).setLiveState({ id: room.uuid, isLive: true });
    // The room went live an hour ago (set in the database: no waiting).
    await h.orm.em.fork().nativeUpdate(Room, { id: room.uuid }, { liveSince: new Date(Date.now() - 3_600_000) });
    const info = h.client(InfoService, { token: admin.token });
    expect((await info.getStatus({})).liveRooms).toBeGreaterThanOrEqual(1);
    expect((await info.getPlayedSeconds({})).playedSeconds).toBeGreaterThanOrEqual(3600n);
    expect(await info.getRoomServiceStatus({})).toMatchObject({ service: "room-service", database: "ok" });
    const played = await h.client(InfoService, { token: owner.token }).getRoomPlayedTime({ id: room.uuid });
    expect(played.playedSeconds).toBeGreaterThanOrEqual(3600n);
    const state = await h.client(InfoService, { token: owner.token }).getRoomState({ id: room.slug });
    expect(state).toMatchObject({ roomUuid: room.uuid, isLive: true, source: "room-service", numberOfDjs: 5 });
  });
});
