// The shop's calls to the merch service (and the user service's profile for the current avatar), as TanStack
// Query hooks. The balance uses the kit's tokenBalance family, which refetches whenever the window regains
// focus (002 §9); avatars use the avatars family (cached 60 s).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { Code, ConnectError } from "@connectrpc/connect";
import { PAGE_SIZE, queryKeys, useAnalytics, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import type { Consumable, TokenAccount, TokenBundle } from "@tt/proto/tt/merch/v1/merch_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";

export type { Consumable, TokenAccount, TokenBundle };

export const LEADERBOARD_TAKE = 10;

function useUserUuid(): string {
  return useSession().user?.uuid ?? "";
}

/** Users whose token account this page has already made sure of (POST /api/v1/token-accounts answers the
 * existing one). */
const ensuredAccounts = new Set<string>();

/**
 * The caller's token account, opened on first need (issue 15): the first read of a page asks the create call,
 * which answers the existing account or opens one, so a new user's shop never meets the 404 of a missing
 * account; later reads (refetch on focus) are plain reads.
 */
export function useTokenAccount() {
  const client = useClient(TokenService);
  const uuid = useUserUuid();
  return useQuery({
    queryKey: queryKeys.tokenBalance(uuid),
    queryFn: async (): Promise<TokenAccount | null> => {
      try {
        if (!ensuredAccounts.has(uuid)) {
          const account = (await client.createTokenAccount({})).account ?? null;
          ensuredAccounts.add(uuid);
          return account;
        }
        return (await client.getSelfTokenAccount({})).account ?? null;
      } catch (err) {
        if (err instanceof ConnectError && err.code === Code.NotFound) return null;
        throw err;
      }
    },
  });
}

export function useCreateTokenAccount() {
  const client = useClient(TokenService);
  const queryClient = useQueryClient();
  const key = queryKeys.tokenBalance(useUserUuid());
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: async () => (await client.createTokenAccount({})).account ?? null,
    onSuccess: (account) => {
      analytics.track("shop-action", { action: "open-token-account" });
      queryClient.setQueryData(key, account);
    },
  });
}

interface Page<T> {
  items: T[];
  total: number;
  offset: number;
}

function nextOffset<T>(last: Page<T>): number | undefined {
  const next = last.offset + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
}

/** Consumables, 32 a page (002 §9). */
export function useConsumables() {
  const client = useClient(ConsumableService);
  return useInfiniteQuery({
    queryKey: ["consumables", "list"],
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<Page<Consumable>> => {
      const res = await client.listConsumables({ offset: pageParam, limit: PAGE_SIZE.consumables });
      return { items: res.consumables, total: res.total, offset: pageParam };
    },
    getNextPageParam: nextOffset,
  });
}

/** Token bundles, 32 a page (002 §9). */
export function useTokenBundles() {
  const client = useClient(TokenService);
  return useInfiniteQuery({
    queryKey: ["tokenBundles", "list"],
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<Page<TokenBundle>> => {
      const res = await client.listTokenBundles({ offset: pageParam, limit: PAGE_SIZE.tokenBundles });
      return { items: res.bundles, total: res.total, offset: pageParam };
    },
    getNextPageParam: nextOffset,
  });
}

export function itemsOf<T>(data: InfiniteData<Page<T>> | undefined): T[] {
  return data?.pages.flatMap((p) => p.items) ?? [];
}

/**
 * Buys a consumable the optimistic way: the balance drops at once, the answer's account replaces it, a refusal
 * puts the old one back. The call carries the client's view (balanceUnmodifiedSince, lastTokenBalance) and an
 * Idempotency-Key per purchase, so a retried request never spends twice.
 */
export interface PurchaseVariables {
  consumable: Consumable;
  account: TokenAccount | null | undefined;
}

export function usePurchase(roomUuid = "") {
  const client = useClient(ConsumableService);
  const queryClient = useQueryClient();
  const key = queryKeys.tokenBalance(useUserUuid());
  const analytics = useAnalytics();
  return useMutation({
    // The account as the client saw it when the user clicked (read before the optimistic change).
    mutationFn: async ({ consumable, account }: PurchaseVariables) => {
      if (!account) throw new ConnectError("no token account", Code.NotFound);
      const res = await client.createConsumablePurchase(
        {
          consumableId: consumable.id,
          tokenCost: consumable.tokenCost,
          accountId: account.id,
          roomUuid,
          balanceUnmodifiedSince: account.updatedAt,
          lastTokenBalance: account.balance,
        },
        { headers: { "idempotency-key": crypto.randomUUID() } },
      );
      return res;
    },
    onMutate: async ({ consumable }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<TokenAccount | null>(key);
      if (previous) queryClient.setQueryData(key, { ...previous, balance: previous.balance - consumable.tokenCost });
      return { previous };
    },
    onError: (_err, _variables, context) => {
      if (context) queryClient.setQueryData(key, context.previous);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onSuccess: (res, { consumable }) => {
      analytics.track("purchase-action", {
        item: "consumable",
        consumableId: consumable.id,
        tokenCost: consumable.tokenCost,
        roomUuid,
      });
      if (res.account) queryClient.setQueryData(key, res.account);
    },
  });
}

/** The avatars the caller may choose, their assignments, and the shop's catalogue (60 s, 002 §9). */
export function useAvatars() {
  const client = useClient(AvatarService);
  const uuid = useUserUuid();
  return useQuery({
    queryKey: [...queryKeys.avatars(), uuid],
    queryFn: async () => {
      const [mine, all] = await Promise.all([client.listAvatars({}), client.listAllAvatars({ limit: 100 })]);
      const owned = new Set(mine.assignments.map((a) => a.avatarSlug));
      const onSale = all.avatars.filter((a) => a.status === "PUBLIC" && a.tokenCost > 0 && !owned.has(a.slug));
      return { choosable: mine.avatars, onSale };
    },
  });
}

export function useBuyAvatar() {
  const client = useClient(AvatarService);
  const queryClient = useQueryClient();
  const uuid = useUserUuid();
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: (slug: string) =>
      client.createAvatarAssignment({ slug }, { headers: { "idempotency-key": crypto.randomUUID() } }),
    onSuccess: (res, slug) => {
      analytics.track("purchase-action", { item: "avatar", slug });
      if (res.account) queryClient.setQueryData(queryKeys.tokenBalance(uuid), res.account);
      void queryClient.invalidateQueries({ queryKey: queryKeys.avatars() });
    },
  });
}

/**
 * The own profile's key: under the profile family (cached like it, invalidated with it), but not the family's
 * own key, where the shell keeps the nickname it shows (another shape, in the query client the page shares).
 */
export const ownProfileKey = (uuid: string) => [...queryKeys.profile(uuid), "own"] as const;

/** The current avatar is the profile's avatarId in the user service (one source of truth). */
export function useOwnProfile() {
  const client = useClient(ProfileService);
  const uuid = useUserUuid();
  return useQuery({
    queryKey: ownProfileKey(uuid),
    queryFn: async () => (await client.getOwnProfile({})).profile ?? null,
  });
}

export function useChooseAvatar() {
  const client = useClient(ProfileService);
  const queryClient = useQueryClient();
  const uuid = useUserUuid();
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: (slug: string) => client.updateProfile({ avatarId: slug }),
    onSuccess: (_res, slug) => {
      analytics.track("shop-action", { action: "choose-avatar", slug });
      // The whole profile family: the shop's own profile and what the shell shows (its current avatar).
      return queryClient.invalidateQueries({ queryKey: queryKeys.profile(uuid) });
    },
  });
}

/**
 * The caller's standing in the current season, and the season itself (none while no season runs). Asked of
 * GetCurrentRankingStatus, which answers "no season" plainly: GetCurrentSeason answers 404 then, which the browser
 * logs as an error on a page that has nothing wrong.
 */
export function useMyRanking() {
  const client = useClient(PointsService);
  return useQuery({
    queryKey: ["ranking", "mine", useUserUuid()],
    queryFn: () => client.getCurrentRankingStatus({}),
  });
}

/** The names and avatars of a page of the leaderboard (one profile batch). */
export function useProfiles(users: readonly string[]) {
  const client = useClient(ProfileService);
  const sorted = [...new Set(users)].sort();
  return useQuery({
    queryKey: ["profile", "batch", ...sorted],
    queryFn: async () => new Map((await client.getProfiles({ users: sorted })).profiles.map((p) => [p.uuid, p])),
    enabled: sorted.length > 0,
    staleTime: 5 * 60_000,
  });
}

/** The current season's leaderboard, `take` rows from `skip`. */
export function useLeaderboard(skip: number) {
  const client = useClient(PointsService);
  return useQuery({
    queryKey: ["ranking", "season", skip],
    queryFn: () => client.getSeasonRanking({ take: LEADERBOARD_TAKE, skip }),
    placeholderData: (previous) => previous,
  });
}
