import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { OutboxMessage } from "@tt/kit";
import { roomServiceDefinition } from "../index.ts";
import { refusal } from "../testing/refusal.ts";
import { testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(DjFanService, { token: u.token });

describe("DJ fans", () => {
  it("follows once, counts, pages of 12 by default and at most 150, unfollows", async () => {
    const dj = await testUser(h);
    const fans = await Promise.all(Array.from({ length: 14 }, () => testUser(h)));
    for (const fan of fans) await as(fan).followDj({ djId: dj.id });
    await refusal(as(fans[0]!).followDj({ djId: dj.id }), Code.AlreadyExists, "DJ already followed");
    await refusal(as(dj).followDj({ djId: dj.id }), Code.InvalidArgument, "you cannot follow yourself");
    await refusal(as(dj).followDj({ djId: "00000000-0000-4000-8000-000000000000" }), Code.NotFound, "User not found");

    const first = await as(fans[0]!).listDjFansPaginated({ id: dj.id });
    expect(first).toMatchObject({ total: 14, take: 12, skip: 0 });
    expect(first.djFans).toHaveLength(12);
    const second = await as(fans[0]!).listDjFans({ id: dj.id, skip: 12 });
    expect(second.djFans).toHaveLength(2);
    await refusal(
      as(fans[0]!).listDjFans({ id: dj.id, take: 151 }),
      Code.InvalidArgument,
      "take must be between 0 and 150",
    );
    expect((await as(fans[0]!).listDjFans({ id: dj.id, take: 150 })).djFans).toHaveLength(14);

    await expect(as(dj).countDjFans({ id: dj.id })).resolves.toMatchObject({ fans: 14, following: 0 });
    await expect(as(dj).countDjFans({ id: fans[1]!.id })).resolves.toMatchObject({ fans: 0, following: 1 });
    expect((await as(fans[1]!).listMyFollowedDjs({})).djFans.map((f) => f.djId)).toEqual([dj.id]);
    expect((await as(dj).listDjsFollowed({ id: fans[1]!.id })).total).toBe(1);
    await expect(as(fans[1]!).getDjFan({ id: dj.id })).resolves.toMatchObject({ djFan: { fanId: fans[1]!.id } });
    await refusal(as(dj).getDjFan({ id: fans[1]!.id }), Code.NotFound, "DJ not followed");

    await as(fans[1]!).unfollowDj({ id: dj.id });
    await refusal(as(fans[1]!).unfollowDj({ id: dj.id }), Code.NotFound, "DJ not followed");
    await expect(as(dj).countDjFans({ id: dj.id })).resolves.toMatchObject({ fans: 13 });
    const events = (await h.orm.em.fork().find(OutboxMessage, { subject: { $like: "tt.room.dj.%" } }))
      .filter((m) => m.headers?.["tt-aggregate-id"] === dj.id)
      .map((m) => m.subject);
    expect(events.filter((s) => s === "tt.room.dj.followed")).toHaveLength(14);
    expect(events.filter((s) => s === "tt.room.dj.unfollowed")).toHaveLength(1);
  });

  it("the admin view and the fans' devices are for admins and services only", async () => {
    const admin = await testUser(h, "admin");
    const dj = await testUser(h);
    const fan = await testUser(h);
    await as(fan).followDj({ djId: dj.id });
    await h
      .client(DeviceService, { token: fan.token })
      .registerDevice({ token: "fan-device-token", devicePlatform: "ios" });
    await expect(as(admin).adminGetDjFans({ id: dj.id })).resolves.toMatchObject({ fans: 1, following: 0 });
    await refusal(as(dj).adminGetDjFans({ id: dj.id }), Code.Unauthenticated);
    await refusal(as(dj).listDjFanDevices({ djId: dj.id }), Code.Unauthenticated);
    const service = h.client(DjFanService, { token: await h.tokens.service("social") });
    const devices = await service.listDjFanDevices({ djId: dj.id });
    expect(devices.devices.map((d) => [d.userId, d.token, d.devicePlatform])).toEqual([
      [fan.id, "fan-device-token", "ios"],
    ]);
    expect((await as(admin).listDjFanDevices({ djId: dj.id })).total).toBe(1);
  });
});
