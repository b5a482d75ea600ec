// Points: applied once per awarding event. The event's key is inserted first (unique); only when that insert
// wins does the same transaction add the points to the season's and the lifetime ranking status and assign
// the season's award avatars the new balance reaches. Replaying an event finds its key and changes nothing.
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { inTransaction } from "../ledger/ledger.ts";

const S = `"merch"`;

export const SEASON_NOT_FOUND = "season not found";
export const NO_CURRENT_SEASON = "no current season";

export interface SeasonRow {
  id: string;
  season_name: string;
  season_start: Date;
}

export interface StatusRow {
  id: string;
  user_uuid: string;
  season_id: string | null;
  balance: number;
  updated_at: Date;
  rank?: string | number;
}

/** The season with the latest start not after `at`. */
export async function currentSeason(em: EntityManager, at = new Date()): Promise<SeasonRow | undefined> {
  const rows = await em.execute<SeasonRow[]>(
    `select "id", "season_name", "season_start" from ${S}."season" where "season_start" <= ?
     order by "season_start" desc limit 1`,
    [at],
  );
  return rows[0];
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
      ? (await tem.execute<SeasonRow[]>(`select * from ${S}."season" where "id" = ?`, [input.seasonId]))[0]
      : await currentSeason(tem);
    if (input.seasonId && !season) throw new ConnectError(SEASON_NOT_FOUND, Code.NotFound);
    const inserted = await tem.execute<Array<{ id: string }>>(
      `insert into ${S}."points_award" ("id", "event_key", "user_uuid", "season_id", "points", "reason", "created_at")
       values (?, ?, ?, ?, ?, ?, ?) on conflict ("event_key") do nothing returning "id"`,
      [
        randomUUID(),
        input.eventKey,
        input.userUuid,
        season?.id ?? null,
        input.points,
        input.reason ?? null,
        new Date(),
      ],
    );
    if (inserted.length === 0) return { applied: false, avatarsAssigned: 0 };
    const now = new Date();
    let status: StatusRow | undefined;
    if (season) {
      [status] = await tem.execute<StatusRow[]>(
        `insert into ${S}."ranking_status" as r ("id", "user_uuid", "season_id", "balance", "updated_at")
         values (?, ?, ?, ?, ?)
         on conflict ("season_id", "user_uuid") do update set "balance" = r."balance" + excluded."balance",
           "updated_at" = excluded."updated_at"
         returning *`,
        [randomUUID(), input.userUuid, season.id, input.points, now],
      );
      if (status!.balance < 0) throw new ConnectError("points would take the balance below zero", Code.Aborted);
    }
    const [lifetime] = await tem.execute<StatusRow[]>(
      `insert into ${S}."lifetime_ranking_status" as r ("id", "user_uuid", "balance", "updated_at")
       values (?, ?, ?, ?)
       on conflict ("user_uuid") do update set "balance" = r."balance" + excluded."balance",
         "updated_at" = excluded."updated_at"
       returning *, null as "season_id"`,
      [randomUUID(), input.userUuid, input.points, now],
    );
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
  const rows = await em.execute<Array<{ id: string }>>(
    `insert into ${S}."avatar_assignment" ("id", "avatar_id", "user_uuid", "type", "created_at")
     select gen_random_uuid(), a."id", r."user_uuid", 'SEASON_AWARD', now()
     from ${S}."avatar" a join ${S}."ranking_status" r on r."season_id" = a."season_id"
     where a."status" = 'SEASON_AWARD' and a."season_id" = ? and r."balance" >= a."min_points"
       ${userUuid ? `and r."user_uuid" = ?` : ""}
       and not exists (select 1 from ${S}."avatar_assignment" x where x."avatar_id" = a."id" and x."user_uuid" = r."user_uuid")
     order by r."balance" desc, r."user_uuid"
     limit ?
     on conflict ("avatar_id", "user_uuid") do nothing
     returning "id"`,
    userUuid ? [seasonId, userUuid, limit] : [seasonId, limit],
  );
  return rows.length;
}

/** How many achieved avatars are still to assign in the season. */
export async function pendingAchieved(em: EntityManager, seasonId: string): Promise<number> {
  const [row] = await em.execute<Array<{ n: string }>>(
    `select count(*) as "n" from ${S}."avatar" a join ${S}."ranking_status" r on r."season_id" = a."season_id"
     where a."status" = 'SEASON_AWARD' and a."season_id" = ? and r."balance" >= a."min_points"
       and not exists (select 1 from ${S}."avatar_assignment" x where x."avatar_id" = a."id" and x."user_uuid" = r."user_uuid")`,
    [seasonId],
  );
  return Number(row!.n);
}

/** A season's leaderboard page (rank 1 = highest balance; ties by who got there first). */
export async function seasonRanking(em: EntityManager, seasonId: string | null, take: number, skip: number) {
  const table = seasonId ? `${S}."ranking_status"` : `${S}."lifetime_ranking_status"`;
  const where = seasonId ? `where "season_id" = ?` : "";
  const params = seasonId ? [seasonId] : [];
  const rows = await em.execute<StatusRow[]>(
    `select * from (select *, ${seasonId ? "" : `null as "season_id", `}
       rank() over (order by "balance" desc) as "rank" from ${table} ${where}) t
     order by "rank", "updated_at", "user_uuid" limit ? offset ?`,
    [...params, take, skip],
  );
  const [count] = await em.execute<Array<{ n: string }>>(`select count(*) as "n" from ${table} ${where}`, params);
  return { rows, total: Number(count!.n) };
}

/** A user's status in a season with its rank, or undefined. */
export async function statusWithRank(em: EntityManager, seasonId: string, userUuid: string) {
  const rows = await em.execute<StatusRow[]>(
    `select * from (select *, rank() over (order by "balance" desc) as "rank" from ${S}."ranking_status"
     where "season_id" = ?) t where "user_uuid" = ?`,
    [seasonId, userUuid],
  );
  return rows[0];
}
