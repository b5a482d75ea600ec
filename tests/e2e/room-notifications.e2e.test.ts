// Devices, the contact book and notifications of the room service over REST through the gateway, on the embedded
// default (the development push provider): every path with its success and its refusals (another user's device
// or contact book is never readable or changeable; sending mobile notifications is for admins and services).
import { createECDH, randomBytes } from "node:crypto";
import { eventually } from "@tt/kit/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { expectStatus, r, room, user } from "./support/room-social.ts";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;
let service: string;
const call = (method: string, path: string, token?: string, body?: unknown) =>
  platform.call(method, path, { token, body });

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  service = await platform.serviceToken("social");
});

describe("devices", () => {
  it("register, read, list and remove one's own devices; another user's are refused; admins see any", async () => {
    const ann = await user(platform);
    const bob = await user(platform);
    const reg = await call("POST", r("/devices"), ann.token, { token: "ann-phone-1", devicePlatform: "ios" });
    expectStatus(reg, 200);
    expect(reg.body).toMatchObject({ userId: ann.id, devicePlatform: "ios" });
    expectStatus(
      await call("POST", r("/devices"), ann.token, { token: "t", devicePlatform: "blackberry" }),
      400,
      "devicePlatform must be one of ios, android, web",
    );
    await call("POST", r("/devices"), ann.token, { token: "ann-phone-2", devicePlatform: "android" });

    expectStatus(await call("GET", r(`/devices/single-device/${ann.id}/ann-phone-1`), ann.token), 200);
    expectStatus(await call("GET", r(`/devices/single-device/${ann.id}/ann-phone-1`), bob.token), 403, "Forbidden");
    expectStatus(await call("GET", r(`/devices/single-device/${ann.id}/ann-phone-1`), admin), 200);
    expect((await call("GET", r(`/devices/all-devices/${ann.id}?limit=10`), ann.token)).body).toMatchObject({
      total: 2,
    });
    expectStatus(await call("GET", r(`/devices/all-devices/${ann.id}`), bob.token), 403);
    expect((await call("GET", r(`/devices/all-devices/${ann.id}`), service)).body).toMatchObject({ total: 2 });

    expectStatus(await call("DELETE", r("/devices/ann-phone-1"), bob.token), 404, "device not found");
    expectStatus(await call("DELETE", r(`/devices/${ann.id}/ann-phone-2`), bob.token), 403);
    expectStatus(await call("DELETE", r("/devices/ann-phone-1"), ann.token), 200);
    expectStatus(await call("DELETE", r(`/devices/${ann.id}/ann-phone-2`), ann.token), 200);
    expectStatus(await call("GET", r(`/devices/single-device/${ann.id}/ann-phone-2`), ann.token), 404);
    expectStatus(await call("POST", r("/devices"), undefined, { token: "x", devicePlatform: "ios" }), 401);
  });
});

describe("contact book", () => {
  it("upload, add one, list, match, invite matches, admin view, delete; books are private", async () => {
    const ann = await user(platform);
    const bob = await platform.signUp();
    const eve = await user(platform);
    // Bob's sign-up e-mail is not verified: it does not match until it is.
    const up = await call("POST", r("/user-book-contact"), ann.token, {
      contacts: [{ name: "Bob", emails: [bob.user.email], phoneNumbers: ["+1 212 555 0100"] }],
    });
    expectStatus(up, 200);
    expect(up.body).toMatchObject({ stored: 2 });
    expectStatus(
      await call("POST", r("/user-book-contact/single"), ann.token, { contact: { emails: ["carol@example.test"] } }),
      200,
    );
    const list = await call("GET", r("/user-book-contact?limit=10&offset=0"), ann.token);
    expect(list.body).toMatchObject({ total: 3 });
    expect(JSON.stringify(list.body)).not.toContain("example.test");
    expect((await call("GET", r("/user-book-contact"), eve.token)).body.total ?? 0).toBe(0);
    expect((await call("GET", r("/user-book-contact/matching-contacts"), ann.token)).body.total ?? 0).toBe(0);
    expect(
      (await call("POST", r("/user-book-contact/matching-contacts-friends"), ann.token, {})).body.invitedUserIds ?? [],
    ).toEqual([]);
    expectStatus(await call("GET", r(`/user-book-contact/admin/${ann.id}`), eve.token), 401);
    expect((await call("GET", r(`/user-book-contact/admin/${ann.id}`), admin)).body).toMatchObject({ total: 3 });
    expect((await call("DELETE", r("/user-book-contact"), eve.token)).body.deleted ?? 0).toBe(0);
    expect((await call("DELETE", r("/user-book-contact"), ann.token)).body).toMatchObject({ deleted: 3 });
    expectStatus(await call("POST", r("/user-book-contact"), undefined, { contacts: [] }), 401);
  });
});

describe("notifications", () => {
  it("admins and services send mobile notifications on every documented path; users are refused", async () => {
    const ann = await user(platform);
    await call("POST", r("/devices"), ann.token, { token: "ann-notify-phone", devicePlatform: "android" });
    const roomId = await room(platform, ann);
    const paths: [string, unknown][] = [
      ["/mobileNotification", { tokens: ["ann-notify-phone"], title: "T", body: "B" }],
      ["/mobileNotification/admin", { userIds: [ann.id], body: "B" }],
      ["/mobileNotification/silent-notification", { tokens: ["ann-notify-phone"], data: { sync: "1" } }],
      ["/mobileNotification/custom-message", { userIds: [ann.id], body: "B" }],
      ["/mobileNotification/all-devices", { body: "B" }],
      ["/mobileNotification/user", { userId: ann.id, body: "B" }],
      ["/mobileNotification/user/admin", { userId: ann.id, body: "B" }],
      ["/mobileNotification/user/admin/silent-nofitication", { userId: ann.id, data: { a: "b" } }],
      ["/mobileNotification/room-users", { roomId, userIds: [ann.id], body: "B" }],
      ["/notifications/custom-message", { userIds: [ann.id], body: "B" }],
      ["/web-notifications/push-notification", { userIds: [ann.id], body: "B" }],
    ];
    for (const [path, body] of paths) {
      const res = await call("POST", r(path), admin, body);
      expectStatus(res, 200);
      expectStatus(await call("POST", r(path), ann.token, body), 401);
      expectStatus(await call("POST", r(path), undefined, body), 401);
    }
    expectStatus(
      await call("POST", r("/mobileNotification/user"), service, { userId: ann.id, body: "from a service" }),
      200,
    );
    const sent = await call("POST", r("/mobileNotification/user"), admin, { userId: ann.id, body: "B" });
    expect(sent.body).toMatchObject({ recipients: 1, sent: 1 });
    expectStatus(
      await call("POST", r("/mobileNotification/user"), admin, { userId: "nope", body: "B" }),
      400,
      "userId must be a uuid",
    );

    const inbox = await call("GET", r("/room-users-notification?limit=5"), ann.token);
    expect((inbox.body.notifications as { kind: string }[]).map((n) => n.kind)).toEqual(["room"]);
    expectStatus(await call("GET", r("/room-users-notification"), undefined), 401);
  });

  it("room managers message their room's users; DJs notify their fans once per interval; the live stage's call is service-only", async () => {
    const dj = await user(platform);
    const fan = await user(platform);
    const stranger = await user(platform);
    const roomId = await room(platform, dj);
    await call("POST", r("/dj-fans"), fan.token, { djId: dj.id });

    const fromRoom = { roomId, userIds: [fan.id], body: "welcome" };
    expectStatus(await call("POST", r("/notifications/custom-message-from-room"), dj.token, fromRoom), 200);
    expectStatus(
      await call("POST", r("/notifications/custom-message-from-room"), stranger.token, fromRoom),
      403,
      "Forbidden",
    );

    // Queued (issue 29): the fan gets it after the answer.
    expect((await call("POST", r("/notifications/dj-fans"), dj.token, { roomId })).body).toMatchObject({
      queued: true,
    });
    expectStatus(
      await call("POST", r("/notifications/dj-fans"), dj.token, { roomId }),
      429,
      "DJ fans were notified recently",
    );
    const inbox = await eventually(
      "the fan's inbox",
      () => call("GET", r("/dj-fans-notification"), fan.token),
      (res) => (res.body.total as number) >= 1,
    );
    expect(inbox.body).toMatchObject({ total: 1 });
    expectStatus(
      await call("POST", r("/service/notifications/dj-started-playing"), dj.token, { djId: dj.id, roomId }),
      401,
    );
    expect(
      (await call("POST", r("/service/notifications/dj-started-playing"), service, { djId: dj.id, roomId })).body,
    ).toMatchObject({ skipped: true });
  });

  it("web push: the public key, subscriptions (https only on the default), pushes by admins", async () => {
    const ann = await user(platform);
    const key = await call("GET", r("/web-notifications/public-key"));
    expectStatus(key, 200);
    expect(Buffer.from(key.body.publicKey as string, "base64url")).toHaveLength(65);
    const keys = {
      p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
      auth: randomBytes(16).toString("base64url"),
    };
    expectStatus(
      await call("POST", r("/web-notifications/subscription"), ann.token, {
        endpoint: "https://push.example.test/abc",
        keys,
      }),
      200,
    );
    expectStatus(
      await call("POST", r("/web-notifications/subscription"), ann.token, {
        endpoint: "http://push.example.test/abc",
        keys,
      }),
      400,
      "endpoint must be an https URL",
    );
    expectStatus(
      await call("POST", r("/web-notifications/subscription"), ann.token, {
        endpoint: "https://push.example.test/abc",
      }),
      400,
    );
    expectStatus(
      await call("POST", r("/web-notifications/subscription"), ann.token, {
        endpoint: "https://169.254.169.254/latest",
        keys,
      }),
      400,
      "endpoint must be a public push service",
    );
    expectStatus(
      await call("POST", r("/web-notifications/subscription"), undefined, {
        endpoint: "https://push.example.test/abc",
        keys,
      }),
      401,
    );
  });
});
