// Seasons, points and rankings.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { adminList, callEm, callIdentity, type AdminListSpec } from "@tt/kit";
import type { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import type { MerchContext } from "../context.ts";
import { db } from "../db.ts";
import {
  assignAchieved,
  awardPoints,
  currentSeason,
  NO_CURRENT_SEASON,
  pendingAchieved,
  SEASON_NOT_FOUND,
  seasonRanking,
  statusWithRank,
  type SeasonRow,
} from "../modules/points/award.ts";
import { LifetimeRankingStatus } from "../modules/points/lifetime-ranking-status.entity.ts";
import { RankingStatus } from "../modules/points/ranking-status.entity.ts";
import { Season } from "../modules/points/season.entity.ts";
import { seasonMessage, statusMessage } from "./messages.ts";
import { dateOf } from "./time.ts";

const STATUS_NOT_FOUND = "ranking status not found";
const SEASON_TAKEN = "a season with this name or start already exists";

const RANKING_FIELDS = { id: "id", userUuid: "userUuid", balance: "balance", updatedAt: "updatedAt" };

export const ADMIN_RANKING_LIST: AdminListSpec<RankingStatus> = {
  entity: RankingStatus,
  fields: { ...RANKING_FIELDS, seasonId: "seasonId" },
  defaultSort: [
    ["balance", "DESC"],
    ["id", "ASC"],
  ],
};

export const ADMIN_LIFETIME_LIST: AdminListSpec<LifetimeRankingStatus> = {
  entity: LifetimeRankingStatus,
  fields: RANKING_FIELDS,
  defaultSort: [
    ["balance", "DESC"],
    ["id", "ASC"],
  ],
};

export const ADMIN_SEASON_LIST: AdminListSpec<Season> = {
  entity: Season,
  fields: { id: "id", seasonName: "seasonName", seasonStart: "seasonStart", createdAt: "createdAt" },
  defaultSort: [["seasonStart", "DESC"]],
};

function statusRow(r: { id?: string; userUuid?: string; seasonId?: string; balance?: number; updatedAt?: Date }) {
  return {
    id: r.id ?? "",
    user_uuid: r.userUuid ?? "",
    season_id: r.seasonId ?? null,
    balance: r.balance ?? 0,
    updated_at: r.updatedAt ?? new Date(0),
  };
}

function parseTime(value: string, field: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new ConnectError(`${field} must be an ISO 8601 time`, Code.InvalidArgument);
  }
  return date;
}

async function seasonById(em: EntityManager, id: string): Promise<Season> {
  const season = await em.findOne(Season, { id: id.toLowerCase() });
  if (!season) throw new ConnectError(SEASON_NOT_FOUND, Code.NotFound);
  return season;
}

async function requireCurrent(em: EntityManager): Promise<SeasonRow> {
  const season = await currentSeason(em);
  if (!season) throw new ConnectError(NO_CURRENT_SEASON, Code.NotFound);
  return season;
}

function uniqueViolation(err: unknown): never {
  if ((err as { code?: string }).code === "23505") throw new ConnectError(SEASON_TAKEN, Code.AlreadyExists);
  throw err;
}

export function pointsRoutes(svc: MerchContext): ServiceImpl<typeof PointsService> {
  const defaultTake = svc.config.MERCH_RANKING_PAGE_SIZE;

  const ranking = async (em: EntityManager, season: SeasonRow | null, take: number, skip: number) => {
    const t = take || defaultTake;
    const page = await seasonRanking(em, season?.id ?? null, t, skip);
    return {
      season: season ? seasonMessage(season) : undefined,
      rankings: page.rows.map((r) => statusMessage(r)!),
      total: page.total,
      take: t,
      skip,
    };
  };

  const adjacent = async (em: EntityManager, start: string, dir: "next" | "prev") => {
    const at = parseTime(start, "seasonStart");
    const row = await db(em)
      .selectFrom("season")
      .selectAll()
      .where("season_start", dir === "next" ? ">" : "<", at)
      .orderBy("season_start", dir === "next" ? "asc" : "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) throw new ConnectError(SEASON_NOT_FOUND, Code.NotFound);
    return row;
  };

  const currentStatus = async (em: EntityManager, userUuid: string) => {
    const season = await currentSeason(em);
    const status = season ? await statusWithRank(em, season.id, userUuid) : undefined;
    return {
      hasCurrentRankingStatus: !!status,
      rankingStatus: statusMessage(status),
      season: season ? seasonMessage(season) : undefined,
    };
  };

  const lifetimeOf = async (em: EntityManager, userUuid: string) => {
    const row = await em.findOne(LifetimeRankingStatus, { userUuid });
    return row ? statusMessage(statusRow(row)) : undefined;
  };

  return {
    async handlePoints(req, ctx) {
      const em = callEm(ctx);
      if (req.points === 0) throw new ConnectError("points missing in request", Code.InvalidArgument);
      const eventKey = `admin:${req.eventId || randomUUID()}`;
      const result = await awardPoints(em, {
        userUuid: req.userUuid.toLowerCase(),
        points: req.points,
        eventKey,
        seasonId: req.seasonId ? req.seasonId.toLowerCase() : undefined,
        reason: req.reason || `by ${callIdentity(ctx).subject}`,
      });
      if (!result.applied) return { applied: false };
      return { applied: true, rankingStatus: statusMessage(result.status), lifetime: statusMessage(result.lifetime) };
    },

    async awardServicePoints(req, ctx) {
      const em = callEm(ctx);
      const caller = callIdentity(ctx).subject;
      const result = await awardPoints(em, {
        userUuid: req.userUuid.toLowerCase(),
        points: req.points || 1,
        eventKey: `service:${caller}:${req.eventId}`,
        reason: req.reason || undefined,
      });
      return {
        applied: result.applied,
        rankingStatus: statusMessage(result.status),
        lifetime: statusMessage(result.lifetime),
      };
    },

    async getRankingStatuses(req, ctx) {
      const em = callEm(ctx);
      const userUuid = req.userUuid.toLowerCase();
      const rows = await db(em)
        .selectFrom("ranking_status as r")
        .innerJoin("season as s", "s.id", "r.season_id")
        .selectAll("r")
        .where("r.user_uuid", "=", userUuid)
        .orderBy("s.season_start", "desc")
        .limit(1000)
        .execute();
      return { rankingStatuses: rows.map((r) => statusMessage(r)!), lifetime: await lifetimeOf(em, userUuid) };
    },

    async getRankingStatusSum(req, ctx) {
      const em = callEm(ctx);
      const row = await db(em)
        .selectFrom("ranking_status")
        .select((eb) => eb.fn.sum<string | null>("balance").as("sum"))
        .where("user_uuid", "=", req.userUuid.toLowerCase())
        .executeTakeFirst();
      return { sum: BigInt(row?.sum ?? 0) };
    },

    getCurrentRankingStatus: (_req, ctx) => currentStatus(callEm(ctx), callIdentity(ctx).subject),
    getUserCurrentRankingStatus: (req, ctx) => currentStatus(callEm(ctx), req.userUuid.toLowerCase()),

    async getSeasonRanking(req, ctx) {
      const em = callEm(ctx);
      const season = await currentSeason(em);
      if (!season) return { rankings: [], total: 0, take: req.take || defaultTake, skip: req.skip };
      return ranking(em, season, req.take, req.skip);
    },

    getAllSeasonsRanking: (req, ctx) => ranking(callEm(ctx), null, req.take, req.skip),

    async getSeasonRankingByName(req, ctx) {
      const em = callEm(ctx);
      const season = await em.findOne(Season, { seasonName: req.seasonName });
      if (!season) throw new ConnectError(SEASON_NOT_FOUND, Code.NotFound);
      return ranking(
        em,
        { id: season.id, season_name: season.seasonName, season_start: season.seasonStart },
        req.take,
        req.skip,
      );
    },

    async getNextSeasonRanking(req, ctx) {
      const em = callEm(ctx);
      return ranking(em, await adjacent(em, req.seasonStart, "next"), req.take, req.skip);
    },

    async getPrevSeasonRanking(req, ctx) {
      const em = callEm(ctx);
      return ranking(em, await adjacent(em, req.seasonStart, "prev"), req.take, req.skip);
    },

    async getCurrentSeasonRanking(req, ctx) {
      const em = callEm(ctx);
      return ranking(em, await requireCurrent(em), req.take, req.skip);
    },

    async backfillAchievedAvatars(req, ctx) {
      const em = callEm(ctx);
      const season = await seasonById(em, req.seasonId);
      const assigned = await assignAchieved(em, season.id, req.limit || 100);
      return { assigned, more: (await pendingAchieved(em, season.id)) > 0 };
    },

    async adminListRankingStatuses(req, ctx) {
      const scope: Record<string, unknown> = {};
      if (req.userUuid) scope.userUuid = req.userUuid.toLowerCase();
      if (req.seasonId) scope.seasonId = req.seasonId.toLowerCase();
      if (req.balance) scope.balance = { $gte: req.balance };
      const page = await adminList(callEm(ctx), ADMIN_RANKING_LIST, req.query ?? {}, scope);
      return { ...page, data: page.data.map((r) => statusMessage(statusRow(r))!) };
    },

    async adminGetRankingStatus(req, ctx) {
      const row = await callEm(ctx).findOne(RankingStatus, { id: req.id.toLowerCase() });
      if (!row) throw new ConnectError(STATUS_NOT_FOUND, Code.NotFound);
      return { rankingStatus: statusMessage(statusRow(row)) };
    },

    async adminListLifetimeRankingStatuses(req, ctx) {
      const scope: Record<string, unknown> = {};
      if (req.userUuid) scope.userUuid = req.userUuid.toLowerCase();
      if (req.balance) scope.balance = { $gte: req.balance };
      if (req.seasonId) throw new ConnectError("seasonId does not apply to lifetime statuses", Code.InvalidArgument);
      const page = await adminList(callEm(ctx), ADMIN_LIFETIME_LIST, req.query ?? {}, scope);
      return { ...page, data: page.data.map((r) => statusMessage(statusRow(r))!) };
    },

    async adminGetLifetimeRankingStatus(req, ctx) {
      const row = await callEm(ctx).findOne(LifetimeRankingStatus, { id: req.id.toLowerCase() });
      if (!row) throw new ConnectError(STATUS_NOT_FOUND, Code.NotFound);
      return { rankingStatus: statusMessage(statusRow(row)) };
    },

    async adminListSeasons(req, ctx) {
      const page = await adminList(callEm(ctx), ADMIN_SEASON_LIST, req.query ?? {});
      return { ...page, data: page.data.map(seasonMessage) };
    },

    async adminGetSeason(req, ctx) {
      return { season: seasonMessage(await seasonById(callEm(ctx), req.id)) };
    },

    async adminDeleteSeason(req, ctx) {
      await deleteSeason(callEm(ctx), req.id);
      return {};
    },

    async deleteSeason(req, ctx) {
      await deleteSeason(callEm(ctx), req.id);
      return {};
    },

    async createSeason(req, ctx) {
      const em = callEm(ctx);
      if (!req.seasonStart) throw new ConnectError("seasonStart missing in request", Code.InvalidArgument);
      const start = dateOf(req.seasonStart, "seasonStart");
      const season = em.create(Season, { seasonName: req.seasonName, seasonStart: start });
      await em.flush().catch(uniqueViolation);
      return { season: seasonMessage(season) };
    },

    async updateSeason(req, ctx) {
      const em = callEm(ctx);
      const season = await seasonById(em, req.id);
      if (req.seasonName !== undefined) season.seasonName = req.seasonName;
      if (req.seasonStart) season.seasonStart = dateOf(req.seasonStart, "seasonStart");
      await em.flush().catch(uniqueViolation);
      return { season: seasonMessage(season) };
    },

    async getCurrentSeason(_req, ctx) {
      return { season: seasonMessage(await requireCurrent(callEm(ctx))) };
    },
  };
}

async function deleteSeason(em: EntityManager, id: string): Promise<void> {
  const season = await seasonById(em, id);
  await em.transactional(async (tem) => {
    await tem.nativeDelete(RankingStatus, { seasonId: season.id });
    await tem.nativeDelete(Season, { id: season.id });
  });
}
