// Verifies access tokens locally: every service checks signatures itself, with the user service's public
// keys, so no call to the user service sits on the hot path.
import { Code, ConnectError } from "@connectrpc/connect";
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from "jose";
import { z } from "zod";
import type { Identity, TokenType } from "../context.ts";
import { TOKEN_ALG, TOKEN_TYPES, USER_ROLES } from "./claims.ts";
import type { KeySource } from "./key-source.ts";
import type { SessionRevocations } from "./revocations.ts";

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  keys: KeySource;
  /**
   * Public keys of the deployment's service identity (SERVICE_TOKEN_PRIVATE_KEY): a token whose `kid` names one
   * of them is accepted only as a `service` token, so the key that services hold cannot mint user tokens.
   */
  serviceKeys?: JSONWebKeySet;
  revocations: Pick<SessionRevocations, "isRevoked">;
  /** Seconds of clock skew accepted on exp/iat/nbf. Default 5. */
  clockToleranceSeconds?: number;
  /**
   * The longest lifetime (`exp - iat`) a token may claim, ACCESS_TOKEN_MAX_TTL_SECONDS. A token that claims more
   * is refused even with a valid signature: the signer never issues one, so it is a forgery with a leaked key or
   * a signer whose clock is wrong. Default 7 days.
   */
  maxTtlSeconds?: number;
  /** How long the key set is used before the source is asked again. Default 5 minutes. */
  keysTtlMs?: number;
  /**
   * Least time between two refreshes caused by unknown key ids, so a flood of tokens with made-up `kid`s
   * cannot turn into a flood of key fetches. Default 5 seconds.
   */
  minRefreshIntervalMs?: number;
  /**
   * How many verified tokens are remembered, so a client's repeated calls skip the signature check (the
   * token string is what was verified; expiry and revocation are still checked on every call). Default
   * 10000; 0 disables.
   */
  cacheSize?: number;
}

export interface TokenVerifier {
  /** The caller behind a compact JWS; ConnectError(Unauthenticated) when it cannot be trusted. */
  verify(token: string): Promise<Identity>;
}

const claimsSchema = z.object({
  sub: z.string().min(1),
  typ: z.enum(TOKEN_TYPES as [TokenType, ...TokenType[]]),
  role: z.string().min(1),
  sid: z.string().min(1),
  iat: z.number(),
  exp: z.number(),
});

const userRoles: ReadonlySet<string> = new Set(USER_ROLES);

// The role must fit the type: otherwise a guest token claiming "superUser" would pass role checks.
function roleFitsType(typ: TokenType, role: string): boolean {
  if (typ === "guest") return role === "guest";
  if (typ === "service") return role === "service";
  return userRoles.has(role);
}

function unauthenticated(message: string, cause?: unknown): ConnectError {
  return new ConnectError(message, Code.Unauthenticated, undefined, undefined, cause);
}

export function createTokenVerifier(opts: TokenVerifierOptions): TokenVerifier {
  const keysTtlMs = opts.keysTtlMs ?? 5 * 60_000;
  const minRefreshIntervalMs = opts.minRefreshIntervalMs ?? 5_000;
  let local: { getKey: JWTVerifyGetKey; at: number } | undefined;
  let lastRefresh = 0;
  const cacheSize = opts.cacheSize ?? 10_000;
  // Insertion-ordered: the first key is the oldest, evicted first.
  const verified = new Map<string, Identity>();
  const clockToleranceSeconds = opts.clockToleranceSeconds ?? 5;
  const clockToleranceMs = clockToleranceSeconds * 1000;
  const maxTtlSeconds = opts.maxTtlSeconds ?? 7 * 24 * 60 * 60;

  const stillValid = (identity: Identity): Identity => {
    if (identity.expiresAt.getTime() + clockToleranceMs <= Date.now()) {
      verified.delete(identity.token);
      throw unauthenticated("access token expired");
    }
    if (opts.revocations.isRevoked(identity.sessionId)) throw unauthenticated("session revoked");
    return identity;
  };

  const load = async (refresh: boolean): Promise<JWTVerifyGetKey> => {
    let set;
    try {
      set = await opts.keys({ refresh });
    } catch (cause) {
      throw new ConnectError("token verification keys unavailable", Code.Unavailable, undefined, undefined, cause);
    }
    local = { getKey: createLocalJWKSet(set), at: Date.now() };
    return local.getKey;
  };

  const serviceKids = new Set((opts.serviceKeys?.keys ?? []).flatMap((k) => (k.kid ? [k.kid] : [])));
  const serviceGetKey = opts.serviceKeys ? createLocalJWKSet(opts.serviceKeys) : undefined;
  const signedByServiceKey = (token: string): boolean => {
    if (!serviceGetKey) return false;
    try {
      const { kid } = decodeProtectedHeader(token);
      return kid !== undefined && serviceKids.has(kid);
    } catch {
      return false; // not a JWS at all: the user-key path refuses it with the usual message
    }
  };

  const verifyWith = (getKey: JWTVerifyGetKey, token: string) =>
    jwtVerify(token, getKey, {
      issuer: opts.issuer,
      audience: opts.audience,
      algorithms: [TOKEN_ALG],
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ["iss", "aud", "sub", "exp", "iat"],
    });

  return {
    async verify(token) {
      const known = verified.get(token);
      if (known) return stillValid(known);
      const byService = signedByServiceKey(token);
      const getKey =
        byService && serviceGetKey
          ? serviceGetKey
          : local && Date.now() - local.at < keysTtlMs
            ? local.getKey
            : await load(false);
      let result;
      try {
        try {
          result = await verifyWith(getKey, token);
        } catch (err) {
          if (
            byService ||
            !(err instanceof errors.JWKSNoMatchingKey) ||
            Date.now() - lastRefresh < minRefreshIntervalMs
          )
            throw err;
          lastRefresh = Date.now();
          result = await verifyWith(await load(true), token);
        }
      } catch (err) {
        if (err instanceof ConnectError) throw err;
        if (err instanceof errors.JWTExpired) throw unauthenticated("access token expired", err);
        if (err instanceof errors.JWTClaimValidationFailed && err.claim === "nbf") {
          throw unauthenticated("access token not yet valid", err);
        }
        throw unauthenticated("invalid access token", err);
      }
      const claims = claimsSchema.safeParse(result.payload);
      if (!claims.success) throw unauthenticated("invalid access token", claims.error);
      const { sub, typ, role, sid, iat, exp } = claims.data;
      if (!roleFitsType(typ, role)) throw unauthenticated("invalid access token", new Error(`role ${role} on ${typ}`));
      if (byService && typ !== "service") {
        throw unauthenticated("invalid access token", new Error(`a ${typ} token signed with the service identity key`));
      }
      // jose checks `iat` only against a maximum age (and `nbf` when present, above); a token issued in the
      // future must be refused here, before it is remembered. Refused tokens are never cached, so every later
      // use is verified, and refused, again.
      const now = Date.now() / 1000;
      if (iat > now + clockToleranceSeconds) {
        throw unauthenticated("access token issued in the future", new Error(`iat ${iat}, now ${now}`));
      }
      if (exp - iat > maxTtlSeconds) {
        throw unauthenticated("invalid access token", new Error(`lifetime ${exp - iat}s exceeds ${maxTtlSeconds}s`));
      }
      if (opts.revocations.isRevoked(sid)) throw unauthenticated("session revoked");
      const identity: Identity = {
        tokenType: typ,
        subject: sub,
        role,
        sessionId: sid,
        expiresAt: new Date(exp * 1000),
        token,
      };
      if (cacheSize > 0) {
        if (verified.size >= cacheSize) verified.delete(verified.keys().next().value as string);
        verified.set(token, identity);
      }
      return identity;
    },
  };
}
