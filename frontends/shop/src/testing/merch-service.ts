// A small in-memory merch service (and the profile calls the shop makes) for the shop's component tests, served
// through Connect's router transport, so the screens are tested against the real protocol and shapes.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import {
  AvatarAssignmentSchema,
  AvatarSchema,
  ConsumableSchema,
  RankingStatusSchema,
  SeasonSchema,
  TokenAccountSchema,
  TokenBundleSchema,
  type Consumable,
  type TokenAccount,
} from "@tt/proto/tt/merch/v1/merch_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProfileSchema } from "@tt/proto/tt/user/v1/user_pb";

export const TEST_USER_UUID = "00000000-0000-4000-8000-000000000001";

export interface TestMerchService {
  routes: (router: ConnectRouter) => void;
  calls: string[];
  account: TokenAccount | null;
  consumables: Consumable[];
  /** Idempotency keys the purchases carried. */
  keys: string[];
  avatarId: string;
  /** Slugs of the avatars the user owns beyond the free ones. */
  owned: string[];
  /** The next purchase waits until this promise resolves. */
  holdPurchase?: Promise<void>;
}

export function createTestMerchService(
  opts: { balance?: number | null; consumables?: number; bundles?: number; season?: boolean } = {},
): TestMerchService {
  const state: TestMerchService = {
    routes: () => undefined,
    calls: [],
    account:
      opts.balance === null
        ? null
        : create(TokenAccountSchema, {
            id: "00000000-0000-4000-8000-0000000000aa",
            userUuid: TEST_USER_UUID,
            balance: opts.balance ?? 100,
            status: "active",
            updatedAt: timestampFromDate(new Date(1_000_000)),
          }),
    consumables: Array.from({ length: opts.consumables ?? 2 }, (_, i) =>
      create(ConsumableSchema, {
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`,
        name: `Sticker ${i + 1}`,
        tokenCost: 10 * (i + 1),
      }),
    ),
    keys: [],
    avatarId: "",
    owned: [],
  };
  const catAvatar = create(AvatarSchema, { slug: "cat", name: "Cat", status: "PUBLIC" });
  const owlAvatar = create(AvatarSchema, { slug: "owl", name: "Gold owl", status: "PUBLIC", tokenCost: 40 });
  const rankings = Array.from({ length: 25 }, (_, i) =>
    create(RankingStatusSchema, {
      id: `r${i}`,
      userUuid: i === 3 ? TEST_USER_UUID : `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`,
      seasonId: "s1",
      balance: 1000 - i * 10,
      rank: i + 1,
    }),
  );
  const season = create(SeasonSchema, { id: "s1", seasonName: "Winter", seasonStart: timestampFromDate(new Date(0)) });
  state.routes = (router) => {
    router.service(TokenService, {
      getSelfTokenAccount() {
        state.calls.push("GetSelfTokenAccount");
        if (!state.account) {
          throw new ConnectError("We were unable to find your token account. Please try again.", Code.NotFound);
        }
        return { account: state.account };
      },
      createTokenAccount() {
        state.calls.push("CreateTokenAccount");
        state.account ??= create(TokenAccountSchema, {
          id: "new",
          userUuid: TEST_USER_UUID,
          balance: 0,
          status: "active",
        });
        return { account: state.account };
      },
      listTokenBundles(req) {
        state.calls.push(`ListTokenBundles:${req.offset}:${req.limit}`);
        const bundles = Array.from({ length: opts.bundles ?? 1 }, (_, i) =>
          create(TokenBundleSchema, {
            id: `b${i + 1}`,
            productId: `p${i + 1}`,
            name: i === 0 ? "Pile of tokens" : `Bundle ${i + 1}`,
            tokens: 100 * (i + 1),
          }),
        );
        return { bundles: bundles.slice(req.offset, req.offset + (req.limit || 32)), total: bundles.length };
      },
    });
    router.service(ConsumableService, {
      listConsumables(req) {
        state.calls.push(`ListConsumables:${req.offset}:${req.limit}`);
        return {
          consumables: state.consumables.slice(req.offset, req.offset + (req.limit || 32)),
          total: state.consumables.length,
        };
      },
      async createConsumablePurchase(req, ctx) {
        state.calls.push("CreateConsumablePurchase");
        state.keys.push(ctx.requestHeader.get("idempotency-key") ?? "");
        if (state.holdPurchase) await state.holdPurchase;
        const account = state.account;
        if (!account || account.id !== req.accountId) {
          throw new ConnectError("We were unable to find your token account. Please try again.", Code.NotFound);
        }
        const c = state.consumables.find((x) => x.id === req.consumableId)!;
        if (req.lastTokenBalance !== undefined && req.lastTokenBalance !== account.balance) {
          throw new ConnectError(
            "your token balance changed since you last saw it; check it and try again",
            Code.Aborted,
          );
        }
        if (account.balance < c.tokenCost) throw new ConnectError("not enough tokens", Code.Aborted);
        state.account = create(TokenAccountSchema, { ...account, balance: account.balance - c.tokenCost });
        return { account: state.account, purchase: { id: "p", consumableId: c.id, tokenCost: c.tokenCost } };
      },
    });
    router.service(AvatarService, {
      listAvatars() {
        const owned = state.owned.includes("owl");
        return {
          avatars: owned ? [catAvatar, owlAvatar] : [catAvatar],
          assignments: owned
            ? [create(AvatarAssignmentSchema, { avatarAssignmentId: "a1", avatarSlug: "owl", type: "PURCHASED" })]
            : [],
        };
      },
      listAllAvatars() {
        return { avatars: [catAvatar, owlAvatar], total: 2 };
      },
      createAvatarAssignment(req, ctx) {
        state.calls.push(`CreateAvatarAssignment:${req.slug}`);
        state.keys.push(ctx.requestHeader.get("idempotency-key") ?? "");
        const account = state.account;
        if (!account)
          throw new ConnectError("We were unable to find your token account. Please try again.", Code.NotFound);
        if (state.owned.includes(req.slug)) throw new ConnectError("avatar already assigned", Code.AlreadyExists);
        if (account.balance < owlAvatar.tokenCost) throw new ConnectError("not enough tokens", Code.Aborted);
        state.owned.push(req.slug);
        state.account = create(TokenAccountSchema, { ...account, balance: account.balance - owlAvatar.tokenCost });
        return {
          assignment: create(AvatarAssignmentSchema, {
            avatarAssignmentId: "a1",
            avatarSlug: req.slug,
            type: "PURCHASED",
          }),
          account: state.account,
        };
      },
    });
    router.service(ProfileService, {
      getProfiles(req) {
        state.calls.push("GetProfiles");
        // The leaderboard's people: every user but one the service no longer knows.
        return {
          profiles: req.users
            .filter((uuid) => !uuid.endsWith("000000000007"))
            .map((uuid) =>
              create(ProfileSchema, { uuid, nickname: uuid === TEST_USER_UUID ? "Ada" : `DJ ${uuid.slice(-2)}` }),
            ),
        };
      },
      getOwnProfile() {
        return { profile: create(ProfileSchema, { uuid: TEST_USER_UUID, avatarId: state.avatarId }) };
      },
      updateProfile(req) {
        state.calls.push(`UpdateProfile:${req.avatarId}`);
        state.avatarId = req.avatarId ?? state.avatarId;
        return { profile: create(ProfileSchema, { uuid: TEST_USER_UUID, avatarId: state.avatarId }) };
      },
    });
    // Without a season the service answers as the real one does: no status and no season, an empty leaderboard;
    // only GetCurrentSeason answers 404 (which the browser would log, so the shop never asks it).
    const running = opts.season !== false;
    router.service(PointsService, {
      getCurrentSeason() {
        state.calls.push("GetCurrentSeason");
        if (!running) throw new ConnectError("no current season", Code.NotFound);
        return { season };
      },
      getCurrentRankingStatus() {
        if (!running) return { hasCurrentRankingStatus: false };
        return { hasCurrentRankingStatus: true, rankingStatus: rankings[3], season };
      },
      getSeasonRanking(req) {
        state.calls.push(`GetSeasonRanking:${req.take}:${req.skip}`);
        if (!running) return { rankings: [], total: 0, take: req.take, skip: req.skip };
        return {
          season,
          rankings: rankings.slice(req.skip, req.skip + req.take),
          total: rankings.length,
          take: req.take,
          skip: req.skip,
        };
      },
    });
  };
  return state;
}
