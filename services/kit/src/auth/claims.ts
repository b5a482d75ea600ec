// The access token format shared by the user service (which signs) and the kit (which verifies).
import type { TokenType } from "../context.ts";

/** JWS algorithm of every access token (Ed25519). Tokens with any other `alg`, `none` included, are refused. */
export const TOKEN_ALG = "EdDSA";
/** Default `iss`; deployments may set JWT_ISSUER. */
export const DEFAULT_TOKEN_ISSUER = "turntable";
/** Default `aud`; deployments may set JWT_AUDIENCE. */
export const DEFAULT_TOKEN_AUDIENCE = "turntable";

export const TOKEN_TYPES: readonly TokenType[] = ["user", "guest", "bot", "service"];

/** The specification's user roles (000 §3). */
export const USER_ROLES = [
  "globalModerator",
  "admin",
  "moderator",
  "staff",
  "promoter",
  "user",
  "superUser",
  "bot",
] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Claims of an access token. Header: `{ alg: "EdDSA", kid, typ: "JWT" }`.
 * `role` is a user role for user and bot tokens, "guest" for guest tokens and "service" for service tokens.
 */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  /** User uuid, guest id or service name. */
  sub: string;
  typ: TokenType;
  role: string;
  /** Session id; revoked sessions are refused by every service. */
  sid: string;
  iat: number;
  exp: number;
}
