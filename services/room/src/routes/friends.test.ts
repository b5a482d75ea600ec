import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { OutboxMessage } from "@tt/kit";
import { roomServiceDefinition } from "../index.ts";
import { refusal } from "../testing/refusal.ts";
import { testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(FriendService, { token: u.token });

describe("friend invitations and friends", () => {
  it("tells the invitee of an invitation in their inbox, by the inviter's nickname, linking to the inviter", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    await h.client(ProfileService, { token: ann.token }).updateProfile({ nickname: "Annie" });
    await as(ann).sendFriendInvitation({ userId: bob.id });
    const inbox = await h.client(NotificationService, { token: bob.token }).listMyNotifications({});
    expect(inbox.unread).toBe(1);
    expect(inbox.notifications[0]).toMatchObject({
      kind: "friend",
      title: "Annie wants to be your friend",
      senderId: ann.id,
      data: { fromId: ann.id, fromName: "Annie" },
    });
    // The inviter is told nothing of their own invitation.
    expect((await h.client(NotificationService, { token: ann.token }).listMyNotifications({})).total).toBe(0);
  });

  it("pending → accepted makes a mutual friendship; only the invitee decides; outsiders see nothing", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const eve = await testUser(h);
    const { invitation } = await as(ann).sendFriendInvitation({ userId: bob.id });
    expect(invitation).toMatchObject({ fromUserId: ann.id, toUserId: bob.id, invitationStatus: "pending" });
    const id = invitation!.id;
    await refusal(as(ann).sendFriendInvitation({ userId: bob.id }), Code.AlreadyExists, "invitation already pending");
    await refusal(as(bob).sendFriendInvitation({ userId: ann.id }), Code.AlreadyExists, "invitation already pending");
    await refusal(as(ann).sendFriendInvitation({ userId: ann.id }), Code.InvalidArgument, "you cannot invite yourself");
    await refusal(
      as(ann).sendFriendInvitation({ userId: "00000000-0000-4000-8000-000000000000" }),
      Code.NotFound,
      "User not found",
    );

    expect((await as(bob).listInvitationsForMe({})).invitations.map((i) => i.id)).toEqual([id]);
    expect((await as(ann).listInvitationsFromMe({})).invitations.map((i) => i.id)).toEqual([id]);
    expect((await as(eve).listInvitationsForMe({})).total).toBe(0);
    await expect(as(bob).getFriendInvitation({ id })).resolves.toBeDefined();
    await refusal(as(eve).getFriendInvitation({ id }), Code.NotFound, "invitation not found");

    await refusal(
      as(ann).handleFriend({ invitationId: id, invitationStatus: "accepted" }),
      Code.NotFound,
      "invitation not found",
    );
    await refusal(as(eve).handleFriend({ invitationId: id, invitationStatus: "accepted" }), Code.NotFound);
    await refusal(
      as(bob).handleFriend({ invitationId: id, invitationStatus: "pending" }),
      Code.InvalidArgument,
      "invitationStatus must be one of accepted, rejected",
    );
    await refusal(as(bob).handleFriend({ invitationId: id, invitationStatus: "maybe" }), Code.InvalidArgument);
    await refusal(as(bob).deleteFriendInvitation({ id }), Code.NotFound, "invitation not found");

    const handled = await as(bob).handleFriend({ invitationId: id, invitationStatus: "accepted" });
    expect(handled.invitation?.invitationStatus).toBe("accepted");
    expect(handled.friend).toMatchObject({ userId: bob.id, friendId: ann.id });
    await refusal(
      as(bob).handleFriend({ invitationId: id, invitationStatus: "rejected" }),
      Code.AlreadyExists,
      "invitation already handled",
    );

    await expect(as(ann).getFriend({ id: bob.id })).resolves.toMatchObject({ friend: { friendId: bob.id } });
    await expect(as(bob).getFriend({ id: ann.id })).resolves.toMatchObject({ friend: { friendId: ann.id } });
    await refusal(as(eve).getFriend({ id: ann.id }), Code.NotFound, "friend not found");
    expect((await as(eve).listFriends({ id: ann.id })).friends.map((f) => f.friendId)).toEqual([bob.id]);
    await expect(as(ann).getFriendship({ id: bob.id })).resolves.toMatchObject({ friends: true });
    await refusal(as(ann).sendFriendInvitation({ userId: bob.id }), Code.AlreadyExists, "already friends");

    await refusal(as(eve).deleteFriend({ id: ann.id }), Code.NotFound);
    await as(bob).deleteFriend({ id: ann.id });
    await refusal(as(ann).getFriend({ id: bob.id }), Code.NotFound);
    await expect(as(ann).getFriendship({ id: bob.id })).resolves.toMatchObject({ friends: false });

    const events = (
      await h.orm.em
        .fork()
        .find(OutboxMessage, { subject: { $like: "tt.room.friendship.%" } }, { orderBy: { seq: "ASC" } })
    )
      .filter((m) => m.headers?.["tt-aggregate-id"] === bob.id)
      .map((m) => m.subject);
    expect(events).toEqual(["tt.room.friendship.created", "tt.room.friendship.removed"]);
  });

  it("a rejected invitation makes no friendship; the inviter withdraws a pending one; blocks stop invitations", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const first = await as(ann).sendFriendInvitation({ userId: bob.id });
    await as(bob).handleFriend({ invitationId: first.invitation!.id, invitationStatus: "rejected" });
    await refusal(as(ann).getFriend({ id: bob.id }), Code.NotFound);
    expect((await as(bob).listInvitationsForMe({ invitationStatus: "rejected" })).total).toBe(1);

    const second = await as(ann).sendFriendInvitation({ userId: bob.id });
    const pending = await as(bob).getFriendship({ id: ann.id });
    expect(pending.pendingInvitation?.id).toBe(second.invitation!.id);
    await as(ann).deleteFriendInvitation({ id: second.invitation!.id });
    await refusal(as(ann).deleteFriendInvitation({ id: second.invitation!.id }), Code.NotFound);

    await h.client(BlockedUserService, { token: bob.token }).blockUser({ blockedUserId: ann.id });
    await refusal(as(ann).sendFriendInvitation({ userId: bob.id }), Code.PermissionDenied, "Forbidden");
    await refusal(as(bob).sendFriendInvitation({ userId: ann.id }), Code.PermissionDenied);
  });

  it("issue 11: an invitation withdrawn while it is accepted ends one way only", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const { invitation } = await as(ann).sendFriendInvitation({ userId: bob.id });
    const [withdrawn, accepted] = await Promise.allSettled([
      as(ann).deleteFriendInvitation({ id: invitation!.id }),
      as(bob).handleFriend({ invitationId: invitation!.id, invitationStatus: "accepted" }),
    ]);
    expect([withdrawn.status, accepted.status].sort()).toEqual(["fulfilled", "rejected"]);
    const friends = (await as(ann).getFriendship({ id: bob.id })).friends;
    expect(friends).toBe(accepted.status === "fulfilled");
  });

  it("issue 11: two invitations sent at once between the same users leave one pending", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const results = await Promise.allSettled([
      as(ann).sendFriendInvitation({ userId: bob.id }),
      as(bob).sendFriendInvitation({ userId: ann.id }),
      as(ann).sendFriendInvitation({ userId: bob.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await as(ann).getFriendship({ id: bob.id })).pendingInvitation).toBeDefined();
  });

  it("says whether the caller follows and blocked the user, a plain no rather than a 404, and only the caller's side", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const fans = (u: TestUser) => h.client(DjFanService, { token: u.token });
    const blocks = (u: TestUser) => h.client(BlockedUserService, { token: u.token });
    expect(await as(ann).getFriendship({ id: bob.id })).toMatchObject({
      friends: false,
      following: false,
      blocked: false,
    });

    await fans(ann).followDj({ djId: bob.id });
    expect(await as(ann).getFriendship({ id: bob.id })).toMatchObject({ following: true, blocked: false });
    // Following is one way: Bob does not follow Ann.
    expect(await as(bob).getFriendship({ id: ann.id })).toMatchObject({ following: false });

    await blocks(bob).blockUser({ blockedUserId: ann.id });
    expect(await as(bob).getFriendship({ id: ann.id })).toMatchObject({ blocked: true });
    // Ann is not told that Bob blocked her.
    expect(await as(ann).getFriendship({ id: bob.id })).toMatchObject({ following: true, blocked: false });

    await fans(ann).unfollowDj({ id: bob.id });
    await blocks(bob).unblockUser({ id: ann.id });
    expect(await as(ann).getFriendship({ id: bob.id })).toMatchObject({ following: false, blocked: false });
    expect(await as(bob).getFriendship({ id: ann.id })).toMatchObject({ following: false, blocked: false });
  });
});
