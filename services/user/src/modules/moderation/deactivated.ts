import type { EntityManager } from "@mikro-orm/postgresql";
import { Deactivation } from "./deactivation.entity.ts";

/** The accounts among `userIds` that staff have deactivated: their profiles are hidden until reactivation. */
export async function deactivatedAmong(em: EntityManager, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await em.find(Deactivation, { user: { $in: [...userIds] }, deactivatedAt: { $ne: null } });
  return new Set(rows.map((row) => row.user.id));
}
