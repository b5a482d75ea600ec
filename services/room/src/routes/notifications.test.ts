import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { isPublicHost } from "./notifications.ts";
import { Notification } from "../modules/notifications/notification.entity.ts";
import { WebPushSubscription } from "../modules/notifications/web-push-subscription.entity.ts";
import { browserKeys, GONE, startFakePush, type FakePush } from "../testing/fake-push.ts";
import { refusal } from "../testing/refusal.ts";
import { seedRoom, testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
let push: FakePush;
let admin: TestUser;
beforeAll(async () => {
  push = await startFakePush();
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition], env: push.env });
  admin = await testUser(h, "admin");
});
afterAll(async () => {
  await h?.close();
  await push?.close();
});
beforeEach(() => {
  push.server.requests.length = 0;
});

const as = (u: TestUser) => h.client(NotificationService, { token: u.token });
const device = (u: TestUser, token: string, platform = "android") =>
  h.client(DeviceService, { token: u.token }).registerDevice({ token, devicePlatform: platform });

describe("mobile notifications", () => {
  it("admins push to tokens, users, everyone; gone tokens are removed; users cannot send", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    await device(ann, "ann-phone");
    await device(ann, "ann-tablet", "ios");
    await device(bob, `${GONE}-bob-phone`);

    const toTokens = await as(admin).sendMobileNotification({
      tokens: ["ann-phone", "unknown"],
      title: "T",
      body: "B",
    });
    expect(toTokens).toMatchObject({ recipients: 1, sent: 1, failed: 0 });
    expect(push.fcmTokens()).toEqual(["ann-phone"]);

    const toUsers = await as(admin).sendAdminMobileNotification({ userIds: [ann.id, bob.id], body: "hello" });
    expect(toUsers).toMatchObject({ recipients: 2, sent: 2, failed: 1, removed: 1 });
    expect((await h.client(DeviceService, { token: bob.token }).listUserDevices({ userId: bob.id })).total).toBe(0);

    const silent = await as(admin).sendAdminUserSilentNotification({ userId: ann.id, data: { sync: "1" } });
    expect(silent).toMatchObject({ recipients: 0, sent: 2 });
    // Every device is pushed to after the answer (issue 29): the answer says it is queued.
    push.server.requests.length = 0;
    const everyone = await as(admin).sendToAllDevices({ title: "News", body: "for all" });
    expect(everyone).toMatchObject({ queued: true, recipients: 0, sent: 0, skipped: false });
    expect(
      await eventually(
        "every device pushed to",
        () => push.fcmTokens().sort(),
        (t) => t.length >= 2,
      ),
    ).toEqual(["ann-phone", "ann-tablet"]);

    for (const call of [
      as(ann).sendToAllDevices({ body: "x" }),
      as(ann).sendMobileNotification({ tokens: ["ann-phone"], body: "x" }),
      as(ann).sendUserNotification({ userId: bob.id, body: "x" }),
      as(ann).sendCustomMessage({ userIds: [bob.id], body: "x" }),
      as(ann).sendWebPush({ body: "x" }),
    ]) {
      await refusal(call, Code.Unauthenticated);
    }
    await refusal(
      as(admin).sendAdminMobileNotification({ body: "x" }),
      Code.InvalidArgument,
      "userIds missing in request",
    );
    await refusal(as(admin).sendCustomMessage({ userIds: [ann.id] }), Code.InvalidArgument, "body missing in request");
  });

  it("services push to a user and to a room's users; the room's notifications land in each user's inbox", async () => {
    const service = h.client(NotificationService, { token: await h.tokens.service("social") });
    const ann = await testUser(h);
    await device(ann, "ann-room-phone");
    const room = await seedRoom(h, admin.id);
    await service.sendRoomUsersNotification({
      roomId: room,
      userIds: [ann.id],
      title: "Room",
      body: "a song you like",
    });
    await service.sendUserNotification({ userId: ann.id, body: "just you" });
    expect(push.fcmTokens()).toEqual(["ann-room-phone", "ann-room-phone"]);
    const inbox = await as(ann).listRoomUsersNotifications({});
    expect(inbox.notifications.map((n) => [n.kind, n.body, n.roomId])).toEqual([["room", "a song you like", room]]);

    // A notification older than the inbox's 90 days goes when the next one arrives.
    await h.orm.em
      .fork()
      .nativeUpdate(
        Notification,
        { userId: ann.id, kind: "room" },
        { createdAt: new Date(Date.now() - 91 * 86_400_000) },
      );
    await service.sendRoomUsersNotification({ roomId: room, userIds: [ann.id], body: "a newer one" });
    expect((await as(ann).listRoomUsersNotifications({})).notifications.map((n) => n.body)).toEqual(["a newer one"]);
    expect((await as(admin).listRoomUsersNotifications({})).total).toBe(0);
  });

  it("a room's managers message its users; others are refused", async () => {
    const owner = await testUser(h);
    const mod = await testUser(h);
    const stranger = await testUser(h);
    const listener = await testUser(h);
    const room = await seedRoom(h, owner.id, [mod.id]);
    await as(owner).sendCustomMessageFromRoom({ roomId: room, userIds: [listener.id], body: "welcome" });
    await as(mod).sendCustomMessageFromRoom({ roomId: room, userIds: [listener.id], body: "be nice" });
    await refusal(
      as(stranger).sendCustomMessageFromRoom({ roomId: room, userIds: [listener.id], body: "spam" }),
      Code.PermissionDenied,
      "Forbidden",
    );
    await refusal(
      as(owner).sendCustomMessageFromRoom({
        roomId: "00000000-0000-4000-8000-000000000000",
        userIds: [listener.id],
        body: "x",
      }),
      Code.NotFound,
      "room not found",
    );
    const inbox = await as(listener).listRoomUsersNotifications({});
    expect(inbox.notifications.map((n) => n.body)).toEqual(["be nice", "welcome"]);
  });
});

describe("DJ-fan notifications", () => {
  it("the DJ notifies their fans once per interval; the live stage's call skips within it", async () => {
    const dj = await testUser(h);
    const fan = await testUser(h);
    const other = await testUser(h);
    await h.client(DjFanService, { token: fan.token }).followDj({ djId: dj.id });
    await device(fan, "fan-phone");
    await h
      .client(NotificationService, { token: fan.token })
      .subscribeWebPush({ endpoint: `${push.server.url}/push/fan-browser`, keys: browserKeys() });
    const room = await seedRoom(h, dj.id);

    const sent = await as(dj).notifyMyFans({ roomId: room });
    expect(sent).toMatchObject({ queued: true, skipped: false });
    await eventually(
      "the fan's phone and browser pushed to",
      () => push.fcmTokens().length + push.webPushPaths().length,
      (n) => n >= 2,
    );
    expect(push.fcmTokens()).toEqual(["fan-phone"]);
    expect(push.webPushPaths()).toEqual(["/push/fan-browser"]);
    await refusal(as(dj).notifyMyFans({ roomId: room }), Code.ResourceExhausted, "DJ fans were notified recently");

    const service = h.client(NotificationService, { token: await h.tokens.service("social") });
    await expect(service.notifyDjStartedPlaying({ djId: dj.id, roomId: room })).resolves.toMatchObject({
      skipped: true,
      sent: 0,
    });
    await refusal(
      h.client(NotificationService, { token: dj.token }).notifyDjStartedPlaying({ djId: dj.id, roomId: room }),
      Code.Unauthenticated,
    );

    const dj2 = await testUser(h);
    await h.client(DjFanService, { token: fan.token }).followDj({ djId: dj2.id });
    const played = await service.notifyDjStartedPlaying({
      djId: dj2.id,
      roomId: room,
      djName: "DJ Two",
      roomName: "The Club",
    });
    expect(played).toMatchObject({ skipped: false, queued: true });

    const inbox = await eventually(
      "the fan's inbox",
      () => h.client(DjFanService, { token: fan.token }).listDjFansNotifications({}),
      (i) => i.total >= 2,
    );
    // The DJ's own call names them by their nickname (the sign-up's address before the @ here).
    const nickname = (await h.client(ProfileService, { token: dj.token }).getProfile({ id: dj.id })).profile?.nickname;
    expect(nickname).toBeTruthy();
    expect(inbox.notifications.map((n) => n.title)).toEqual(["DJ Two is playing", `${nickname} is playing`]);
    expect(inbox.notifications[1]!.data).toMatchObject({ djId: dj.id, djName: nickname });
    expect((await h.client(DjFanService, { token: other.token }).listDjFansNotifications({})).total).toBe(0);
    await refusal(
      as(dj).notifyMyFans({ roomId: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "room not found",
    );
  });
});

describe("web push", () => {
  it("stores subscriptions, publishes the VAPID key, pushes to users or everyone (queued), forgets gone subscriptions", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const { publicKey } = await h.client(NotificationService).getWebPushPublicKey({});
    expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
    await as(ann).subscribeWebPush({ endpoint: `${push.server.url}/push/ann`, keys: browserKeys() });
    await as(bob).subscribeWebPush({ endpoint: `${push.server.url}/push/${GONE}-bob`, keys: browserKeys() });
    await refusal(
      as(ann).subscribeWebPush({ endpoint: `${push.server.url}/push/x`, keys: { p256dh: "short", auth: "x" } }),
      Code.InvalidArgument,
    );

    const one = await as(admin).sendWebPush({ userIds: [ann.id], title: "Hi", body: "there", url: "/rooms" });
    expect(one).toMatchObject({ recipients: 1, sent: 1 });
    // To every subscription: queued (issue 29), each browser is pushed to after the answer, and the gone one is
    // removed with the pushes of its chunk.
    const all = await as(admin).sendWebPush({ body: "everyone" });
    expect(all).toMatchObject({ queued: true, recipients: 0, sent: 0, removed: 0, skipped: false });
    await eventually(
      "the gone subscription removed",
      () => h.orm.em.fork().count(WebPushSubscription, { userId: bob.id }),
      (n) => n === 0,
    );
    expect(push.webPushPaths().filter((p) => p === "/push/ann")).toHaveLength(2);
    expect(push.webPushPaths().filter((p) => p === `/push/${GONE}-bob`)).toHaveLength(1);
    push.server.requests.length = 0;
    await as(admin).sendWebPush({ userIds: [bob.id], body: "again" });
    expect(push.webPushPaths()).toEqual([]);
  });
});

describe("the inbox and web push removal (issue 26)", () => {
  it("lists every kind newest first with the unread count; marks one's own read; another's ids are ignored", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    await as(admin).sendCustomMessage({ userIds: [ann.id], title: "From the admins", body: "first" });
    await as(admin).sendWebPush({ userIds: [ann.id, bob.id], title: "News", body: "second" });
    const before = await as(ann).listMyNotifications({});
    expect(before).toMatchObject({ total: 2, unread: 2 });
    expect(before.notifications.map((n) => [n.kind, n.body, n.read])).toEqual([
      ["admin", "second", false],
      ["custom", "first", false],
    ]);
    const bobs = (await as(bob).listMyNotifications({})).notifications.map((n) => n.id);
    expect(await as(ann).markNotificationsRead({ ids: [before.notifications[0]!.id, ...bobs] })).toEqual(
      expect.objectContaining({ updated: 1 }),
    );
    expect((await as(ann).markNotificationsRead({ ids: [before.notifications[0]!.id] })).updated).toBe(0);
    const after = await as(ann).listMyNotifications({ limit: 1 });
    expect(after).toMatchObject({ total: 2, unread: 1 });
    expect(after.notifications[0]!.read).toBe(true);
    expect((await as(bob).listMyNotifications({})).unread).toBe(1);
    await refusal(as(ann).markNotificationsRead({ ids: [] }), Code.InvalidArgument, "ids missing in request");
    await refusal(as(ann).markNotificationsRead({ ids: ["nope"] }), Code.InvalidArgument);
  });

  it("a user removes their own subscription (no more pushes to it); another's or an unknown one is not found", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const endpoint = `${push.server.url}/push/ann-unsubscribes`;
    await as(ann).subscribeWebPush({ endpoint, keys: browserKeys() });
    await refusal(as(bob).unsubscribeWebPush({ endpoint }), Code.NotFound, "subscription not found");
    await as(ann).unsubscribeWebPush({ endpoint });
    await refusal(as(ann).unsubscribeWebPush({ endpoint }), Code.NotFound, "subscription not found");
    await as(admin).sendWebPush({ userIds: [ann.id], body: "after logout" });
    expect(push.webPushPaths()).not.toContain("/push/ann-unsubscribes");
  });
});

describe("push endpoints", () => {
  it("only public hosts are push services", () => {
    for (const host of ["fcm.googleapis.com", "updates.push.services.mozilla.com", "8.8.8.8", "2001:4860::8888"]) {
      expect(isPublicHost(host), host).toBe(true);
    }
    for (const host of [
      "localhost",
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "[::1]",
      "fd00::1",
      "db.internal",
      "redis",
      "printer.local",
    ]) {
      expect(isPublicHost(host), host).toBe(false);
    }
  });
});
