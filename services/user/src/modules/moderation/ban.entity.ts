import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * The ban on an account, at most one per account: a new ban replaces the old one and unbanning deletes the
 * row. A temporary ban keeps its row after `endsAt` until the sweeper removes it, so readers compare
 * `endsAt` with the clock themselves (see `isBanActive`).
 */
export const UserBanSchema = defineEntity({
  name: "UserBan",
  tableName: "user_ban",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    reason: p.text(),
    // A plain uuid, not a foreign key: the ban outlives the moderator's account.
    bannedBy: p.uuid().nullable(),
    createdAt: p.datetime(),
    // Indexed for the sweeper; null for a ban without end.
    endsAt: p.datetime().nullable().index(),
  },
});

export class UserBan extends UserBanSchema.class {}
UserBanSchema.setClass(UserBan);

/** Whether `ban` still stops the account at `now`: a ban without end always does. */
export function isBanActive(ban: UserBan | null | undefined, now = new Date()): ban is UserBan {
  return !!ban && (ban.endsAt === null || ban.endsAt === undefined || ban.endsAt > now);
}
