import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { CommunityService } from "@tt/proto/tt/room/v1/community_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { refusal } from "../testing/refusal.ts";
import { seedRoom, testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
let admin: TestUser;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
  admin = await testUser(h, "admin");
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(CommunityService, { token: u.token });

describe("communities", () => {
  it("admins create, read, update, replace and delete communities; slugs are unique", async () => {
    const made = await as(admin).adminCreateCommunity({ name: "Deep House Lovers", description: "house" });
    expect(made.community).toMatchObject({ name: "Deep House Lovers", slug: "deep-house-lovers", ownerId: admin.id });
    const again = await as(admin).adminCreateCommunity({ name: "Deep House Lovers" });
    expect(again.community?.slug).toBe("deep-house-lovers-2");
    await refusal(
      as(admin).adminCreateCommunity({ name: "x", slug: "deep-house-lovers" }),
      Code.AlreadyExists,
      "community slug already exists",
    );

    const id = made.community!.id;
    const patched = await as(admin).adminUpdateCommunity({ id, description: "all house" });
    expect(patched.community).toMatchObject({ name: "Deep House Lovers", description: "all house" });
    const replaced = await as(admin).adminReplaceCommunity({ id, name: "House", slug: "house" });
    expect(replaced.community).toMatchObject({ name: "House", slug: "house", description: "" });
    await expect(as(admin).adminGetCommunity({ id })).resolves.toMatchObject({ community: { slug: "house" } });

    await as(admin).addCommunityUser({ id, userId: admin.id });
    const list = await as(admin).adminListCommunities({ query: { filter: ["slug||$eq||house"] } });
    expect(list.data.map((c) => [c.id, c.memberCount])).toEqual([[id, 1]]);
    expect(list.total).toBe(1);

    await as(admin).adminDeleteCommunity({ id });
    await refusal(as(admin).adminGetCommunity({ id }), Code.NotFound, "community not found");
    await refusal(as(admin).adminDeleteCommunity({ id }), Code.NotFound);
  });

  it("bulk creation is all or none", async () => {
    const made = await as(admin).adminBulkCreateCommunities({
      bulk: [{ name: "Techno" }, { name: "Techno" }, { name: "Jazz", slug: "jazz" }],
    });
    expect(made.communities.map((c) => c.slug)).toEqual(["techno", "techno-2", "jazz"]);
    await refusal(
      as(admin).adminBulkCreateCommunities({
        bulk: [
          { name: "Funk", slug: "funk" },
          { name: "Jazz", slug: "jazz" },
        ],
      }),
      Code.AlreadyExists,
    );
    const funk = await as(admin).adminListCommunities({ query: { filter: ["slug||$eq||funk"] } });
    expect(funk.total).toBe(0);
  });

  it("non-admins cannot use the admin calls", async () => {
    const user = await testUser(h);
    await refusal(as(user).adminCreateCommunity({ name: "Mine" }), Code.Unauthenticated);
    await refusal(as(user).adminListCommunities({}), Code.Unauthenticated);
  });

  it("users join and leave; the owner adds and removes members; others cannot", async () => {
    const owner = await testUser(h);
    const ann = await testUser(h);
    const bob = await testUser(h);
    const { community } = await as(admin).adminCreateCommunity({ name: "Owners club", ownerId: owner.id });
    const id = community!.id;

    await as(ann).joinCommunity({ id });
    await refusal(as(ann).joinCommunity({ id }), Code.AlreadyExists, "already a member");
    await as(owner).addCommunityUser({ id, userId: bob.id });
    await refusal(as(ann).addCommunityUser({ id, userId: owner.id }), Code.PermissionDenied, "Forbidden");
    await refusal(
      as(owner).addCommunityUser({ id, userId: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "User not found",
    );
    await refusal(as(ann).removeCommunityUser({ id, userId: bob.id }), Code.PermissionDenied);

    const users = await as(bob).listCommunityUsers({ id, limit: 1 });
    expect(users.total).toBe(2);
    expect(users.users).toHaveLength(1);
    expect((await as(ann).getCommunity({ id })).community?.memberCount).toBe(2);
    expect((await as(ann).listUserCommunities({})).communities.map((c) => c.id)).toEqual([id]);

    await as(ann).leaveCommunity({ id });
    await refusal(as(ann).leaveCommunity({ id }), Code.NotFound, "member not found");
    await as(owner).removeCommunityUser({ id, userId: bob.id });
    expect((await as(owner).listCommunityUsers({ id })).total).toBe(0);
    await refusal(
      as(ann).joinCommunity({ id: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "community not found",
    );
  });

  it("room managers who are members link their rooms; others cannot; the four spellings agree", async () => {
    const roomOwner = await testUser(h);
    const mod = await testUser(h);
    const stranger = await testUser(h);
    const roomA = await seedRoom(h, roomOwner.id, [mod.id]);
    const roomB = await seedRoom(h, roomOwner.id);
    const { community } = await as(admin).adminCreateCommunity({ name: "Rooms" });
    const id = community!.id;

    await refusal(as(roomOwner).addCommunityRoom({ id, roomId: roomA }), Code.PermissionDenied, "Forbidden");
    await as(roomOwner).joinCommunity({ id });
    await as(mod).joinCommunity({ id });
    await as(stranger).joinCommunity({ id });
    await as(roomOwner).addCommunityRoom({ id, roomId: roomA });
    await as(mod).linkCommunityRoom({ id, roomId: roomA });
    await refusal(as(stranger).linkCommunityRoom({ id, roomId: roomB }), Code.PermissionDenied);
    await refusal(
      as(roomOwner).addCommunityRoom({ id, roomId: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "room not found",
    );
    const bulk = await as(roomOwner).addCommunityRooms({ id, rooms: [roomA, roomB] });
    expect(bulk.changed).toBe(1);
    expect(bulk.rooms.map((r) => r.roomId).sort()).toEqual([roomA, roomB].sort());

    expect((await as(stranger).listCommunityRooms({ id })).total).toBe(2);
    expect((await as(stranger).listRoomCommunities({ roomId: roomA })).communities.map((c) => c.id)).toEqual([id]);

    await refusal(as(stranger).unlinkCommunityRoom({ id, roomId: roomA }), Code.PermissionDenied);
    await refusal(as(stranger).removeCommunityRooms({ id, rooms: [roomA] }), Code.PermissionDenied);
    await as(mod).unlinkCommunityRoom({ id, roomId: roomA });
    await refusal(as(mod).removeCommunityRoom({ id, roomId: roomA }), Code.NotFound, "room in community not found");
    const removed = await as(admin).removeCommunityRooms({ id, rooms: [roomA, roomB] });
    expect(removed).toMatchObject({ changed: 1, rooms: [] });
  });

  it("refuses bad input before the handler", async () => {
    const user = await testUser(h);
    await refusal(as(user).getCommunity({ id: "nope" }), Code.InvalidArgument, "id must be a uuid");
    await refusal(
      as(user).listCommunityUsers({ id: "00000000-0000-4000-8000-000000000000", limit: 1000 }),
      Code.InvalidArgument,
    );
    await refusal(as(admin).adminCreateCommunity({ name: "" }), Code.InvalidArgument);
    await refusal(as(admin).adminCreateCommunity({ name: "x", slug: "Not A Slug" }), Code.InvalidArgument);
    await refusal(
      as(admin).adminBulkCreateCommunities({ bulk: Array.from({ length: 101 }, (_, i) => ({ name: `c${i}` })) }),
      Code.InvalidArgument,
      "bulk must hold at most 100 entries",
    );
  });
});
