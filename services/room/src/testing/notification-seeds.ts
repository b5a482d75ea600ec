// Rows written straight into the room service's tables for the notification tests and bench: a DJ's fans with one
// phone each, and browser subscriptions, in batches (the users need not exist anywhere else).
import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { db } from "../db.ts";

/** Rows a statement at most (the widest, a subscription's 7 columns, stays far under PostgreSQL's parameter limit). */
const BATCH = 2000;

/** A fan of the DJ: their user id and their phone's push token. */
export interface SeededFan {
  id: string;
  token: string;
}

/** Makes each of `fans` a fan of `djId` with one Android device (their token). */
export async function insertFans(em: EntityManager, djId: string, fans: SeededFan[]): Promise<void> {
  const now = new Date();
  for (let i = 0; i < fans.length; i += BATCH) {
    const slice = fans.slice(i, i + BATCH);
    await db(em)
      .insertInto("dj_fan")
      .values(slice.map((f) => ({ id: randomUUID(), fan_id: f.id, dj_id: djId, created_at: now })))
      .execute();
    await db(em)
      .insertInto("device")
      .values(
        slice.map((f) => ({
          id: randomUUID(),
          user_id: f.id,
          token: f.token,
          platform: "android",
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** A web push subscription of `userId` at `endpoint`, all with the same browser keys. */
export async function insertSubscriptions(
  em: EntityManager,
  subscriptions: { userId: string; endpoint: string }[],
  keys: { p256dh: string; auth: string },
): Promise<void> {
  const now = new Date();
  for (let i = 0; i < subscriptions.length; i += BATCH) {
    await db(em)
      .insertInto("web_push_subscription")
      .values(
        subscriptions.slice(i, i + BATCH).map((s) => ({
          id: randomUUID(),
          user_id: s.userId,
          endpoint: s.endpoint,
          p256dh: keys.p256dh,
          auth: keys.auth,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
