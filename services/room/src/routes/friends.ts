// Friend invitations and friends (spec 001 §7, §4): pending → accepted or rejected by the invitee through
// handle-friend; acceptance makes a mutual friendship (one row each way, written together). An invitation is
// seen only by its two users; only the inviter withdraws it and only the invitee decides it.
import type { ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { advisoryXactLock, callEm, enforceThrottles, enumOfWire, publishEvent, wireName } from "@tt/kit";
import { FriendshipCreatedSchema, FriendshipRemovedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { InvitationStatus, InvitationStatusSchema, type FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { Deliverer } from "../modules/notifications/deliver.ts";
import { djNameOf } from "../modules/notifications/dj-fans.ts";
import { BlockedUser } from "../modules/people/blocked-user.entity.ts";
import { DjFan } from "../modules/people/dj-fan.entity.ts";
import { FriendInvitation } from "../modules/people/friend-invitation.entity.ts";
import { Friendship } from "../modules/people/friendship.entity.ts";
import { badRequest, callerId, conflict, forbidden, missing, page, requireAccount, ts } from "./people-shared.ts";

const PENDING = wireName(InvitationStatusSchema, InvitationStatus.PENDING);
const ACCEPTED = wireName(InvitationStatusSchema, InvitationStatus.ACCEPTED);
const REJECTED = wireName(InvitationStatusSchema, InvitationStatus.REJECTED);

export const toInvitationMessage = (i: FriendInvitation) => ({
  id: i.id,
  fromUserId: i.fromUserId,
  toUserId: i.toUserId,
  invitationStatus: i.status,
  createdAt: ts(i.createdAt),
  updatedAt: ts(i.updatedAt),
});

const toFriendMessage = (f: Friendship) => ({ userId: f.userId, friendId: f.friendId, createdAt: ts(f.createdAt) });

/** Serializes changes to one pair of users (invitations, friendships) across calls and replicas. */
export async function lockPair(em: EntityManager, a: string, b: string): Promise<void> {
  const key = a < b ? `${a}:${b}` : `${b}:${a}`;
  await advisoryXactLock(em, `tt.room.friends:${key}`);
}

async function blockedEitherWay(em: EntityManager, a: string, b: string): Promise<boolean> {
  const n = await em.count(BlockedUser, {
    $or: [
      { userId: a, blockedUserId: b },
      { userId: b, blockedUserId: a },
    ],
  });
  return n > 0;
}

/**
 * Invites `to` from `from` inside the caller's transaction, or says why not (used by the contact book too):
 * "self", "blocked", "friends", "pending".
 */
export async function invite(
  em: EntityManager,
  from: string,
  to: string,
): Promise<FriendInvitation | "self" | "blocked" | "friends" | "pending"> {
  if (from === to) return "self";
  await lockPair(em, from, to);
  if (await blockedEitherWay(em, from, to)) return "blocked";
  if (await em.findOne(Friendship, { userId: from, friendId: to })) return "friends";
  const pending = await em.findOne(FriendInvitation, {
    status: PENDING,
    $or: [
      { fromUserId: from, toUserId: to },
      { fromUserId: to, toUserId: from },
    ],
  });
  if (pending) return "pending";
  return em.create(FriendInvitation, { fromUserId: from, toUserId: to, status: PENDING });
}

export function friendRoutes(svc: RoomServiceContext): ServiceImpl<typeof FriendService> {
  const deliver = new Deliverer(svc.people, svc.logger);

  /**
   * The invitee hears of a new invitation (issue 26): in their notification inbox and on their devices and browsers,
   * linking to the inviter's profile, where they answer it. The invitation stands whether or not this reaches them.
   */
  async function notifyInvitee(invitation: FriendInvitation): Promise<void> {
    try {
      const name = await djNameOf(svc, invitation.fromUserId);
      await deliver.toUsers(
        svc.orm.em.fork(),
        [invitation.toUserId],
        {
          kind: "friend",
          title: name ? `${name} wants to be your friend` : "Someone wants to be your friend",
          body: "Answer the invitation on their profile.",
          data: { fromId: invitation.fromUserId, fromName: name },
          senderId: invitation.fromUserId,
        },
        { web: true, url: `/users/${invitation.fromUserId}` },
      );
    } catch (err) {
      svc.logger.warn({ err, invitation: invitation.id }, "the invitee could not be notified of a friend invitation");
    }
  }

  return {
    async sendFriendInvitation(req, ctx) {
      const from = callerId(ctx);
      // Every attempt counts, refused ones too (issue 23: invitations are a way to reach strangers).
      const limits = svc.areas.limits;
      await enforceThrottles(callEm(ctx), [
        {
          rule: {
            action: "friend-invitation",
            limit: limits.ROOM_FRIEND_INVITATIONS_PER_WINDOW,
            windowSeconds: limits.ROOM_FRIEND_INVITATIONS_WINDOW_SECONDS,
          },
          subject: `user:${from}`,
        },
      ]);
      const to = req.userId.toLowerCase();
      if (to !== from) await requireAccount(svc, to, ctx.signal);
      const made = await callEm(ctx).transactional(async (em) => {
        const result = await invite(em, from, to);
        if (result === "self") throw badRequest("you cannot invite yourself");
        if (result === "blocked") throw forbidden();
        if (result === "friends") throw conflict("already friends");
        if (result === "pending") throw conflict("invitation already pending");
        return result;
      });
      await notifyInvitee(made);
      return { invitation: toInvitationMessage(made) };
    },

    async getFriendInvitation(req, ctx) {
      const me = callerId(ctx);
      const row = await callEm(ctx).findOne(FriendInvitation, {
        id: req.id,
        $or: [{ fromUserId: me }, { toUserId: me }],
      });
      if (!row) throw missing("invitation not found");
      return { invitation: toInvitationMessage(row) };
    },

    async listInvitationsForMe(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        FriendInvitation,
        { toUserId: callerId(ctx), status: req.invitationStatus || PENDING },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { invitations: rows.map(toInvitationMessage), total };
    },

    async listInvitationsFromMe(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        FriendInvitation,
        { fromUserId: callerId(ctx), status: req.invitationStatus || PENDING },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { invitations: rows.map(toInvitationMessage), total };
    },

    async deleteFriendInvitation(req, ctx) {
      const me = callerId(ctx);
      await callEm(ctx).transactional(async (em) => {
        const row = await em.findOne(FriendInvitation, { id: req.id, fromUserId: me });
        if (!row) throw missing("invitation not found");
        // Under the pair's lock, so an acceptance at the same moment either happened (409) or never will.
        await lockPair(em, row.fromUserId, row.toUserId);
        if (!(await em.findOne(FriendInvitation, { id: row.id }, { refresh: true }))) {
          throw missing("invitation not found");
        }
        if (row.status !== PENDING) throw conflict("invitation already handled");
        em.remove(row);
      });
      return {};
    },

    async handleFriend(req, ctx) {
      const decision = enumOfWire(InvitationStatusSchema, req.invitationStatus);
      if (decision !== InvitationStatus.ACCEPTED && decision !== InvitationStatus.REJECTED) {
        throw badRequest("invitationStatus must be one of accepted, rejected");
      }
      const me = callerId(ctx);
      return callEm(ctx).transactional(async (em) => {
        const found = await em.findOne(FriendInvitation, { id: req.invitationId, toUserId: me });
        if (!found) throw missing("invitation not found");
        await lockPair(em, found.fromUserId, found.toUserId);
        // Read again under the lock: the inviter may have withdrawn it (gone) or it may have been handled.
        if (!(await em.findOne(FriendInvitation, { id: found.id }, { refresh: true }))) {
          throw missing("invitation not found");
        }
        if (found.status !== PENDING) throw conflict("invitation already handled");
        if (decision === InvitationStatus.ACCEPTED && (await blockedEitherWay(em, found.fromUserId, found.toUserId))) {
          throw forbidden();
        }
        if (decision === InvitationStatus.REJECTED) {
          found.status = REJECTED;
          return { invitation: toInvitationMessage(found) };
        }
        found.status = ACCEPTED;
        let mine = await em.findOne(Friendship, { userId: me, friendId: found.fromUserId });
        if (!mine) {
          mine = em.create(Friendship, { userId: me, friendId: found.fromUserId });
          em.create(Friendship, { userId: found.fromUserId, friendId: me });
          publishEvent(em, FriendshipCreatedSchema, {
            userUuid: me,
            friendUuid: found.fromUserId,
            invitationId: found.id,
          });
        }
        return { invitation: toInvitationMessage(found), friend: toFriendMessage(mine) };
      });
    },

    async getFriend(req, ctx) {
      const row = await callEm(ctx).findOne(Friendship, { userId: callerId(ctx), friendId: req.id.toLowerCase() });
      if (!row) throw missing("friend not found");
      return { friend: toFriendMessage(row) };
    },

    async deleteFriend(req, ctx) {
      const me = callerId(ctx);
      const other = req.id.toLowerCase();
      await callEm(ctx).transactional(async (em) => {
        await lockPair(em, me, other);
        const deleted = await em.nativeDelete(Friendship, {
          $or: [
            { userId: me, friendId: other },
            { userId: other, friendId: me },
          ],
        });
        if (deleted === 0) throw missing("friend not found");
        publishEvent(em, FriendshipRemovedSchema, { userUuid: me, friendUuid: other });
      });
      return {};
    },

    async listFriends(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        Friendship,
        { userId: req.id.toLowerCase() },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { friends: rows.map(toFriendMessage), total };
    },

    async getFriendship(req, ctx) {
      const em = callEm(ctx);
      const me = callerId(ctx);
      const other = req.id.toLowerCase();
      const [friends, pending, following, blocked] = await Promise.all([
        em.count(Friendship, { userId: me, friendId: other }),
        em.findOne(FriendInvitation, {
          status: PENDING,
          $or: [
            { fromUserId: me, toUserId: other },
            { fromUserId: other, toUserId: me },
          ],
        }),
        em.count(DjFan, { fanId: me, djId: other }),
        em.count(BlockedUser, { userId: me, blockedUserId: other }),
      ]);
      return {
        friends: friends > 0,
        pendingInvitation: pending ? toInvitationMessage(pending) : undefined,
        following: following > 0,
        blocked: blocked > 0,
      };
    },
  };
}
