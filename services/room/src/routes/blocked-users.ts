// Blocked users (spec 001 §7): the caller's own block list; {id} is the blocked user's uuid. A block stops friend
// invitations between the two users (friends.ts); the live stage learns of it from the events.
import type { ServiceImpl } from "@connectrpc/connect";
import { callEm, publishEvent } from "@tt/kit";
import type { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { FriendshipRemovedSchema, UserBlockedSchema, UserUnblockedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { RoomServiceContext } from "../context.ts";
import { BlockedUser } from "../modules/people/blocked-user.entity.ts";
import { FriendInvitation } from "../modules/people/friend-invitation.entity.ts";
import { Friendship } from "../modules/people/friendship.entity.ts";
import { lockPair } from "./friends.ts";
import { badRequest, callerId, conflict, notFound, page, requireAccount, ts, uniquely } from "./people-shared.ts";

const toMessage = (b: BlockedUser) => ({
  id: b.id,
  userId: b.userId,
  blockedUserId: b.blockedUserId,
  createdAt: ts(b.createdAt),
});

export function blockedUserRoutes(svc: RoomServiceContext): ServiceImpl<typeof BlockedUserService> {
  return {
    async blockUser(req, ctx) {
      const em = callEm(ctx);
      const userId = callerId(ctx);
      const blockedUserId = req.blockedUserId.toLowerCase();
      if (blockedUserId === userId) throw badRequest("you cannot block yourself");
      if (await em.findOne(BlockedUser, { userId, blockedUserId })) throw conflict("user already blocked");
      await requireAccount(svc, blockedUserId, ctx.signal);
      // A block ends the friendship and withdraws pending invitations between the two, in one transaction
      // under the pair's lock (friends.ts), so an acceptance cannot slip in between.
      const row = await uniquely(
        () =>
          em.transactional(async (tx) => {
            await lockPair(tx, userId, blockedUserId);
            const made = tx.create(BlockedUser, { userId, blockedUserId });
            publishEvent(tx, UserBlockedSchema, { userUuid: userId, blockedUserUuid: blockedUserId });
            await tx.nativeDelete(FriendInvitation, {
              status: "pending",
              $or: [
                { fromUserId: userId, toUserId: blockedUserId },
                { fromUserId: blockedUserId, toUserId: userId },
              ],
            });
            const ended = await tx.nativeDelete(Friendship, {
              $or: [
                { userId, friendId: blockedUserId },
                { userId: blockedUserId, friendId: userId },
              ],
            });
            if (ended > 0) publishEvent(tx, FriendshipRemovedSchema, { userUuid: userId, friendUuid: blockedUserId });
            return made;
          }),
        () => conflict("user already blocked"),
      );
      return { blockedUser: toMessage(row) };
    },

    async listBlockedUsers(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        BlockedUser,
        { userId: callerId(ctx) },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { blockedUsers: rows.map(toMessage), total };
    },

    async getBlockedUser(req, ctx) {
      const row = await callEm(ctx).findOne(BlockedUser, {
        userId: callerId(ctx),
        blockedUserId: req.id.toLowerCase(),
      });
      if (!row) throw notFound("blocked user");
      return { blockedUser: toMessage(row) };
    },

    async unblockUser(req, ctx) {
      const em = callEm(ctx);
      const userId = callerId(ctx);
      const row = await em.findOne(BlockedUser, { userId, blockedUserId: req.id.toLowerCase() });
      if (!row) throw notFound("blocked user");
      em.remove(row);
      publishEvent(em, UserUnblockedSchema, { userUuid: userId, blockedUserUuid: row.blockedUserId });
      await em.flush();
      return {};
    },
  };
}
