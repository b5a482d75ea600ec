import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { AccessToken, User } from "@tt/proto/tt/user/v1/user_pb";
import type { SessionUser, StoredToken } from "../session-store.ts";

export function toStoredToken(token: AccessToken): StoredToken {
  return {
    token: token.token,
    tokenType: token.tokenType,
    ...(token.expiresAt ? { expiresAt: timestampDate(token.expiresAt).toISOString() } : {}),
  };
}

export function toSessionUser(user: User, nickname?: string): SessionUser {
  return { uuid: user.uuid, email: user.email, role: user.role, ...(nickname ? { nickname } : {}) };
}
