// Points: applied once per awarding event. The event's key is inserted first (unique); only when that insert
// wins does the same transaction add the points to the season's and the lifetime ranking status and assign
// the season's award avatars the new balance reaches. Replaying an event finds its key and changes nothing.
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "@tt/kit";
import { db } from "../../db.ts";
import { inTransaction } from "../ledger/ledger.ts";

export const SEASON_NOT_FOUND = "season not found";
export const NO_CURRENT_SEASON = "no current season";

/** A season as SQL answers it (its start as text). */
export interface SeasonRow {
  id: string;
  season_name: string;
  season_start: Date | string;
}

/** A ranking status as SQL answers it (its time as text); the lifetime status has no season. */
export interface StatusRow {
  id: string;
  user_uuid: string;
  season_id: string | null;
  balance: number;
  updated_at: Date | string;
  rank?: string | number;
}

/** The season with the latest start not after `at`. */
export async function currentSeason(em: EntityManager, at = new Date()): Promise<SeasonRow | undefined> {
  return db(em)
    .selectFrom("season")
    .select(["id", "season_name", "season_start"])
    .where("season_start", "<=", at)
    .orderBy("season_start", "desc")
    .limit(1)
    .executeTakeFirst();
}

export interface AwardInput {
  userUuid: string;
  points: number;
  /** The awarding event (a play, an admin action): applied once. */
  eventKey: string;
  /** The season to count the points in; the current one when absent. */
  seasonId?: string;
  reason?: string;
}

export interface AwardResult {
  applied: boolean;
  status?: StatusRow;
  lifetime?: StatusRow;
  avatarsAssigned: number;
}

/**
 * Awards points once per eventKey (the function the played-song consumer will call once the live stage's
 * event exists). Refuses a balance below zero (409) and a season that does not exist (404).
 */
export async function awardPoints(em: EntityManager, input: AwardInput): Promise<AwardResult> {
  return inTransaction(em, async (tem) => {
    const season = input.seasonId
      ? await db(tem).selectFrom("season").selectAll().where("id", "=", input.seasonId).executeTakeFirst()
      : await currentSeason(tem);
    if (input.seasonId && !season) throw new ConnectError(SEASON_NOT_FOUND, Code.NotFound);
    const inserted = await db(tem)
      .insertInto("points_award")
      .values({
        id: randomUUID(),
        event_key: input.eventKey,
        user_uuid: input.userUuid,
        season_id: season?.id ?? null,
        points: input.points,
        reason: input.reason ?? null,
        created_at: new Date(),
      })
      .onConflict((oc) => oc.column("event_key").doNothing())
      .returning("id")
      .execute();
    if (inserted.length === 0) return { applied: false, avatarsAssigned: 0 };
    const now = new Date();
    let status: StatusRow | undefined;
    if (season) {
      status = await db(tem)
        .insertInto("ranking_status")
        .values({
          id: randomUUID(),
          user_uuid: input.userUuid,
          season_id: season.id,
          balance: input.points,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["season_id", "user_uuid"]).doUpdateSet((eb) => ({
            balance: eb("ranking_status.balance", "+", eb.ref("excluded.balance")),
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .returningAll()
        .executeTakeFirst();
      if (status!.balance < 0) throw new ConnectError("points would take the balance below zero", Code.Aborted);
    }
    const lifetime: StatusRow | undefined = await db(tem)
      .insertInto("lifetime_ranking_status")
      .values({ id: randomUUID(), user_uuid: input.userUuid, balance: input.points, updated_at: now })
      .onConflict((oc) =>
        oc.column("user_uuid").doUpdateSet((eb) => ({
          balance: eb("lifetime_ranking_status.balance", "+", eb.ref("excluded.balance")),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .returningAll()
      .returning(sql<null>`null`.as("season_id"))
      .executeTakeFirst();
    if (lifetime!.balance < 0) throw new ConnectError("points would take the balance below zero", Code.Aborted);
    let avatarsAssigned = 0;
    if (season && status && input.points > 0) {
      avatarsAssigned = await assignAchieved(tem, season.id, 1000, input.userUuid);
    }
    return { applied: true, status, lifetime, avatarsAssigned };
  });
}

/**
 * Assigns the season's SEASON_AWARD avatars to users whose balance reached their minPoints and who lack them,
 * at most `limit` (one user when `userUuid` is given). Idempotent: the unique (avatar, user) pair and the
 * "lacks" condition make a second run assign nothing new.
 */
export async function assignAchieved(
  em: EntityManager,
  seasonId: string,
  limit: number,
  userUuid?: string,
): Promise<number> {
  let achieved = achievedAvatars(em, seasonId);
  if (userUuid) achieved = achieved.where("r.user_uuid", "=", userUuid);
  const rows = await db(em)
    .insertInto("avatar_assignment")
    .columns(["id", "avatar_id", "user_uuid", "type", "created_at"])
    .expression(
      achieved
        .select([
          sql<string>`gen_random_uuid()`.as("id"),
          "a.id as avatar_id",
          "r.user_uuid",
          sql.lit("SEASON_AWARD").as("type"),
          sql<Date>`now()`.as("created_at"),
        ])
        .orderBy("r.balance", "desc")
        .orderBy("r.user_uuid")
        .limit(limit),
    )
    .onConflict((oc) => oc.columns(["avatar_id", "user_uuid"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

/**
 * The season's SEASON_AWARD avatars (`a`) with the statuses (`r`) whose balance reached their minPoints and whose
 * users lack them.
 */
function achievedAvatars(em: EntityManager, seasonId: string) {
  return db(em)
    .selectFrom("avatar as a")
    .innerJoin("ranking_status as r", "r.season_id", "a.season_id")
    .where("a.status", "=", "SEASON_AWARD")
    .where("a.season_id", "=", seasonId)
    .whereRef("r.balance", ">=", "a.min_points")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("avatar_assignment as x")
            .select(sql.lit(1).as("one"))
            .whereRef("x.avatar_id", "=", "a.id")
            .whereRef("x.user_uuid", "=", "r.user_uuid"),
        ),
      ),
    );
}

/** How many achieved avatars are still to assign in the season. */
export async function pendingAchieved(em: EntityManager, seasonId: string): Promise<number> {
  const row = await achievedAvatars(em, seasonId)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A season's statuses, each with its rank (1 = highest balance), to be ordered, paged or filtered. */
function seasonStatusesRanked(em: EntityManager, seasonId: string) {
  return db(em)
    .selectFrom((eb) =>
      eb
        .selectFrom("ranking_status")
        .selectAll()
        .select((r) =>
          r.fn
            .agg<string>("rank")
            .over((o) => o.orderBy("balance", "desc"))
            .as("rank"),
        )
        .where("season_id", "=", seasonId)
        .as("t"),
    )
    .selectAll();
}

/** A season's leaderboard page (rank 1 = highest balance; ties by who got there first). */
export async function seasonRanking(em: EntityManager, seasonId: string | null, take: number, skip: number) {
  if (seasonId) {
    const rows: StatusRow[] = await seasonStatusesRanked(em, seasonId)
      .orderBy("rank")
      .orderBy("updated_at")
      .orderBy("user_uuid")
      .limit(take)
      .offset(skip)
      .execute();
    const count = await db(em)
      .selectFrom("ranking_status")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("season_id", "=", seasonId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
  }
  const rows: StatusRow[] = await db(em)
    .selectFrom((eb) =>
      eb
        .selectFrom("lifetime_ranking_status")
        .selectAll()
        .select((r) => [
          sql<null>`null`.as("season_id"),
          r.fn
            .agg<string>("rank")
            .over((o) => o.orderBy("balance", "desc"))
            .as("rank"),
        ])
        .as("t"),
    )
    .selectAll()
    .orderBy("rank")
    .orderBy("updated_at")
    .orderBy("user_uuid")
    .limit(take)
    .offset(skip)
    .execute();
  const count = await db(em)
    .selectFrom("lifetime_ranking_status")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** A user's status in a season with its rank, or undefined. */
export async function statusWithRank(em: EntityManager, seasonId: string, userUuid: string) {
  const row: StatusRow | undefined = await seasonStatusesRanked(em, seasonId)
    .where("user_uuid", "=", userUuid)
    .executeTakeFirst();
  return row;
}
