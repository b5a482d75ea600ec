// The room service's people for the live room's component tests (issue 25): who follows whom, friendships,
// invitations and blocks, kept in memory and served through Connect's router transport like live/testing.ts.
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { BlockedUserService, DjFanService, FriendService } from "./api.ts";

const callerOf = (context: HandlerContext) =>
  /^Bearer t:(.+)$/.exec(context.requestHeader.get("Authorization") ?? "")?.[1] ?? "";

export interface FakePeople {
  /** "fan→dj" pairs. */
  follows: Set<string>;
  /** "user→blocked" pairs. */
  blocks: Set<string>;
  /** Friendships, "a→b" both ways. */
  friendships: Set<string>;
  /** Pending invitations "from→to". */
  invitations: Set<string>;
  /** Fans and following the counts answer per user (beyond the follows above). */
  fanCounts: Map<string, { fans: number; following: number }>;
  calls: { method: string; caller: string; input: unknown }[];
  routes(router: ConnectRouter): void;
}

export function createFakePeople(): FakePeople {
  const fake: FakePeople = {
    follows: new Set(),
    blocks: new Set(),
    friendships: new Set(),
    invitations: new Set(),
    fanCounts: new Map(),
    calls: [],
    routes(router) {
      const record = (method: string, context: HandlerContext, input: unknown) => {
        const caller = callerOf(context);
        fake.calls.push({ method, caller, input });
        return caller;
      };
      const fanOf = (fan: string, dj: string) => ({ id: `${fan}-${dj}`, fanId: fan, djId: dj });
      router.service(DjFanService, {
        followDj(request, context) {
          const caller = record("FollowDj", context, request);
          if (caller === request.djId) throw new ConnectError("you cannot follow yourself", Code.InvalidArgument);
          if (fake.follows.has(`${caller}→${request.djId}`)) {
            throw new ConnectError("DJ already followed", Code.AlreadyExists);
          }
          fake.follows.add(`${caller}→${request.djId}`);
          return { djFan: fanOf(caller, request.djId) };
        },
        unfollowDj(request, context) {
          const caller = record("UnfollowDj", context, request);
          if (!fake.follows.delete(`${caller}→${request.id}`)) throw new ConnectError("DJ not followed", Code.NotFound);
          return {};
        },
        listMyFollowedDjs(request, context) {
          const caller = record("ListMyFollowedDjs", context, request);
          const djFans = [...fake.follows]
            .map((pair) => pair.split("→") as [string, string])
            .filter(([fan]) => fan === caller)
            .map(([fan, dj]) => fanOf(fan, dj));
          return { djFans, total: djFans.length, skip: 0, take: request.take };
        },
        getDjFan(request, context) {
          const caller = record("GetDjFan", context, request);
          if (!fake.follows.has(`${caller}→${request.id}`)) throw new ConnectError("DJ not followed", Code.NotFound);
          return { djFan: fanOf(caller, request.id) };
        },
        countDjFans(request, context) {
          record("CountDjFans", context, request);
          const pairs = [...fake.follows].map((pair) => pair.split("→"));
          const base = fake.fanCounts.get(request.id) ?? { fans: 0, following: 0 };
          return {
            fans: base.fans + pairs.filter(([, dj]) => dj === request.id).length,
            following: base.following + pairs.filter(([fan]) => fan === request.id).length,
          };
        },
      });
      router.service(FriendService, {
        sendFriendInvitation(request, context) {
          const caller = record("SendFriendInvitation", context, request);
          if (fake.blocks.has(`${caller}→${request.userId}`) || fake.blocks.has(`${request.userId}→${caller}`)) {
            throw new ConnectError("Forbidden", Code.PermissionDenied);
          }
          fake.invitations.add(`${caller}→${request.userId}`);
          return {
            invitation: { id: "00000000-0000-4000-8000-00000000aaaa", fromUserId: caller, toUserId: request.userId },
          };
        },
        getFriendship(request, context) {
          const caller = record("GetFriendship", context, request);
          const pending = fake.invitations.has(`${caller}→${request.id}`)
            ? { fromUserId: caller, toUserId: request.id }
            : fake.invitations.has(`${request.id}→${caller}`)
              ? { fromUserId: request.id, toUserId: caller }
              : undefined;
          return {
            friends: fake.friendships.has(`${caller}→${request.id}`),
            ...(pending ? { pendingInvitation: { id: "00000000-0000-4000-8000-00000000aaaa", ...pending } } : {}),
            following: fake.follows.has(`${caller}→${request.id}`),
            blocked: fake.blocks.has(`${caller}→${request.id}`),
          };
        },
        listFriends(request, context) {
          record("ListFriends", context, request);
          const friends = [...fake.friendships]
            .map((pair) => pair.split("→") as [string, string])
            .filter(([user]) => user === request.id)
            .map(([userId, friendId]) => ({ userId, friendId, createdAt: timestampNow() }));
          return { friends, total: friends.length };
        },
      });
      router.service(BlockedUserService, {
        blockUser(request, context) {
          const caller = record("BlockUser", context, request);
          fake.blocks.add(`${caller}→${request.blockedUserId}`);
          return { blockedUser: { id: "b1", userId: caller, blockedUserId: request.blockedUserId } };
        },
        unblockUser(request, context) {
          const caller = record("UnblockUser", context, request);
          if (!fake.blocks.delete(`${caller}→${request.id}`)) {
            throw new ConnectError("blocked user not found", Code.NotFound);
          }
          return {};
        },
        getBlockedUser(request, context) {
          const caller = record("GetBlockedUser", context, request);
          if (!fake.blocks.has(`${caller}→${request.id}`)) {
            throw new ConnectError("blocked user not found", Code.NotFound);
          }
          return { blockedUser: { id: "b1", userId: caller, blockedUserId: request.id } };
        },
      });
    },
  };
  return fake;
}
