import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { OutboxMessage } from "@tt/kit";
import { BlockedUser } from "../modules/people/blocked-user.entity.ts";
import { refusal } from "../testing/refusal.ts";
import { testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(BlockedUserService, { token: u.token });

describe("blocked users", () => {
  it("blocks, lists, reads and unblocks, only in the caller's own list, with events", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const eve = await testUser(h);
    const { blockedUser } = await as(ann).blockUser({ blockedUserId: bob.id });
    expect(blockedUser).toMatchObject({ userId: ann.id, blockedUserId: bob.id });
    await refusal(as(ann).blockUser({ blockedUserId: bob.id }), Code.AlreadyExists, "user already blocked");
    await refusal(as(ann).blockUser({ blockedUserId: ann.id }), Code.InvalidArgument, "you cannot block yourself");
    await refusal(
      as(ann).blockUser({ blockedUserId: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "User not found",
    );

    expect((await as(ann).listBlockedUsers({})).blockedUsers.map((b) => b.blockedUserId)).toEqual([bob.id]);
    expect((await as(eve).listBlockedUsers({})).total).toBe(0);
    await expect(as(ann).getBlockedUser({ id: bob.id })).resolves.toMatchObject({
      blockedUser: { blockedUserId: bob.id },
    });
    await refusal(as(eve).getBlockedUser({ id: bob.id }), Code.NotFound, "blocked user not found");
    await refusal(as(eve).unblockUser({ id: bob.id }), Code.NotFound);

    await as(ann).unblockUser({ id: bob.id });
    await refusal(as(ann).getBlockedUser({ id: bob.id }), Code.NotFound);
    const subjects = (await h.orm.em.fork().find(OutboxMessage, { subject: { $like: "tt.room.user.%blocked" } }))
      .filter((m) => m.headers?.["tt-aggregate-id"] === ann.id)
      .map((m) => m.subject);
    expect(subjects).toEqual(expect.arrayContaining(["tt.room.user.blocked", "tt.room.user.unblocked"]));
  });

  it("a block ends the friendship and withdraws pending invitations between the two", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const carl = await testUser(h);
    const friends = (u: TestUser) => h.client(FriendService, { token: u.token });
    const { invitation } = await friends(ann).sendFriendInvitation({ userId: bob.id });
    await friends(bob).handleFriend({ invitationId: invitation!.id, invitationStatus: "accepted" });
    const pending = await friends(carl).sendFriendInvitation({ userId: ann.id });

    await as(ann).blockUser({ blockedUserId: bob.id });
    await as(ann).blockUser({ blockedUserId: carl.id });
    expect((await friends(ann).getFriendship({ id: bob.id })).friends).toBe(false);
    expect((await friends(bob).getFriendship({ id: ann.id })).friends).toBe(false);
    await refusal(
      friends(ann).handleFriend({ invitationId: pending.invitation!.id, invitationStatus: "accepted" }),
      Code.NotFound,
    );
    expect((await friends(ann).listInvitationsForMe({})).total).toBe(0);
  });

  it("an invitation cannot be accepted once either user blocked the other", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const friends = (u: TestUser) => h.client(FriendService, { token: u.token });
    const { invitation } = await friends(ann).sendFriendInvitation({ userId: bob.id });
    // A block written straight into the table, as one racing the invitation would land.
    const em = h.orm.em.fork();
    em.create(BlockedUser, { userId: bob.id, blockedUserId: ann.id });
    await em.flush();
    await refusal(
      friends(bob).handleFriend({ invitationId: invitation!.id, invitationStatus: "accepted" }),
      Code.PermissionDenied,
      "Forbidden",
    );
  });
});
