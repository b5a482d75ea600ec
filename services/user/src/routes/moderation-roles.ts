// Roles and capabilities. The role travels in every access token, so a role change revokes the target's
// sessions: no token may keep a role the account no longer has (the user signs in again and gets the new
// one). Capabilities are not in the token and take effect without that.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { RolesChangedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { loadModeratedUserMessage } from "../modules/moderation/moderated-user.message.ts";
import {
  assertOutranks,
  CAPABILITIES,
  GRANTABLE_ROLES,
  mayGrant,
  MODERATOR_RANK,
  rankOf,
  ROLE_ABOVE_OWN,
  type Capability,
  type Role,
} from "../modules/moderation/ranks.ts";
import { revokeUserSessions } from "../modules/sessions/revoke-sessions.ts";
import type { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { loadCaller, loadTarget, MODERATOR_GROUP, writeOrConflict } from "./moderation-access.ts";

// The specification's message for AddCapability; AddRole and AddGlobalModeratorRole document the same one.
export const ALREADY_HAS_ROLE = "this user already has this role";
export const UNKNOWN_ROLE = `role must be one of ${GRANTABLE_ROLES.join(", ")}`;
export const UNKNOWN_CAPABILITY = `capability must be one of ${CAPABILITIES.join(", ")}`;
export const BOT_ROLE_FIXED = "the role of a bot account cannot be changed";

function checkCapability(capability: string): Capability {
  if (!(CAPABILITIES as readonly string[]).includes(capability)) {
    throw new ConnectError(UNKNOWN_CAPABILITY, Code.InvalidArgument);
  }
  return capability as Capability;
}

async function changeRole(svc: UserServiceContext, em: EntityManager, caller: User, target: User, role: Role) {
  const now = new Date();
  const previousRole = target.role;
  target.role = role;
  publishEvent(em, RolesChangedSchema, {
    uuid: target.id,
    role,
    previousRole,
    capabilities: [...target.capabilities],
    changedByUuid: caller.id,
    at: timestampFromDate(now),
  });
  await writeOrConflict(() => revokeUserSessions(em, svc.revocations, target.id, now));
  return { user: await loadModeratedUserMessage(em, target, now) };
}

async function changeCapabilities(em: EntityManager, caller: User, target: User, capabilities: string[]) {
  target.capabilities = capabilities;
  publishEvent(em, RolesChangedSchema, {
    uuid: target.id,
    role: target.role,
    previousRole: target.role,
    capabilities: [...capabilities],
    changedByUuid: caller.id,
    at: timestampFromDate(new Date()),
  });
  await writeOrConflict(() => em.flush());
  return { capabilities: [...target.capabilities] };
}

export function moderationRoleRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ModerationService>> {
  return {
    async addRole(req, ctx) {
      if (!GRANTABLE_ROLES.includes(req.role as Role)) throw new ConnectError(UNKNOWN_ROLE, Code.InvalidArgument);
      const role = req.role as Role;
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      if (target.role === role) throw new ConnectError(ALREADY_HAS_ROLE, Code.PermissionDenied);
      if (target.role === "bot") throw new ConnectError(BOT_ROLE_FIXED, Code.FailedPrecondition);
      assertOutranks(caller.role, target.role);
      if (!mayGrant(caller.role, role)) throw new ConnectError(ROLE_ABOVE_OWN, Code.PermissionDenied);
      return changeRole(svc, em, caller, target, role);
    },

    async addGlobalModeratorRole(req, ctx) {
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      if (target.role === "globalModerator") throw new ConnectError(ALREADY_HAS_ROLE, Code.PermissionDenied);
      if (target.role === "bot") throw new ConnectError(BOT_ROLE_FIXED, Code.FailedPrecondition);
      // The contract: only callers above moderator may give it, a globalModerator included.
      if (rankOf(caller.role) <= MODERATOR_RANK) throw new ConnectError(ROLE_ABOVE_OWN, Code.PermissionDenied);
      assertOutranks(caller.role, target.role);
      return changeRole(svc, em, caller, target, "globalModerator");
    },

    async addCapability(req, ctx) {
      const capability = checkCapability(req.capability);
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.id);
      assertOutranks(caller.role, target.role);
      if (target.capabilities.includes(capability)) throw new ConnectError(ALREADY_HAS_ROLE, Code.PermissionDenied);
      return changeCapabilities(em, caller, target, [...target.capabilities, capability]);
    },

    async removeCapability(req, ctx) {
      const capability = checkCapability(req.capability);
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.id);
      assertOutranks(caller.role, target.role);
      if (!target.capabilities.includes(capability)) return { capabilities: [...target.capabilities] };
      return changeCapabilities(
        em,
        caller,
        target,
        target.capabilities.filter((c) => c !== capability),
      );
    },
  };
}
