import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { toProfileMessage } from "../modules/users/user.message.ts";
import { callEm } from "./call.ts";

export const PROFILE_NOT_FOUND = "user profile not found";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function profileRoutes(): Partial<ServiceImpl<typeof UserService>> {
  return {
    async getProfile(req, ctx) {
      // Not a uuid cannot name a user; answering 404 keeps PostgreSQL from rejecting the cast with a 500.
      if (!UUID_PATTERN.test(req.id)) throw new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);
      const profile = await callEm(ctx).findOne(Profile, { user: req.id.toLowerCase() }, { populate: ["user"] });
      if (!profile) throw new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);
      return { profile: toProfileMessage(profile, profile.user) };
    },
  };
}
