// A user's visits of rooms: the recent rooms (kept per user), and who "is in" a room until the live stage answers.
import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { compiledOnce, sql } from "@tt/kit";
import { autoCommitDb } from "../../db.ts";

/** Who "is in" a room until the live stage answers: users who joined within this window. */
export const PRESENCE_WINDOW_MS = 60 * 60 * 1000;

/**
 * Records (or moves on) the user's visit of the room and keeps their latest `kept` visits, in one statement (it
 * runs on every join): the upsert, then the user's other visits beyond the newest `kept - 1` are deleted.
 */
export async function recordVisit(em: EntityManager, userId: string, roomId: string, kept: number): Promise<void> {
  await upsertVisit(em, { id: randomUUID(), userId, roomId, offset: Math.max(0, kept - 1) });
}

// On the pool, outside the join's transaction, as one statement; compiled once (every join runs it).
const upsertVisit = compiledOnce(autoCommitDb, (q, p: { id: string; userId: string; roomId: string; offset: number }) =>
  q
    .with("up", (up) =>
      up
        .insertInto("room_visit")
        .values({ id: p.id, user_id: p.userId, room_id: p.roomId, visited_at: sql<Date>`now()` })
        .onConflict((oc) =>
          oc.columns(["user_id", "room_id"]).doUpdateSet((eb) => ({ visited_at: eb.ref("excluded.visited_at") })),
        )
        .returning("id"),
    )
    .deleteFrom("room_visit")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("room_visit")
        .select("id")
        .where("user_id", "=", p.userId)
        .where("id", "not in", eb.selectFrom("up").select("up.id"))
        .orderBy("visited_at", "desc")
        .orderBy("id", "desc")
        .offset(p.offset),
    ),
);
