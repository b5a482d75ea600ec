import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { refusal } from "../testing/refusal.ts";
import { testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(DeviceService, { token: u.token });

describe("devices", () => {
  it("registers by platform, reads and removes only the caller's own devices (admins any)", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const admin = await testUser(h, "admin");
    const { device } = await as(ann).registerDevice({ token: "ann:ios-token_1", devicePlatform: "ios" });
    expect(device).toMatchObject({ userId: ann.id, token: "ann:ios-token_1", devicePlatform: "ios" });
    await as(ann).registerDevice({ token: "ann-web", devicePlatform: "web" });
    await refusal(
      as(ann).registerDevice({ token: "x", devicePlatform: "windows" }),
      Code.InvalidArgument,
      "devicePlatform must be one of ios, android, web",
    );
    await refusal(
      as(ann).registerDevice({ token: "bad token with spaces", devicePlatform: "ios" }),
      Code.InvalidArgument,
    );

    expect((await as(ann).listUserDevices({ userId: ann.id })).total).toBe(2);
    await refusal(as(bob).listUserDevices({ userId: ann.id }), Code.PermissionDenied, "Forbidden");
    await refusal(as(bob).getUserDevice({ userId: ann.id, token: "ann-web" }), Code.PermissionDenied);
    await refusal(as(bob).deleteUserDevice({ userId: ann.id, token: "ann-web" }), Code.PermissionDenied);
    await refusal(as(bob).deleteDevice({ token: "ann-web" }), Code.NotFound, "device not found");
    await expect(as(admin).getUserDevice({ userId: ann.id, token: "ann-web" })).resolves.toMatchObject({
      device: { devicePlatform: "web" },
    });
    const service = h.client(DeviceService, { token: await h.tokens.service("social") });
    expect((await service.listUserDevices({ userId: ann.id })).total).toBe(2);

    await as(ann).deleteDevice({ token: "ann-web" });
    await as(ann).deleteUserDevice({ userId: ann.id, token: "ann:ios-token_1" });
    await refusal(as(ann).getUserDevice({ userId: ann.id, token: "ann-web" }), Code.NotFound);
    expect((await as(ann).listUserDevices({ userId: ann.id })).total).toBe(0);
  });

  it("a token registered again by another user moves to them", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    await as(ann).registerDevice({ token: "shared-phone", devicePlatform: "android" });
    await as(bob).registerDevice({ token: "shared-phone", devicePlatform: "android" });
    expect((await as(ann).listUserDevices({ userId: ann.id })).total).toBe(0);
    expect((await as(bob).listUserDevices({ userId: bob.id })).devices.map((d) => d.token)).toEqual(["shared-phone"]);
  });
});
