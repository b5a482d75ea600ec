// A private room's details only for those admitted to it (issue 23, finding 4): every path that answers about one room
// — the room service's reads, the social service's listeners, the playlist service's recent songs — applies the room
// service's one admission rule. Admitted: the owner, holders of a room role (dj and up), platform admins, and users and
// guests who joined with the room's guest password. Refused: a signed-in stranger and a guest without the password
// (403), a caller without a token (401). A public room stays readable by anyone signed in.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

const r = (path: string) => `/api/room-service${path}`;

let platform: TestPlatform;

interface Account {
  uuid: string;
  token: string;
}

interface RoomJson {
  uuid: string;
  slug: string;
}

async function account(): Promise<Account> {
  const res = await platform.signUp();
  return { uuid: res.user.uuid, token: res.token };
}

async function createRoom(token: string, type: "PUBLIC" | "PRIVATE"): Promise<RoomJson> {
  const res = await platform.call("POST", r("/rooms/infrastructure"), {
    token,
    body: { name: `Admission ${randomUUID().slice(0, 8)}`, type },
  });
  expect(res.status).toBe(200);
  return res.body.room as RoomJson;
}

/** Every read about one room, as [name, method, path, body]; `owner` is the room owner's uuid. */
function paths(room: RoomJson, owner: string): [string, string, string, unknown?][] {
  return [
    ["room", "GET", r(`/rooms/${room.uuid}`)],
    ["room by slug", "GET", r(`/rooms/${room.slug}`)],
    ["room by uuid", "GET", r(`/rooms/uuid/${room.uuid}`)],
    ["room state", "GET", r(`/rooms/room-state/${room.uuid}`)],
    ["room played time", "GET", r(`/rooms/room-played-time/${room.uuid}`)],
    ["room users", "GET", r(`/rooms/users/${room.uuid}`)],
    ["room roles", "GET", r(`/roomUserRoles/${room.uuid}`)],
    ["owner's roles", "GET", r(`/roomUserRoles/${room.uuid}/${owner}`)],
    ["no-dancefloor users", "POST", r("/roomUserRoles/no-dancefloor-users"), { roomId: room.uuid, userIds: [owner] }],
    ["room communities", "GET", r(`/room-communities/${room.uuid}`)],
    ["record as recent", "POST", r("/rooms/recent"), { roomId: room.uuid }],
    ["stage listeners", "GET", `/api/social-service/rooms/${room.uuid}/listeners`],
    ["recent songs", "GET", `/api/playlist-service/rooms/${room.slug}/recent-songs`],
  ];
}

/** Paths a guest token may call at all (the others refuse guests at the access layer, 401). */
const GUEST_REFUSED_BY_ACCESS = new Set(["owner's roles", "record as recent"]);

async function statuses(room: RoomJson, owner: string, token: string | undefined): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, method, path, body] of paths(room, owner)) {
    const res = await platform.call(method, path, { token, body });
    out[name] = res.status;
  }
  return out;
}

let owner: Account;
let dj: Account;
let admitted: Account;
let stranger: Account;
let admin: string;
let privateRoom: RoomJson;
const password = `admission-${randomUUID()}`;

beforeAll(async () => {
  platform = await sharedPlatform();
  [owner, dj, admitted, stranger] = [await account(), await account(), await account(), await account()];
  admin = await platform.adminToken();
  privateRoom = await createRoom(owner.token, "PRIVATE");
  const set = await platform.call("POST", r("/rooms/admin/guest-password"), {
    token: admin,
    body: { roomId: privateRoom.uuid, password },
  });
  expect(set.status).toBe(200);
  const grant = await platform.call("POST", r(`/roomUserRoles/${privateRoom.uuid}`), {
    token: owner.token,
    body: { userId: dj.uuid, role: "dj" },
  });
  expect(grant.status).toBe(200);
  const join = await platform.call("POST", r(`/rooms/${privateRoom.uuid}/join`), {
    token: admitted.token,
    body: { guestPassword: password },
  });
  expect(join.status).toBe(200);
});

describe("a private room", () => {
  it("refuses a caller without a token on every path (401)", async () => {
    const got = await statuses(privateRoom, owner.uuid, undefined);
    expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, 401])));
  });

  it("refuses a signed-in stranger on every path (403), and leaves the room out of lists of rooms by uuid", async () => {
    const got = await statuses(privateRoom, owner.uuid, stranger.token);
    expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, 403])));
    const forbidden = await platform.call("GET", r(`/rooms/${privateRoom.uuid}`), { token: stranger.token });
    expect(forbidden.body).toMatchObject({ statusCode: 403, message: "This room is private" });
    const listed = await platform.call("GET", r(`/rooms/multiple/list?room=${privateRoom.uuid}`), {
      token: stranger.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.rooms ?? []).toEqual([]);
    // A stranger's wrong password admits nothing either.
    const wrong = await platform.call("POST", r(`/rooms/${privateRoom.uuid}/join`), {
      token: stranger.token,
      body: { guestPassword: "not-the-password" },
    });
    expect(wrong.status).toBe(403);
    expect((await platform.call("GET", r(`/rooms/${privateRoom.uuid}`), { token: stranger.token })).status).toBe(403);
  });

  it("refuses a guest without the password on every path (403, or 401 where guests may not call at all)", async () => {
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    const got = await statuses(privateRoom, owner.uuid, guest);
    expect(got).toEqual(
      Object.fromEntries(Object.keys(got).map((k) => [k, GUEST_REFUSED_BY_ACCESS.has(k) ? 401 : 403])),
    );
  });

  it("answers the owner, a role holder, a password-admitted user and an admin on every path", async () => {
    for (const [who, token] of [
      ["owner", owner.token],
      ["dj", dj.token],
      ["password-admitted user", admitted.token],
      ["admin", admin],
    ] as const) {
      const got = await statuses(privateRoom, owner.uuid, token);
      // Reading another user's roles takes a moderator: the dj and the admitted user read their own instead.
      if (who === "dj" || who === "password-admitted user") {
        const self = who === "dj" ? dj.uuid : admitted.uuid;
        const own = await platform.call("GET", r(`/roomUserRoles/${privateRoom.uuid}/${self}`), { token });
        got["owner's roles"] = own.status;
      }
      expect(got, who).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, 200])));
    }
    const listed = await platform.call("GET", r(`/rooms/multiple/list?room=${privateRoom.uuid}`), {
      token: admitted.token,
    });
    expect((listed.body.rooms as RoomJson[]).map((x) => x.uuid)).toEqual([privateRoom.uuid]);
  });

  it("answers a guest who joined with the password", async () => {
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    const join = await platform.call("POST", r(`/rooms/${privateRoom.uuid}/join`), {
      token: guest,
      body: { guestPassword: password },
    });
    expect(join.status).toBe(200);
    const got = await statuses(privateRoom, owner.uuid, guest);
    expect(got).toEqual(
      Object.fromEntries(Object.keys(got).map((k) => [k, GUEST_REFUSED_BY_ACCESS.has(k) ? 401 : 200])),
    );
  });

  it("forgets password admissions when the guest password changes", async () => {
    const room = await createRoom(owner.token, "PRIVATE");
    const body = { roomId: room.uuid, password: `first-${randomUUID()}` };
    expect((await platform.call("POST", r("/rooms/admin/guest-password"), { token: admin, body })).status).toBe(200);
    const user = await account();
    const join = await platform.call("POST", r(`/rooms/${room.uuid}/join`), {
      token: user.token,
      body: { guestPassword: body.password },
    });
    expect(join.status).toBe(200);
    expect((await platform.call("GET", r(`/rooms/${room.uuid}`), { token: user.token })).status).toBe(200);
    const changed = { roomId: room.uuid, password: `second-${randomUUID()}` };
    const reset = await platform.call("POST", r("/rooms/admin/guest-password"), { token: admin, body: changed });
    expect(reset.status).toBe(200);
    expect((await platform.call("GET", r(`/rooms/${room.uuid}`), { token: user.token })).status).toBe(403);
  });
});

describe("a public room", () => {
  it("stays readable by a signed-in stranger and a guest", async () => {
    const room = await createRoom(owner.token, "PUBLIC");
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    for (const token of [stranger.token, guest]) {
      const got = await statuses(room, owner.uuid, token);
      delete got["owner's roles"]; // another user's roles take a moderator in any room
      if (token === guest) delete got["record as recent"];
      expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, 200])));
    }
    const anonymous = await platform.call("GET", `/api/playlist-service/rooms/${room.slug}/recent-songs`);
    expect(anonymous.status).toBe(200);
  });
});
