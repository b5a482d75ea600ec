// Rows → proto messages, shared by the route files.
import { create } from "@bufbuild/protobuf";
import {
  AvatarAssignmentSchema as AvatarAssignmentMessage,
  AvatarSchema as AvatarMessage,
  ConsumableSchema as ConsumableMessage,
  RankingStatusSchema as RankingStatusMessage,
  SeasonSchema as SeasonMessage,
  TokenAccountSchema as TokenAccountMessage,
  TokenBundleSchema as TokenBundleMessage,
  TokenTransactionSchema as TokenTransactionMessage,
} from "@tt/proto/tt/merch/v1/merch_pb";
import type { Avatar } from "../modules/avatars/avatar.entity.ts";
import type { AvatarAssignment } from "../modules/avatars/avatar-assignment.entity.ts";
import type { AccountRow, EntryRow } from "../modules/ledger/ledger.ts";
import type { SeasonRow, StatusRow } from "../modules/points/award.ts";
import type { Season } from "../modules/points/season.entity.ts";
import type { Consumable } from "../modules/shop/consumable.entity.ts";
import type { TokenBundle } from "../modules/shop/token-bundle.entity.ts";
import type { Media } from "../modules/media/media.ts";
import { optionalTimestamp as ts } from "@tt/kit";

/** Entities carry Dates; SQL answers timestamps as text. */

export function avatarMessage(a: Partial<Avatar>, media: Media) {
  return create(AvatarMessage, {
    id: a.id ?? "",
    slug: a.slug ?? "",
    name: a.name ?? "",
    status: a.status ?? "",
    discordOnly: a.discordOnly ?? false,
    tokenCost: a.tokenCost ?? 0,
    seasonId: a.seasonId ?? "",
    minPoints: a.minPoints ?? 0,
    imageUrl: media.urlOf(a.imageKey),
    createdAt: ts(a.createdAt),
    updatedAt: ts(a.updatedAt),
  });
}

export function assignmentMessage(x: AvatarAssignment, slug: string) {
  return create(AvatarAssignmentMessage, {
    avatarAssignmentId: x.id,
    avatarSlug: slug,
    userUuid: x.userUuid,
    type: x.type,
    createdAt: ts(x.createdAt),
  });
}

export function seasonMessage(s: Partial<Season> | SeasonRow) {
  const row = s as Partial<Season> & Partial<SeasonRow>;
  return create(SeasonMessage, {
    id: row.id ?? "",
    seasonName: row.seasonName ?? row.season_name ?? "",
    seasonStart: ts(row.seasonStart ?? row.season_start),
  });
}

export function statusMessage(r: StatusRow | undefined) {
  if (!r) return undefined;
  return create(RankingStatusMessage, {
    id: r.id,
    userUuid: r.user_uuid,
    seasonId: r.season_id ?? "",
    balance: r.balance,
    rank: r.rank === undefined ? 0 : Number(r.rank),
    updatedAt: ts(r.updated_at),
  });
}

export function accountMessage(a: AccountRow) {
  return create(TokenAccountMessage, {
    id: a.id,
    userUuid: a.user_uuid,
    balance: a.balance,
    status: a.status,
    updatedAt: ts(a.updated_at),
    createdAt: ts(a.created_at),
  });
}

export function entryMessage(e: EntryRow) {
  return create(TokenTransactionMessage, {
    id: e.id,
    accountId: e.account_id,
    type: e.type,
    amount: e.amount,
    balanceAfter: e.balance_after,
    holdId: e.hold_id ?? "",
    reason: e.reason ?? "",
    createdAt: ts(e.created_at),
  });
}

export function consumableMessage(c: Consumable, fileUrl: string) {
  return create(ConsumableMessage, {
    id: c.id,
    name: c.name,
    tokenCost: c.tokenCost,
    fileId: c.fileId ?? "",
    fileUrl,
    createdAt: ts(c.createdAt),
    updatedAt: ts(c.updatedAt),
  });
}

export function bundleMessage(b: TokenBundle, media: Media) {
  return create(TokenBundleMessage, {
    id: b.id,
    productId: b.productId,
    name: b.name,
    tokens: b.tokens,
    thumbnailUrl: media.urlOf(b.thumbnailKey),
    createdAt: ts(b.createdAt),
    updatedAt: ts(b.updatedAt),
  });
}

/** The admin roles of this service's admin calls (superUser may always call them). */
export function isAdmin(role: string): boolean {
  return role === "admin" || role === "superUser";
}
