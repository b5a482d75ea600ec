// Communities and events of the room service over REST through the gateway: every path with its success and its
// refusals (another user's community rights, rooms and events are never changeable by someone else).
import { beforeAll, describe, expect, it } from "vitest";
import { expectStatus, r, room, user, type E2eUser } from "./support/room-social.ts";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;
const call = (method: string, path: string, token?: string, body?: unknown) =>
  platform.call(method, path, { token, body });

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

describe("admin communities", () => {
  it("create, bulk create, list with the query language, read, patch, put, delete; users are refused", async () => {
    const made = await call("POST", r("/admin/communities"), admin, { name: "Deep House", description: "deep" });
    expectStatus(made, 200);
    expect(made.body).toMatchObject({ name: "Deep House", slug: "deep-house" });
    const id = made.body.id as string;
    expectStatus(
      await call("POST", r("/admin/communities"), admin, { name: "x", slug: "deep-house" }),
      409,
      "community slug already exists",
    );
    expectStatus(await call("POST", r("/admin/communities"), admin, {}), 400);

    const bulk = await call("POST", r("/admin/communities/bulk"), admin, {
      bulk: [{ name: "Techno" }, { name: "Jazz Cats" }],
    });
    expectStatus(bulk, 200);
    expect((bulk.body.communities as { slug: string }[]).map((c) => c.slug)).toEqual(["techno", "jazz-cats"]);

    const list = await call("GET", r("/admin/communities?filter=slug||$eq||deep-house&limit=5"), admin);
    expectStatus(list, 200);
    expect(list.body).toMatchObject({ total: 1, count: 1 });
    expectStatus(await call("GET", r("/admin/communities?sort=nope,ASC"), admin), 400);
    expectStatus(await call("GET", r(`/admin/communities/${id}`), admin), 200);
    const patched = await call("PATCH", r(`/admin/communities/${id}`), admin, { description: "deeper" });
    expect(patched.body).toMatchObject({ name: "Deep House", description: "deeper" });
    const put = await call("PUT", r(`/admin/communities/${id}`), admin, { name: "House", slug: "house" });
    expect(put.body).toMatchObject({ name: "House", slug: "house", description: "" });

    const ann = await user(platform);
    for (const [method, path, body] of [
      ["GET", "/admin/communities", undefined],
      ["GET", `/admin/communities/${id}`, undefined],
      ["POST", "/admin/communities", { name: "mine" }],
      ["POST", "/admin/communities/bulk", { bulk: [{ name: "mine" }] }],
      ["PATCH", `/admin/communities/${id}`, { name: "mine" }],
      ["PUT", `/admin/communities/${id}`, { name: "mine" }],
      ["DELETE", `/admin/communities/${id}`, undefined],
    ] as const) {
      expectStatus(await call(method, r(path), ann.token, body), 401);
      expectStatus(await call(method, r(path), undefined, body), 401);
    }

    expectStatus(await call("DELETE", r(`/admin/communities/${id}`), admin), 200);
    expectStatus(await call("GET", r(`/admin/communities/${id}`), admin), 404, "community not found");
    expectStatus(await call("GET", r("/admin/communities/not-a-uuid"), admin), 400, "id must be a uuid");
  });
});

describe("communities", () => {
  let owner: E2eUser;
  let ann: E2eUser;
  let stranger: E2eUser;
  let id: string;
  let roomA: string;
  let roomB: string;

  beforeAll(async () => {
    owner = await user(platform);
    ann = await user(platform);
    stranger = await user(platform);
    const made = await call("POST", r("/admin/communities"), admin, { name: "Listeners", ownerId: owner.id });
    id = made.body.id as string;
    roomA = await room(platform, ann);
    roomB = await room(platform, ann);
  });

  it("members join, leave and are listed; the owner adds and removes them", async () => {
    expectStatus(await call("POST", r(`/communities/${id}/join`), ann.token, {}), 200);
    expectStatus(await call("POST", r(`/communities/${id}/join`), ann.token, {}), 409, "already a member");
    expectStatus(await call("PUT", r(`/communities/${id}/users/${stranger.id}`), owner.token, {}), 200);
    expectStatus(await call("PUT", r(`/communities/${id}/users/${owner.id}`), ann.token, {}), 403, "Forbidden");
    expectStatus(await call("DELETE", r(`/communities/${id}/users/${stranger.id}`), ann.token), 403);

    const one = await call("GET", r(`/communities/${id}`), stranger.token);
    expect(one.body).toMatchObject({ id, memberCount: 2 });
    const users = await call("GET", r(`/communities/${id}/users?limit=1&offset=1`), stranger.token);
    expect(users.body.total).toBe(2);
    expect(users.body.users).toHaveLength(1);
    expectStatus(await call("GET", r(`/communities/${id}/users?limit=101`), stranger.token), 400);
    const mine = await call("GET", r("/user-communities?limit=10&offset=0"), ann.token);
    expect((mine.body.communities as { id: string }[]).map((c) => c.id)).toEqual([id]);
    expectStatus(await call("GET", r("/user-communities"), undefined), 401);

    expectStatus(await call("DELETE", r(`/communities/${id}/users/${stranger.id}`), owner.token), 200);
    expectStatus(await call("POST", r(`/communities/${id}/leave`), stranger.token, {}), 404, "member not found");
    expectStatus(
      await call("GET", r("/communities/00000000-0000-4000-8000-000000000000"), ann.token),
      404,
      "community not found",
    );
  });

  it("a room's owner who is a member links the room, by each documented spelling; strangers cannot", async () => {
    expectStatus(await call("PUT", r(`/communities/${id}/rooms/${roomA}`), stranger.token, {}), 403);
    expectStatus(await call("PUT", r(`/communities/${id}/rooms/${roomA}`), ann.token, {}), 200);
    expectStatus(await call("POST", r(`/communities/${id}/${roomB}`), ann.token, {}), 200);
    const rooms = await call("GET", r(`/communities/${id}/rooms?limit=10&offset=0`), stranger.token);
    expect(rooms.body.total).toBe(2);
    const ofRoom = await call("GET", r(`/room-communities/${roomA}?limit=5&offset=0`), stranger.token);
    expect((ofRoom.body.communities as { id: string }[]).map((c) => c.id)).toEqual([id]);

    expectStatus(await call("DELETE", r(`/communities/${id}/${roomB}`), stranger.token), 403);
    expectStatus(await call("DELETE", r(`/communities/${id}/${roomB}`), ann.token), 200);
    expectStatus(await call("DELETE", r(`/communities/${id}/rooms/${roomA}`), stranger.token), 403);
    expectStatus(await call("DELETE", r(`/communities/${id}/rooms/${roomA}`), ann.token), 200);
    expectStatus(await call("DELETE", r(`/communities/${id}/rooms/${roomA}`), ann.token), 404);

    expectStatus(await call("POST", r(`/communities/${id}/add`), stranger.token, { rooms: [roomA] }), 403);
    const added = await call("POST", r(`/communities/${id}/add`), ann.token, { rooms: [roomA, roomB] });
    expect(added.body).toMatchObject({ changed: 2 });
    expectStatus(await call("POST", r(`/communities/${id}/remove`), stranger.token, { rooms: [roomA] }), 403);
    const removed = await call("POST", r(`/communities/${id}/remove`), ann.token, { rooms: [roomA, roomB] });
    expect(removed.body).toMatchObject({ changed: 2 });
    expectStatus(await call("POST", r(`/communities/${id}/add`), ann.token, { rooms: ["nope"] }), 400);
    // The literal segments win over the {roomId} template.
    expectStatus(await call("POST", r(`/communities/${id}/join`), owner.token, {}), 200);
  });
});

describe("events", () => {
  const at = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

  it("create, list, upcoming, read by id and slug, patch and delete by the creator; admin lists", async () => {
    const dj = await user(platform);
    const other = await user(platform);
    const made = await call("POST", r("/events"), dj.token, { name: "Launch Party", startsAt: at(1), endsAt: at(2) });
    expectStatus(made, 200);
    const id = made.body.id as string;
    expect(made.body).toMatchObject({ slug: "launch-party", createdBy: dj.id });
    expectStatus(
      await call("POST", r("/events"), dj.token, { name: "x", startsAt: at(2), endsAt: at(1) }),
      400,
      "endsAt must be after startsAt",
    );
    expectStatus(
      await call("POST", r("/events"), dj.token, { name: "x", slug: "launch-party", startsAt: at(1), endsAt: at(2) }),
      409,
    );
    expectStatus(await call("POST", r("/events"), undefined, { name: "x", startsAt: at(1), endsAt: at(2) }), 401);

    expect(
      ((await call("GET", r("/events?limit=100"), other.token)).body.events as { id: string }[]).map((e) => e.id),
    ).toContain(id);
    expect(
      ((await call("GET", r("/events/upcoming?limit=100"), other.token)).body.events as { id: string }[]).map(
        (e) => e.id,
      ),
    ).toContain(id);
    expectStatus(await call("GET", r(`/events/${id}`), other.token), 200);
    expect((await call("GET", r("/events/slug/launch-party"), other.token)).body).toMatchObject({ id });
    expectStatus(await call("GET", r("/events/slug/nothing-here"), other.token), 404, "event not found");

    expectStatus(await call("PATCH", r(`/events/${id}`), other.token, { name: "Mine" }), 403, "Forbidden");
    expect((await call("PATCH", r(`/events/${id}`), dj.token, { name: "Launch" })).body).toMatchObject({
      name: "Launch",
    });

    const listed = await call("GET", r(`/admin/events?filter=createdBy||$eq||${dj.id}`), admin);
    expect(listed.body).toMatchObject({ total: 1 });
    expectStatus(await call("GET", r(`/admin/events/${id}`), admin), 200);
    expectStatus(await call("GET", r("/admin/events"), dj.token), 401);
    expectStatus(await call("GET", r(`/admin/events/${id}`), dj.token), 401);

    expectStatus(await call("DELETE", r(`/events/${id}`), other.token), 403);
    expectStatus(await call("DELETE", r(`/events/${id}`), dj.token), 200);
    expectStatus(await call("GET", r(`/events/${id}`), other.token), 404);
  });
});
