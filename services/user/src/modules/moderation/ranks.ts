// Who outranks whom. Specification 000 names the roles but not their order; the order is ours (written down in
// docs/decisions/0056-user-service-access-beyond-the-access-option.md): superUser > admin > staff > globalModerator >
// moderator > promoter > user = bot.
import { Code, ConnectError } from "@connectrpc/connect";
import { USER_ROLES, type UserRole } from "@tt/kit";

// The specification's roles, as the kit verifies them in tokens.
export const ROLES = USER_ROLES;
export type Role = UserRole;

/** The roles AddRole may give (AddRoleRequest.role): superUser and bot are never given by a moderator. */
export const GRANTABLE_ROLES: readonly Role[] = ["globalModerator", "admin", "moderator", "staff", "promoter", "user"];

export const CAPABILITIES = ["uploadMusic", "promoteRoom"] as const;
export type Capability = (typeof CAPABILITIES)[number];

const RANK: Record<Role, number> = {
  bot: 1,
  user: 1,
  promoter: 2,
  moderator: 3,
  globalModerator: 4,
  staff: 5,
  admin: 6,
  superUser: 7,
};

export const MODERATOR_RANK = RANK.moderator;

/** The rank of a stored role; an unknown value (never written by this service) ranks lowest. */
export function rankOf(role: string): number {
  return (RANK as Record<string, number | undefined>)[role] ?? 0;
}

export const RANK_TOO_LOW = "you may not act on an account of equal or higher rank";
export const ROLE_ABOVE_OWN = "you may not give a role at or above your own";
export const CALLER_NOT_MODERATOR = "Unauthorized";

/** A moderator acts only on accounts strictly below its own rank (so never on itself). 403 otherwise. */
export function assertOutranks(callerRole: string, targetRole: string): void {
  if (rankOf(callerRole) <= rankOf(targetRole)) throw new ConnectError(RANK_TOO_LOW, Code.PermissionDenied);
}

/**
 * Whether `callerRole` may give `role`: only roles below its own, except that admins may give any role
 * AddRole offers (admin included), as the AddRole contract says.
 */
export function mayGrant(callerRole: string, role: string): boolean {
  if (callerRole === "admin" || callerRole === "superUser") return GRANTABLE_ROLES.includes(role as Role);
  return rankOf(role) < rankOf(callerRole);
}
