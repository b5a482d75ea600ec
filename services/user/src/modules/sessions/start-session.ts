import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { AccessTokenSchema, type AccessToken } from "@tt/proto/tt/user/v1/user_pb";
import type { TokenType } from "@tt/kit";
import type { TokenIssuer, IssuedToken } from "../../tokens.ts";
import { assertMaySignIn } from "../moderation/sign-in-guard.ts";
import type { User } from "../users/user.entity.ts";
import { Session } from "./session.entity.ts";

/** Bot accounts get bot tokens; every other role signs in as a user. */
export function tokenTypeFor(user: User): TokenType {
  return user.role === "bot" ? "bot" : "user";
}

export function toAccessTokenMessage(issued: IssuedToken): AccessToken {
  return create(AccessTokenSchema, {
    token: issued.token,
    tokenType: issued.tokenType,
    expiresAt: timestampFromDate(issued.expiresAt),
  });
}

/**
 * Opens a session for `user` (persisted with the next flush of `em`) and signs its token. The session row
 * and the token expire at the same second. A banned or deactivated account is refused with 401 here, so
 * every sign-in path refuses it alike; check the credentials before calling.
 */
export async function startSession(
  em: EntityManager,
  tokens: TokenIssuer,
  user: User,
  userAgent: string | null,
): Promise<{ session: Session; issued: IssuedToken }> {
  await assertMaySignIn(em, user);
  const tokenType = tokenTypeFor(user);
  const expiresAt = tokens.expiresAtFor(tokenType);
  // The id is needed for the token before the row is flushed, so it is not left to `onCreate`.
  const session = em.create(Session, { id: randomUUID(), user, tokenType, expiresAt, revokedAt: null, userAgent });
  const issued = await tokens.issue({ sub: user.id, typ: tokenType, role: user.role, sid: session.id }, expiresAt);
  return { session, issued };
}
