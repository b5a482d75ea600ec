// The room service's social graph over REST through the gateway: friend invitations and friends, DJ fans, blocked
// users; every path with its success and its refusals (another user's invitation is never readable or changeable).
import { beforeAll, describe, expect, it } from "vitest";
import { expectStatus, r, user } from "./support/room-social.ts";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;
const call = (method: string, path: string, token?: string, body?: unknown) =>
  platform.call(method, path, { token, body });

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

describe("friend invitations and friends", () => {
  it("invite, list for and from, read, accept into a mutual friendship, remove; outsiders are refused", async () => {
    const ann = await user(platform);
    const bob = await user(platform);
    const eve = await user(platform);
    const sent = await call("POST", r("/friend-invitations"), ann.token, { userId: bob.id });
    expectStatus(sent, 200);
    expect(sent.body).toMatchObject({ fromUserId: ann.id, toUserId: bob.id, invitationStatus: "pending" });
    const id = sent.body.id as string;
    expectStatus(
      await call("POST", r("/friend-invitations"), ann.token, { userId: bob.id }),
      409,
      "invitation already pending",
    );
    expectStatus(
      await call("POST", r("/friend-invitations"), ann.token, { userId: ann.id }),
      400,
      "you cannot invite yourself",
    );
    expectStatus(
      await call("POST", r("/friend-invitations"), ann.token, { userId: "x" }),
      400,
      "userId must be a uuid",
    );
    expectStatus(await call("POST", r("/friend-invitations"), undefined, { userId: bob.id }), 401);

    const forBob = await call("GET", r("/friend-invitations/user-invitations-for?limit=10&offset=0"), bob.token);
    expect((forBob.body.invitations as { id: string }[]).map((i) => i.id)).toEqual([id]);
    const fromAnn = await call(
      "GET",
      r("/friend-invitations/user-invitations-from?invitationStatus=pending"),
      ann.token,
    );
    expect((fromAnn.body.invitations as { id: string }[]).map((i) => i.id)).toEqual([id]);
    expectStatus(
      await call("GET", r("/friend-invitations/user-invitations-for?invitationStatus=maybe"), bob.token),
      400,
    );
    expectStatus(await call("GET", r(`/friend-invitations/user-invitations/${id}`), bob.token), 200);
    expectStatus(
      await call("GET", r(`/friend-invitations/user-invitations/${id}`), eve.token),
      404,
      "invitation not found",
    );

    const handle = (token: string, invitationStatus: string) =>
      call("POST", r("/friend-invitations/handle-friend"), token, { invitationId: id, invitationStatus });
    expectStatus(await handle(ann.token, "accepted"), 404, "invitation not found");
    expectStatus(await handle(eve.token, "accepted"), 404);
    expectStatus(await handle(bob.token, "nope"), 400);
    const accepted = await handle(bob.token, "accepted");
    expectStatus(accepted, 200);
    expect(accepted.body).toMatchObject({
      invitation: { invitationStatus: "accepted" },
      friend: { userId: bob.id, friendId: ann.id },
    });
    expectStatus(await handle(bob.token, "rejected"), 409, "invitation already handled");
    expectStatus(await call("DELETE", r(`/friend-invitations/${id}`), ann.token), 409, "invitation already handled");

    expectStatus(await call("GET", r(`/friends/${bob.id}`), ann.token), 200);
    expectStatus(await call("GET", r(`/friends/${ann.id}`), bob.token), 200);
    expectStatus(await call("GET", r(`/friends/${ann.id}`), eve.token), 404, "friend not found");
    const list = await call("GET", r(`/friends/list/${ann.id}?limit=5`), eve.token);
    expect((list.body.friends as { friendId: string }[]).map((f) => f.friendId)).toEqual([bob.id]);
    expect((await call("GET", r(`/friends/single-friend/${bob.id}`), ann.token)).body).toMatchObject({ friends: true });

    expectStatus(await call("DELETE", r(`/friends/${ann.id}`), eve.token), 404);
    expectStatus(await call("DELETE", r(`/friends/${ann.id}`), bob.token), 200);
    expect((await call("GET", r(`/friends/single-friend/${bob.id}`), ann.token)).body.friends).toBeFalsy();
  });

  it("only the inviter withdraws a pending invitation", async () => {
    const ann = await user(platform);
    const bob = await user(platform);
    const id = (await call("POST", r("/friend-invitations"), ann.token, { userId: bob.id })).body.id as string;
    expectStatus(await call("DELETE", r(`/friend-invitations/${id}`), bob.token), 404);
    expectStatus(await call("DELETE", r(`/friend-invitations/${id}`), ann.token), 200);
    expectStatus(await call("DELETE", r(`/friend-invitations/${id}`), ann.token), 404);
  });
});

describe("DJ fans", () => {
  it("follow once, counts, take/skip pages (12 by default, at most 150), unfollow; admin and device views refused to users", async () => {
    const dj = await user(platform);
    const fans = await Promise.all(Array.from({ length: 13 }, () => user(platform)));
    for (const fan of fans) expectStatus(await call("POST", r("/dj-fans"), fan.token, { djId: dj.id }), 200);
    expectStatus(await call("POST", r("/dj-fans"), fans[0]!.token, { djId: dj.id }), 409, "DJ already followed");
    expectStatus(await call("POST", r("/dj-fans"), dj.token, { djId: dj.id }), 400, "you cannot follow yourself");

    const page = await call("GET", r(`/dj-fans/dj-fans-paginated/${dj.id}`), fans[0]!.token);
    expect(page.body).toMatchObject({ total: 13, take: 12, skip: 0 });
    expect(page.body.djFans).toHaveLength(12);
    expect(
      (await call("GET", r(`/dj-fans/dj-fans/${dj.id}?skip=12&take=12`), fans[0]!.token)).body.djFans,
    ).toHaveLength(1);
    expectStatus(await call("GET", r(`/dj-fans/dj-fans/${dj.id}?take=151`), fans[0]!.token), 400);
    expect((await call("GET", r(`/dj-fans/count/${dj.id}`), fans[0]!.token)).body).toMatchObject({ fans: 13 });
    expect((await call("GET", r(`/dj-fans/${fans[1]!.id}/djs-followed?skip=0&take=5`), dj.token)).body).toMatchObject({
      total: 1,
    });
    expect((await call("GET", r("/dj-fans"), fans[1]!.token)).body).toMatchObject({ total: 1 });
    expectStatus(await call("GET", r(`/dj-fans/dj-fan/${dj.id}`), fans[1]!.token), 200);
    expectStatus(await call("GET", r(`/dj-fans/dj-fan/${fans[1]!.id}`), dj.token), 404, "DJ not followed");
    expect((await call("GET", r("/dj-fans-notification"), fans[1]!.token)).body).toMatchObject({});

    expectStatus(await call("GET", r(`/dj-fans/admin/${dj.id}`), dj.token), 401);
    expect((await call("GET", r(`/dj-fans/admin/${dj.id}`), admin)).body).toMatchObject({ fans: 13 });
    expectStatus(await call("GET", r(`/dj-fans/devices/list?djId=${dj.id}`), dj.token), 401);
    expectStatus(await call("GET", r(`/dj-fans/devices/list?djId=${dj.id}`), admin), 200);

    expectStatus(await call("DELETE", r(`/dj-fans/${dj.id}`), fans[1]!.token), 200);
    expectStatus(await call("DELETE", r(`/dj-fans/${dj.id}`), fans[1]!.token), 404, "DJ not followed");
  });
});

describe("blocked users", () => {
  it("block, list, read, unblock, each in the caller's own list; a block stops invitations", async () => {
    const ann = await user(platform);
    const bob = await user(platform);
    const eve = await user(platform);
    expectStatus(await call("POST", r("/blocked-users"), ann.token, { blockedUserId: bob.id }), 200);
    expectStatus(
      await call("POST", r("/blocked-users"), ann.token, { blockedUserId: bob.id }),
      409,
      "user already blocked",
    );
    expectStatus(await call("POST", r("/blocked-users"), ann.token, {}), 400);
    expect((await call("GET", r("/blocked-users?limit=10"), ann.token)).body).toMatchObject({ total: 1 });
    expect((await call("GET", r("/blocked-users"), eve.token)).body.total ?? 0).toBe(0);
    expectStatus(await call("GET", r(`/blocked-users/${bob.id}`), ann.token), 200);
    expectStatus(await call("GET", r(`/blocked-users/${bob.id}`), eve.token), 404, "blocked user not found");
    expectStatus(await call("POST", r("/friend-invitations"), bob.token, { userId: ann.id }), 403, "Forbidden");
    expectStatus(await call("DELETE", r(`/blocked-users/${bob.id}`), eve.token), 404);
    expectStatus(await call("DELETE", r(`/blocked-users/${bob.id}`), ann.token), 200);
    expectStatus(await call("GET", r("/blocked-users"), undefined), 401);
  });
});
