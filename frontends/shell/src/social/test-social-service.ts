import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { DjFanSchema, type DjFan } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendInvitationSchema, type FriendInvitation } from "@tt/proto/tt/room/v1/friend_service_pb";
import type { UserRoom } from "@tt/proto/tt/social/v1/stage_service_pb";
import { BlockedUserService, DjFanService, FriendService, StageService } from "./api.ts";

export const tokenOf = (userUuid: string) => `t:${userUuid}`;

/**
 * A small in-memory social service (friends, DJ fans, blocks) for the shell's component tests, over Connect's
 * router transport; it keeps the documented rules the screens rely on and records each list's take.
 */
export function createTestSocialService() {
  const fans: DjFan[] = [];
  const invitations: FriendInvitation[] = [];
  const friendships: Array<[string, string]> = [];
  const blocks: Array<[string, string]> = [];
  const takes: number[] = [];
  /** The calls whose "no" is a 404 (which a browser logs as a failed request): the screens should not ask them. */
  const notFoundQuestions: string[] = [];
  /** The public rooms each user is in now (user uuid → rooms), as the live stage answers ListUserRooms. */
  const userRooms = new Map<string, Array<Pick<UserRoom, "roomUuid" | "slug" | "name">>>();
  let counter = 0;
  const id = () => `00000000-0000-4000-a000-${String(++counter).padStart(12, "0")}`;
  const caller = (context: HandlerContext) => {
    const token = (context.requestHeader.get("authorization") ?? "").replace(/^Bearer /, "");
    if (!token.startsWith("t:")) throw new ConnectError("Unauthorized", Code.Unauthenticated);
    return token.slice(2);
  };
  const areFriends = (a: string, b: string) =>
    friendships.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const routes = (router: ConnectRouter) => {
    router.service(DjFanService, {
      listDjFansPaginated: ({ id: dj, take, skip }) => {
        takes.push(take);
        if (take > 150) throw new ConnectError("take must be at most 150", Code.InvalidArgument);
        const list = fans.filter((f) => f.djId === dj);
        return { djFans: list.slice(skip, skip + take), total: list.length, skip, take };
      },
      listMyFollowedDjs: ({ take, skip }, context) => {
        const me = caller(context);
        const list = fans.filter((f) => f.fanId === me);
        return { djFans: list.slice(skip, skip + take), total: list.length, skip, take };
      },
      countDjFans: ({ id: user }) => ({
        fans: fans.filter((f) => f.djId === user).length,
        following: fans.filter((f) => f.fanId === user).length,
      }),
      getDjFan: ({ id: dj }, context) => {
        const me = caller(context);
        notFoundQuestions.push("GetDjFan");
        const fan = fans.find((f) => f.djId === dj && f.fanId === me);
        if (!fan) throw new ConnectError("DJ not followed", Code.NotFound);
        return { djFan: fan };
      },
      followDj: ({ djId }, context) => {
        const me = caller(context);
        if (djId === me) throw new ConnectError("you cannot follow yourself", Code.InvalidArgument);
        if (fans.some((f) => f.djId === djId && f.fanId === me))
          throw new ConnectError("DJ already followed", Code.AlreadyExists);
        const fan = create(DjFanSchema, { id: id(), djId, fanId: me });
        fans.push(fan);
        return { djFan: fan };
      },
      unfollowDj: ({ id: dj }, context) => {
        const me = caller(context);
        const index = fans.findIndex((f) => f.djId === dj && f.fanId === me);
        if (index < 0) throw new ConnectError("DJ not followed", Code.NotFound);
        fans.splice(index, 1);
        return {};
      },
    });
    router.service(FriendService, {
      listFriends: ({ id: user, limit, offset }) => {
        const list = friendships.filter(([a, b]) => a === user || b === user);
        return {
          friends: list.slice(offset, offset + limit).map(([a, b]) => ({ userId: a, friendId: b })),
          total: list.length,
        };
      },
      listInvitationsForMe: (_request, context) => {
        const me = caller(context);
        const list = invitations.filter((i) => i.toUserId === me && i.invitationStatus === "pending");
        return { invitations: list, total: list.length };
      },
      listInvitationsFromMe: (_request, context) => {
        const me = caller(context);
        const list = invitations.filter((i) => i.fromUserId === me && i.invitationStatus === "pending");
        return { invitations: list, total: list.length };
      },
      getFriendship: ({ id: other }, context) => {
        const me = caller(context);
        const pending = invitations.find(
          (i) =>
            i.invitationStatus === "pending" &&
            ((i.fromUserId === me && i.toUserId === other) || (i.fromUserId === other && i.toUserId === me)),
        );
        return {
          friends: areFriends(me, other),
          ...(pending ? { pendingInvitation: pending } : {}),
          following: fans.some((f) => f.djId === other && f.fanId === me),
          blocked: blocks.some(([a, b]) => a === me && b === other),
        };
      },
      sendFriendInvitation: ({ userId }, context) => {
        const me = caller(context);
        if (blocks.some(([a, b]) => (a === me && b === userId) || (a === userId && b === me)))
          throw new ConnectError("Forbidden", Code.PermissionDenied);
        const invitation = create(FriendInvitationSchema, {
          id: id(),
          fromUserId: me,
          toUserId: userId,
          invitationStatus: "pending",
        });
        invitations.push(invitation);
        return { invitation };
      },
      handleFriend: ({ invitationId, invitationStatus }, context) => {
        const me = caller(context);
        const invitation = invitations.find((i) => i.id === invitationId && i.toUserId === me);
        if (!invitation) throw new ConnectError("invitation not found", Code.NotFound);
        invitation.invitationStatus = invitationStatus;
        if (invitationStatus === "accepted") friendships.push([invitation.fromUserId, invitation.toUserId]);
        return { invitation };
      },
      deleteFriendInvitation: ({ id: invitationId }) => {
        const index = invitations.findIndex((i) => i.id === invitationId);
        if (index >= 0) invitations.splice(index, 1);
        return {};
      },
    });
    router.service(StageService, {
      listUserRooms: ({ user }) => ({ rooms: userRooms.get(user) ?? [] }),
    });
    router.service(BlockedUserService, {
      getBlockedUser: ({ id: other }, context) => {
        const me = caller(context);
        notFoundQuestions.push("GetBlockedUser");
        if (!blocks.some(([a, b]) => a === me && b === other))
          throw new ConnectError("blocked user not found", Code.NotFound);
        return {};
      },
      blockUser: ({ blockedUserId }, context) => {
        const me = caller(context);
        blocks.push([me, blockedUserId]);
        return {};
      },
    });
  };
  return { routes, fans, invitations, friendships, blocks, takes, userRooms, notFoundQuestions };
}
