// The room service's rooms, info and admin room paths through the gateway (REST, as the specification's clients
// call them): each path's success and its refusals (401 without a token, 400 for bad input naming the field, 403
// for a room role too low, 404 for an unknown room).
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

// The room service's live answers come from the live stage (the social service) in both modes: the local
// distributed runner, like the chart, gives every service every other's URL.
const LIVE_SOURCE = "social-service";

const r = (path: string) => `/api/room-service${path}`;

let platform: TestPlatform;
let admin: string;
let owner: { uuid: string; token: string };
let other: { uuid: string; token: string };

async function signUp() {
  const res = await platform.signUp();
  return { uuid: res.user.uuid, token: res.token };
}

interface RoomJson {
  uuid: string;
  slug: string;
  name: string;
  [key: string]: unknown;
}

async function createRoom(token: string, body: Record<string, unknown> = {}): Promise<RoomJson> {
  const res = await platform.call("POST", r("/rooms/infrastructure"), {
    token,
    body: { name: `E2E room ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(res.status).toBe(200);
  return res.body.room as RoomJson;
}

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  owner = await signUp();
  other = await signUp();
});

describe("hello and info", () => {
  it("GET /api/room-service answers the version without a token", async () => {
    const res = await platform.call("GET", r(""));
    expect(res).toMatchObject({ status: 200, body: { service: "room-service", version: "1.2.23" } });
  });

  it("the info-admin calls are for admins", async () => {
    for (const path of ["/info-admin/played-seconds", "/info-admin/status", "/info-admin/room-service-status"]) {
      expect((await platform.call("GET", r(path), { token: admin })).status).toBe(200);
      expect((await platform.call("GET", r(path), { token: owner.token })).status).toBe(401);
      expect((await platform.call("GET", r(path))).status).toBe(401);
    }
    const status = await platform.call("GET", r("/info-admin/room-service-status"), { token: admin });
    expect(status.body).toMatchObject({ service: "room-service", version: "1.2.23", database: "ok" });
  });

  it("room state and played time answer from the live stage, 404 for an unknown room", async () => {
    const room = await createRoom(owner.token);
    const state = await platform.call("GET", r(`/rooms/room-state/${room.uuid}`), { token: other.token });
    expect(state).toMatchObject({ status: 200, body: { roomUuid: room.uuid, source: LIVE_SOURCE } });
    const played = await platform.call("GET", r(`/rooms/room-played-time/${room.slug}`), { token: other.token });
    expect(played).toMatchObject({ status: 200, body: { roomUuid: room.uuid } });
    expect((await platform.call("GET", r(`/rooms/room-state/${randomUUID()}`), { token: other.token })).status).toBe(
      404,
    );
    expect((await platform.call("GET", r(`/rooms/room-state/${room.uuid}`))).status).toBe(401);
  });
});

describe("rooms", () => {
  it("POST /rooms/infrastructure creates a room; bad settings are 400s naming the field", async () => {
    const room = await createRoom(owner.token, { design: "FESTIVAL", djType: "INVITE_ONLY", numberOfDjs: 3 });
    expect(room).toMatchObject({ design: "FESTIVAL", djType: "INVITE_ONLY", numberOfDjs: 3, ownerUuid: owner.uuid });
    for (const [body, field] of [
      [{ name: "x", design: "DISCO" }, "design"],
      [{ name: "x", type: "SECRET" }, "type"],
      [{ name: "x", djType: "ANYONE" }, "djType"],
      [{ name: "x", numberOfDjs: 99 }, "numberOfDjs"],
      [{ name: "x", externalUrl: "ftp://x" }, "externalUrl"],
      [{ name: "x", musicProviders: ["napster", "gramophone"] }, "musicProviders"],
      [{}, "name"],
    ] as const) {
      const res = await platform.call("POST", r("/rooms/infrastructure"), { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(String(res.body.message)).toContain(field);
    }
    expect((await platform.call("POST", r("/rooms/infrastructure"), { body: { name: "x" } })).status).toBe(401);
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    expect(
      (await platform.call("POST", r("/rooms/infrastructure"), { token: guest, body: { name: "x" } })).status,
    ).toBe(401);
    expect(
      (await platform.call("POST", r("/rooms/infrastructure"), { token: owner.token, raw: "{not json" })).status,
    ).toBe(400);
  });

  it("GET /rooms/{id} by uuid or slug, /rooms/uuid/{uuid}, /rooms/multiple/list", async () => {
    const room = await createRoom(owner.token);
    for (const id of [room.uuid, room.slug]) {
      const res = await platform.call("GET", r(`/rooms/${id}`), { token: other.token });
      expect(res).toMatchObject({ status: 200, body: { room: { uuid: room.uuid } } });
    }
    expect((await platform.call("GET", r(`/rooms/uuid/${room.uuid}`), { token: other.token })).status).toBe(200);
    expect((await platform.call("GET", r("/rooms/uuid/not-a-uuid"), { token: other.token })).status).toBe(400);
    const missing = await platform.call("GET", r(`/rooms/${randomUUID()}`), { token: other.token });
    expect(missing).toMatchObject({ status: 404, body: { message: "Room not found" } });
    const multi = await platform.call("GET", r(`/rooms/multiple/list?room=${room.uuid}&room=${randomUUID()}`), {
      token: other.token,
    });
    expect((multi.body.rooms as RoomJson[]).map((x) => x.uuid)).toEqual([room.uuid]);
    expect((await platform.call("GET", r("/rooms/multiple/list?room=nope"), { token: other.token })).status).toBe(400);
    expect((await platform.call("GET", r(`/rooms/${room.uuid}`))).status).toBe(401);
  });

  it("the public list pages with limit and offset and refuses out-of-range pages", async () => {
    await createRoom(owner.token);
    await createRoom(owner.token);
    const page = await platform.call("GET", r("/rooms/public?limit=1&offset=1"), { token: other.token });
    expect(page.status).toBe(200);
    expect(page.body.rooms).toHaveLength(1);
    expect(Number(page.body.total)).toBeGreaterThanOrEqual(2);
    expect((await platform.call("GET", r("/rooms/public?limit=5000"), { token: other.token })).status).toBe(400);
    expect((await platform.call("GET", r("/rooms/public?offset=-1"), { token: other.token })).status).toBe(400);
    expect((await platform.call("GET", r("/rooms/public?limit=ten"), { token: other.token })).status).toBe(400);
    const count = await platform.call("GET", r("/rooms/private-count"), { token: other.token });
    expect(count.status).toBe(200);
  });

  it("mine, owned, recent and recently visited are the caller's own", async () => {
    const me = await signUp();
    const room = await createRoom(me.token);
    const joined = await platform.call("POST", r(`/rooms/${room.uuid}/join`), { token: other.token, body: {} });
    expect(joined.status).toBe(200);
    expect((await platform.call("GET", r("/rooms/mine/list"), { token: me.token })).body.total).toBe(1);
    expect((await platform.call("GET", r("/rooms/owned-rooms/list"), { token: me.token })).body.total).toBe(1);
    expect(
      (await platform.call("GET", r("/rooms/owned-rooms/list"), { token: other.token })).body.rooms,
    ).not.toContainEqual(expect.objectContaining({ uuid: room.uuid }));
    const recent = await platform.call("GET", r("/rooms/recent"), { token: other.token });
    expect((recent.body.rooms as RoomJson[])[0]!.uuid).toBe(room.uuid);
    const visited = await platform.call("GET", r("/rooms/rockset/recently-visited-rooms"), { token: other.token });
    expect(visited.body.rooms).toEqual(
      expect.arrayContaining([expect.objectContaining({ room: expect.objectContaining({ uuid: room.uuid }) })]),
    );
    const posted = await platform.call("POST", r("/rooms/recent"), { token: me.token, body: { roomId: room.uuid } });
    expect(posted.status).toBe(200);
    expect((await platform.call("POST", r("/rooms/recent"), { token: me.token, body: { roomId: "x" } })).status).toBe(
      400,
    );
    expect(
      (await platform.call("POST", r("/rooms/recent"), { token: me.token, body: { roomId: randomUUID() } })).status,
    ).toBe(404);
    expect((await platform.call("GET", r("/rooms/mine/list"))).status).toBe(401);
  });

  it("room users answer from the live stage; the service calls are for services", async () => {
    const room = await createRoom(owner.token);
    await platform.call("POST", r(`/rooms/${room.uuid}/join`), { token: other.token, body: {} });
    const users = await platform.call("GET", r(`/rooms/users/${room.uuid}`), { token: owner.token });
    expect(users).toMatchObject({ status: 200, body: { source: LIVE_SOURCE } });
    const service = await platform.serviceToken("live");
    expect((await platform.call("GET", r(`/rooms/users/service/${room.uuid}`), { token: service })).status).toBe(200);
    expect((await platform.call("GET", r(`/rooms/users/service/${room.uuid}`), { token: owner.token })).status).toBe(
      401,
    );
    expect((await platform.call("GET", r("/rooms/service/list?take=5&skip=0"), { token: service })).status).toBe(200);
    expect((await platform.call("GET", r("/rooms/service/list?take=5000"), { token: service })).status).toBe(400);
    expect((await platform.call("GET", r(`/rooms/service/room/${room.slug}`), { token: service })).status).toBe(200);
    expect((await platform.call("GET", r("/rooms/service/list"), { token: owner.token })).status).toBe(401);
  });

  it("each setting through its own call, refused to someone else's room", async () => {
    const room = await createRoom(owner.token);
    const calls: [string, string, Record<string, unknown>, (b: Record<string, unknown>) => void][] = [
      [
        "PATCH",
        `/rooms/${room.uuid}`,
        { name: `Renamed ${randomUUID().slice(0, 6)}` },
        (b) => expect(b.slug).not.toBe(room.slug),
      ],
      ["PATCH", `/rooms/${room.uuid}/infrastructure`, { design: "THEATER" }, (b) => expect(b.design).toBe("THEATER")],
      [
        "PATCH",
        `/rooms/dj-type/${room.uuid}/infrastructure`,
        { djType: "PRO_PLAN_OWNER" },
        (b) => expect(b.djType).toBe("PRO_PLAN_OWNER"),
      ],
      [
        "PATCH",
        `/rooms/live-audio/${room.uuid}/infrastructure`,
        { liveAudio: true },
        (b) => expect(b.liveAudio).toBe(true),
      ],
      ["PATCH", `/rooms/live-state/${room.uuid}/infrastructure`, { isLive: true }, (b) => expect(b.isLive).toBe(true)],
      [
        "PATCH",
        `/rooms/dj-seats/${room.uuid}/infrastructure`,
        { numberOfDjs: 2 },
        (b) => expect(b.numberOfDjs).toBe(2),
      ],
      [
        "POST",
        `/rooms/${room.uuid}/pinned-messages`,
        { pinnedMessages: ["welcome"] },
        (b) => expect(b.pinnedMessages).toEqual(["welcome"]),
      ],
      [
        "POST",
        `/rooms/${room.uuid}/externalUrl`,
        { externalUrl: "https://example.org/" },
        (b) => expect(b.externalUrl).toBe("https://example.org/"),
      ],
      ["POST", `/rooms/discord/123456`, { roomId: room.uuid }, (b) => expect(b.discordGuild).toBe("123456")],
      ["DELETE", `/rooms/conversation/${room.uuid}`, {}, (b) => expect(b.conversationClearedAt).toBeDefined()],
    ];
    for (const [method, path, body, check] of calls) {
      const refused = await platform.call(method, r(path), { token: other.token, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.message).toBe("Insufficient room role");
      expect((await platform.call(method, r(path), { body })).status, `${method} ${path}`).toBe(401);
      const ok = await platform.call(method, r(path), { token: owner.token, body });
      expect(ok.status, `${method} ${path} ${JSON.stringify(ok.body)}`).toBe(200);
      check(ok.body.room as Record<string, unknown>);
    }
    const guild = await platform.call("GET", r("/rooms/discord/list/123456"), { token: other.token });
    expect((guild.body.rooms as RoomJson[]).map((x) => x.uuid)).toContain(room.uuid);
    expect((await platform.call("GET", r("/rooms/discord/list/not-digits"), { token: other.token })).status).toBe(400);
    for (const [path, body] of [
      [`/rooms/dj-seats/${room.uuid}/infrastructure`, { numberOfDjs: 11 }],
      [`/rooms/dj-type/${room.uuid}/infrastructure`, { djType: "NOBODY" }],
      [`/rooms/${room.uuid}/externalUrl`, { externalUrl: "javascript:alert(1)" }],
      [`/rooms/${room.uuid}`, { design: "DISCO" }],
    ] as const) {
      const method = path.endsWith("externalUrl") ? "POST" : "PATCH";
      expect((await platform.call(method, r(path), { token: owner.token, body })).status, path).toBe(400);
    }
    expect(
      (
        await platform.call("PATCH", r(`/rooms/dj-seats/${randomUUID()}/infrastructure`), {
          token: owner.token,
          body: { numberOfDjs: 3 },
        })
      ).status,
    ).toBe(404);
  });

  it("the poster goes through the object store; bad files are 400s", async () => {
    const room = await createRoom(owner.token);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0f0" } })
      .png()
      .toBuffer();
    const form = () => {
      const f = new FormData();
      f.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "poster.png");
      return f;
    };
    expect(
      (await platform.call("POST", r(`/rooms/${room.uuid}/poster`), { token: other.token, form: form() })).status,
    ).toBe(403);
    const ok = await platform.call("POST", r(`/rooms/${room.uuid}/poster`), { token: owner.token, form: form() });
    expect(ok.status).toBe(200);
    const url = String((ok.body.room as RoomJson).posterUrl);
    expect(url).toMatch(/^\/media\/posters\/.+\.webp$/);
    const bad = new FormData();
    bad.append("file", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "x.png");
    expect(
      (await platform.call("POST", r(`/rooms/${room.uuid}/poster`), { token: owner.token, form: bad })).status,
    ).toBe(400);
    const removed = await platform.call("DELETE", r(`/rooms/${room.uuid}/poster`), { token: owner.token });
    expect(removed).toMatchObject({ status: 200, body: { room: { uuid: room.uuid } } });
    expect((removed.body.room as RoomJson).posterUrl ?? "").toBe("");
  });

  it("promotion needs the promoteRoom capability or staff", async () => {
    const room = await createRoom(owner.token, { musicProviders: ["youtube"] });
    const refused = await platform.call("PATCH", r(`/rooms/promote/${room.uuid}/infrastructure`), {
      token: owner.token,
      body: { promoted: true },
    });
    expect(refused).toMatchObject({ status: 403, body: { message: "promoteRoom capability required" } });
    const granted = await platform.call("PUT", `/api/user-service/users/${owner.uuid}/capabilities/promoteRoom`, {
      token: admin,
      body: {},
    });
    expect(granted.status).toBe(200);
    const ok = await platform.call("PATCH", r(`/rooms/promote/${room.uuid}/infrastructure`), {
      token: owner.token,
      body: { promoted: true },
    });
    expect(ok).toMatchObject({ status: 200, body: { room: { promoted: true } } });
    const listed = await platform.call("GET", r("/rooms/promoted-rooms?providers=youtube"), { token: other.token });
    expect((listed.body.rooms as RoomJson[]).map((x) => x.uuid)).toContain(room.uuid);
    const none = await platform.call("GET", r("/rooms/promoted-rooms?providers=tidal"), { token: other.token });
    expect((none.body.rooms as RoomJson[] | undefined) ?? []).not.toContainEqual(
      expect.objectContaining({ uuid: room.uuid }),
    );
    expect(
      (await platform.call("GET", r("/rooms/promoted-rooms?providers=gramophone"), { token: other.token })).status,
    ).toBe(400);
  });

  it("DELETE /rooms/{id}/infrastructure by the owner only", async () => {
    const room = await createRoom(owner.token);
    expect(
      (await platform.call("DELETE", r(`/rooms/${room.uuid}/infrastructure`), { token: other.token })).status,
    ).toBe(403);
    expect(
      (await platform.call("DELETE", r(`/rooms/${room.uuid}/infrastructure`), { token: owner.token })).status,
    ).toBe(200);
    expect((await platform.call("GET", r(`/rooms/${room.uuid}`), { token: owner.token })).status).toBe(404);
    expect(
      (await platform.call("DELETE", r(`/rooms/${room.uuid}/infrastructure`), { token: owner.token })).status,
    ).toBe(404);
  });
});

describe("joining", () => {
  it("answers the room config, refuses banned, kicked and private with 403 messages", async () => {
    const room = await createRoom(owner.token);
    const joined = await platform.call("POST", r(`/rooms/${room.slug}/join`), { token: other.token, body: {} });
    expect(joined).toMatchObject({
      status: 200,
      body: { roles: ["user"], permissions: { canChat: true, canDj: true }, numberOfDjs: 5, djType: "EVERYONE" },
    });
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    expect((await platform.call("POST", r(`/rooms/${room.uuid}/join`), { token: guest, body: {} })).body.roles).toEqual(
      ["guest"],
    );
    const banned = await signUp();
    await platform.call("POST", r(`/roomUserRoles/${room.uuid}`), {
      token: owner.token,
      body: { userId: banned.uuid, role: "banned" },
    });
    const refused = await platform.call("POST", r(`/rooms/${room.uuid}/join`), { token: banned.token, body: {} });
    expect(refused).toMatchObject({ status: 403, body: { message: "You are banned from this room" } });
    const priv = await createRoom(owner.token, { type: "PRIVATE" });
    const closed = await platform.call("POST", r(`/rooms/${priv.uuid}/join`), { token: other.token, body: {} });
    expect(closed).toMatchObject({ status: 403, body: { message: "This room is private" } });
    expect(
      (await platform.call("POST", r(`/rooms/${randomUUID()}/join`), { token: other.token, body: {} })).status,
    ).toBe(404);
    expect((await platform.call("POST", r(`/rooms/${room.uuid}/join`), { body: {} })).status).toBe(401);
  });

  it("the guest password: set and removed by admins, matched by POST /rooms/list without revealing others", async () => {
    const priv = await createRoom(owner.token, { type: "PRIVATE" });
    const password = `secret-${randomUUID()}`;
    const body = { roomId: priv.uuid, password };
    expect((await platform.call("POST", r("/rooms/admin/guest-password"), { token: owner.token, body })).status).toBe(
      401,
    );
    expect(
      (
        await platform.call("POST", r("/rooms/admin/guest-password"), {
          token: admin,
          body: { roomId: priv.uuid, password: "short" },
        })
      ).status,
    ).toBe(400);
    const set = await platform.call("POST", r("/rooms/admin/guest-password"), { token: admin, body });
    expect(set).toMatchObject({ status: 200, body: { room: { hasGuestPassword: true } } });
    expect(JSON.stringify(set.body)).not.toContain(password);
    const found = await platform.call("POST", r("/rooms/list"), { token: other.token, body: { password } });
    expect((found.body.rooms as RoomJson[]).map((x) => x.uuid)).toEqual([priv.uuid]);
    const none = await platform.call("POST", r("/rooms/list"), {
      token: other.token,
      body: { password: "not-it-at-all" },
    });
    expect(none.body.rooms ?? []).toEqual([]);
    expect((await platform.call("POST", r("/rooms/list"), { token: other.token, body: {} })).status).toBe(400);
    const entered = await platform.call("POST", r(`/rooms/${priv.uuid}/join`), {
      token: other.token,
      body: { guestPassword: password },
    });
    expect(entered.status).toBe(200);
    const removed = await platform.call("DELETE", r("/rooms/admin/guest-password"), {
      token: admin,
      body: { roomId: priv.uuid },
    });
    expect(removed).toMatchObject({ status: 200 });
    expect((removed.body.room as RoomJson).hasGuestPassword ?? false).toBe(false);
  });
});

describe("admin", () => {
  it("lists rooms and DJs with the query language and reads one of each", async () => {
    const room = await createRoom(owner.token);
    const dj = await signUp();
    const granted = await platform.call("POST", r(`/roomUserRoles/${room.uuid}`), {
      token: owner.token,
      body: { userId: dj.uuid, role: "dj" },
    });
    expect(granted.status).toBe(200);
    const rooms = await platform.call("GET", r(`/admin/rooms?filter=uuid||$eq||${room.uuid}&limit=5`), {
      token: admin,
    });
    expect(rooms).toMatchObject({ status: 200, body: { total: 1, page: 1 } });
    expect((await platform.call("GET", r("/admin/rooms?filter=nope||$eq||1"), { token: admin })).status).toBe(400);
    expect((await platform.call("GET", r("/admin/rooms"), { token: owner.token })).status).toBe(401);
    const one = await platform.call("GET", r(`/admin/rooms/${room.uuid}`), { token: admin });
    expect(one).toMatchObject({ status: 200, body: { uuid: room.uuid } });
    const djs = await platform.call("GET", r(`/admin/djs?filter=roomUuid||$eq||${room.uuid}`), { token: admin });
    expect(djs).toMatchObject({ status: 200, body: { total: 1 } });
    const djId = (granted.body.role as { id: string }).id;
    expect(await platform.call("GET", r(`/admin/djs/${djId}`), { token: admin })).toMatchObject({
      status: 200,
      body: { userUuid: dj.uuid },
    });
    expect((await platform.call("GET", r(`/admin/djs/${randomUUID()}`), { token: admin })).status).toBe(404);
  });

  it("updates any room, and every room of a user", async () => {
    const someone = await signUp();
    const room = await createRoom(someone.token);
    const patched = await platform.call("PATCH", r(`/rooms/admin/${room.uuid}`), {
      token: admin,
      body: { numberOfDjs: 9 },
    });
    expect(patched).toMatchObject({ status: 200, body: { room: { numberOfDjs: 9 } } });
    expect(
      (await platform.call("PATCH", r(`/rooms/admin/${room.uuid}`), { token: someone.token, body: {} })).status,
    ).toBe(401);
    const updated = await platform.call("PATCH", r(`/rooms/user/${someone.uuid}`), {
      token: admin,
      body: { type: "PRIVATE" },
    });
    expect(updated).toMatchObject({ status: 200, body: { count: 1 } });
    expect((await platform.call("DELETE", r(`/rooms/user/${someone.uuid}`), { token: someone.token })).status).toBe(
      401,
    );
    const deleted = await platform.call("DELETE", r(`/rooms/user/${someone.uuid}`), { token: admin });
    expect(deleted).toMatchObject({ status: 200, body: { count: 1 } });
    expect((await platform.call("DELETE", r("/rooms/user/not-a-uuid"), { token: admin })).status).toBe(400);
  });
});
