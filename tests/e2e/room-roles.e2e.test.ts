// Room roles through the gateway (/api/room-service/roomUserRoles/…): grant and remove with expiry under the rank
// rule, list, a user's roles, kick, change owner, the no-dancefloor list and the chat sync; each path's success and
// refusals.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

const r = (path: string) => `/api/room-service${path}`;

let platform: TestPlatform;
let owner: { uuid: string; token: string };
let moderator: { uuid: string; token: string };
let user: { uuid: string; token: string };
let roomId: string;

async function signUp() {
  const res = await platform.signUp();
  return { uuid: res.user.uuid, token: res.token };
}

beforeAll(async () => {
  platform = await sharedPlatform();
  [owner, moderator, user] = [await signUp(), await signUp(), await signUp()];
  const room = await platform.call("POST", r("/rooms/infrastructure"), {
    token: owner.token,
    body: { name: `Roles ${randomUUID().slice(0, 8)}` },
  });
  roomId = (room.body.room as { uuid: string }).uuid;
  const granted = await platform.call("POST", r(`/roomUserRoles/${roomId}`), {
    token: owner.token,
    body: { userId: moderator.uuid, role: "moderator" },
  });
  expect(granted.status).toBe(200);
});

describe("granting and removing", () => {
  it("POST /roomUserRoles/{roomId} grants with an optional expiry under the rank rule", async () => {
    const target = await signUp();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const ok = await platform.call("POST", r(`/roomUserRoles/${roomId}`), {
      token: moderator.token,
      body: { userId: target.uuid, role: "chatDisabled", expiresAt },
    });
    expect(ok).toMatchObject({ status: 200, body: { role: { role: "chatDisabled", userUuid: target.uuid } } });
    const join = await platform.call("POST", r(`/rooms/${roomId}/join`), { token: target.token, body: {} });
    expect(join.body).toMatchObject({ permissions: { canChat: false } });
    for (const [token, body, status] of [
      [user.token, { userId: target.uuid, role: "dj" }, 403],
      [moderator.token, { userId: target.uuid, role: "moderator" }, 403],
      [moderator.token, { userId: owner.uuid, role: "banned" }, 403],
      [owner.token, { userId: target.uuid, role: "owner" }, 400],
      [owner.token, { userId: target.uuid, role: "emperor" }, 400],
      [owner.token, { userId: "nope", role: "dj" }, 400],
      [owner.token, { role: "dj" }, 400],
      [owner.token, { userId: target.uuid, role: "dj", expiresAt: "2001-01-01T00:00:00Z" }, 400],
      [owner.token, { userId: randomUUID(), role: "dj" }, 404],
    ] as const) {
      const res = await platform.call("POST", r(`/roomUserRoles/${roomId}`), { token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.message).toBe("string");
    }
    expect(
      (
        await platform.call("POST", r(`/roomUserRoles/${randomUUID()}`), {
          token: owner.token,
          body: { userId: target.uuid, role: "dj" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await platform.call("POST", r(`/roomUserRoles/${roomId}`), { body: { userId: target.uuid, role: "dj" } }))
        .status,
    ).toBe(401);
  });

  it("DELETE /roomUserRoles/{roomId} removes a role; 404 when there is none", async () => {
    const target = await signUp();
    await platform.call("POST", r(`/roomUserRoles/${roomId}`), {
      token: moderator.token,
      body: { userId: target.uuid, role: "dj" },
    });
    const refused = await platform.call("DELETE", r(`/roomUserRoles/${roomId}`), {
      token: user.token,
      body: { userId: target.uuid, role: "dj" },
    });
    expect(refused).toMatchObject({ status: 403, body: { message: "Insufficient room role" } });
    const ok = await platform.call("DELETE", r(`/roomUserRoles/${roomId}`), {
      token: moderator.token,
      body: { userId: target.uuid, role: "dj" },
    });
    expect(ok.status).toBe(200);
    const again = await platform.call("DELETE", r(`/roomUserRoles/${roomId}`), {
      token: moderator.token,
      body: { userId: target.uuid, role: "dj" },
    });
    expect(again).toMatchObject({ status: 404, body: { message: "Role not found" } });
  });
});

describe("reading", () => {
  it("GET /roomUserRoles/{roomId} pages the grants; restrictive ones to moderators only", async () => {
    const list = await platform.call("GET", r(`/roomUserRoles/${roomId}?limit=10&offset=0`), { token: user.token });
    expect(list.status).toBe(200);
    expect((list.body.roles as Array<{ role: string }>).map((x) => x.role)).toEqual(
      expect.arrayContaining(["owner", "moderator"]),
    );
    expect((await platform.call("GET", r(`/roomUserRoles/${roomId}?role=banned`), { token: user.token })).status).toBe(
      403,
    );
    expect(
      (await platform.call("GET", r(`/roomUserRoles/${roomId}?role=banned`), { token: moderator.token })).status,
    ).toBe(200);
    expect(
      (await platform.call("GET", r(`/roomUserRoles/${roomId}?role=wizard`), { token: moderator.token })).status,
    ).toBe(400);
    expect(
      (await platform.call("GET", r(`/roomUserRoles/${roomId}?limit=100000`), { token: moderator.token })).status,
    ).toBe(400);
    expect((await platform.call("GET", r(`/roomUserRoles/${randomUUID()}`), { token: user.token })).status).toBe(404);
    expect((await platform.call("GET", r(`/roomUserRoles/${roomId}`))).status).toBe(401);
  });

  it("GET /roomUserRoles/{roomId}/{userId}: oneself and moderators", async () => {
    const mine = await platform.call("GET", r(`/roomUserRoles/${roomId}/${moderator.uuid}`), {
      token: moderator.token,
    });
    expect(mine).toMatchObject({ status: 200, body: { roles: ["moderator", "user"] } });
    expect(
      (await platform.call("GET", r(`/roomUserRoles/${roomId}/${moderator.uuid}`), { token: owner.token })).status,
    ).toBe(200);
    expect(
      (await platform.call("GET", r(`/roomUserRoles/${roomId}/${moderator.uuid}`), { token: user.token })).status,
    ).toBe(403);
    expect((await platform.call("GET", r(`/roomUserRoles/${roomId}/not-a-uuid`), { token: user.token })).status).toBe(
      400,
    );
  });

  it("POST /roomUserRoles/no-dancefloor-users answers the banned and kicked among those asked", async () => {
    const kicked = await signUp();
    await platform.call("POST", r("/roomUserRoles/kick-user-from-room"), {
      token: moderator.token,
      body: { roomId, userId: kicked.uuid },
    });
    const res = await platform.call("POST", r("/roomUserRoles/no-dancefloor-users"), {
      token: user.token,
      body: { roomId, userIds: [kicked.uuid, user.uuid] },
    });
    expect(res).toMatchObject({ status: 200, body: { userIds: [kicked.uuid] } });
    expect(
      (
        await platform.call("POST", r("/roomUserRoles/no-dancefloor-users"), {
          token: user.token,
          body: { userIds: [] },
        })
      ).status,
    ).toBe(400);
  });
});

describe("kick and owner", () => {
  it("POST /roomUserRoles/kick-user-from-room kicks until a time; the kicked user is refused at the door", async () => {
    const target = await signUp();
    const until = new Date(Date.now() + 600_000).toISOString();
    const refused = await platform.call("POST", r("/roomUserRoles/kick-user-from-room"), {
      token: user.token,
      body: { roomId, userId: target.uuid, until },
    });
    expect(refused.status).toBe(403);
    const past = await platform.call("POST", r("/roomUserRoles/kick-user-from-room"), {
      token: moderator.token,
      body: { roomId, userId: target.uuid, until: "2001-01-01T00:00:00Z" },
    });
    expect(past).toMatchObject({ status: 400, body: { message: "until must be in the future" } });
    const ok = await platform.call("POST", r("/roomUserRoles/kick-user-from-room"), {
      token: moderator.token,
      body: { roomId, userId: target.uuid, until },
    });
    expect(ok.status).toBe(200);
    const door = await platform.call("POST", r(`/rooms/${roomId}/join`), { token: target.token, body: {} });
    expect(door.status).toBe(403);
    expect(String(door.body.message)).toMatch(/^You are kicked from this room until /);
  });

  it("PUT /roomUserRoles/change-owner/{roomId} by the owner only", async () => {
    const first = await signUp();
    const second = await signUp();
    const room = await platform.call("POST", r("/rooms/infrastructure"), {
      token: first.token,
      body: { name: "Handover" },
    });
    const id = (room.body.room as { uuid: string }).uuid;
    expect(
      (
        await platform.call("PUT", r(`/roomUserRoles/change-owner/${id}`), {
          token: second.token,
          body: { userId: second.uuid },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await platform.call("PUT", r(`/roomUserRoles/change-owner/${id}`), {
          token: first.token,
          body: { userId: randomUUID() },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await platform.call("PUT", r(`/roomUserRoles/change-owner/${id}`), {
          token: first.token,
          body: { userId: first.uuid },
        })
      ).status,
    ).toBe(400);
    const ok = await platform.call("PUT", r(`/roomUserRoles/change-owner/${id}`), {
      token: first.token,
      body: { userId: second.uuid },
    });
    expect(ok).toMatchObject({ status: 200, body: { room: { ownerUuid: second.uuid } } });
  });
});

describe("chat", () => {
  it("POST /roomUserRoles/cometchat/sync/{id} (moderators) and /cometchat/join/{id}", async () => {
    expect(
      (await platform.call("POST", r(`/roomUserRoles/cometchat/sync/${roomId}`), { token: user.token, body: {} }))
        .status,
    ).toBe(403);
    const sync = await platform.call("POST", r(`/roomUserRoles/cometchat/sync/${roomId}`), {
      token: moderator.token,
      body: {},
    });
    expect(sync).toMatchObject({ status: 200, body: { group: roomId } });
    const join = await platform.call("POST", r(`/roomUserRoles/cometchat/join/${roomId}`), {
      token: user.token,
      body: {},
    });
    expect(join).toMatchObject({ status: 200, body: { scope: "participant" } });
    expect(
      (await platform.call("POST", r(`/roomUserRoles/cometchat/join/${randomUUID()}`), { token: user.token, body: {} }))
        .status,
    ).toBe(404);
  });
});
