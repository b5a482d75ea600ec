// Signing keys and tokens for tests: the same token format the user service issues, so any service's
// suite can call its methods as a guest, a user of some role, a bot or another service.
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWK, type CryptoKey } from "jose";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER, TOKEN_ALG } from "../auth/claims.ts";
import type { KeySource } from "../auth/key-source.ts";
import type { TokenType } from "../context.ts";

export interface TestTokenClaims {
  typ?: TokenType;
  /** Default: "user" for user tokens, "bot" for bots, "guest" and "service" for those types. */
  role?: string;
  sub?: string;
  sid?: string;
  iss?: string;
  aud?: string;
  /** Seconds from now until expiry (negative: already expired). Default 3600. */
  expiresIn?: number;
}

export interface TestTokenIssuer {
  /** Key source for a verifier or host (`keys`). */
  keys: KeySource;
  /** The public key set. */
  jwks: JSONWebKeySet;
  kid: string;
  /** A signed access token; `sid` and `sub` are fresh uuids unless given. */
  sign(claims?: TestTokenClaims): Promise<string>;
  /** The private key, for tests that build their own malformed tokens. */
  privateKey: CryptoKey;
}

const defaultRole: Record<TokenType, string> = { user: "user", bot: "bot", guest: "guest", service: "service" };

export async function createTestTokenIssuer(opts: { kid?: string } = {}): Promise<TestTokenIssuer> {
  const kid = opts.kid ?? `test-${randomUUID()}`;
  const { publicKey, privateKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: TOKEN_ALG, use: "sig" };
  const jwks: JSONWebKeySet = { keys: [jwk] };
  return {
    keys: async () => jwks,
    jwks,
    kid,
    privateKey,
    async sign(claims = {}) {
      const typ = claims.typ ?? "user";
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ typ, role: claims.role ?? defaultRole[typ], sid: claims.sid ?? randomUUID() })
        .setProtectedHeader({ alg: TOKEN_ALG, kid, typ: "JWT" })
        .setIssuer(claims.iss ?? DEFAULT_TOKEN_ISSUER)
        .setAudience(claims.aud ?? DEFAULT_TOKEN_AUDIENCE)
        .setSubject(claims.sub ?? randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + (claims.expiresIn ?? 3600))
        .sign(privateKey);
    },
  };
}
