import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { base64url, SignJWT, type JSONWebKeySet } from "jose";
import { describe, expect, it, vi } from "vitest";
import { createTestTokenIssuer, type TestTokenIssuer } from "../testing/index.ts";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER } from "./claims.ts";
import type { KeySource } from "./key-source.ts";
import { createTokenVerifier } from "./verifier.ts";

const noRevocations = { isRevoked: () => false };

function verifierFor(keys: KeySource, revoked: Set<string> = new Set()) {
  return createTokenVerifier({
    issuer: DEFAULT_TOKEN_ISSUER,
    audience: DEFAULT_TOKEN_AUDIENCE,
    keys,
    revocations: { isRevoked: (sid) => revoked.has(sid) },
    minRefreshIntervalMs: 0,
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ConnectError);
    return { code: (err as ConnectError).code, message: (err as ConnectError).rawMessage };
  }
  throw new Error("expected the token to be refused");
}

describe("createTokenVerifier", () => {
  it("returns the identity of a valid token", async () => {
    const issuer = await createTestTokenIssuer();
    const token = await issuer.sign({ typ: "user", role: "admin", sub: "u-1", sid: "s-1", expiresIn: 60 });
    const identity = await verifierFor(issuer.keys).verify(token);
    expect(identity).toMatchObject({ tokenType: "user", subject: "u-1", role: "admin", sessionId: "s-1", token });
    expect(Math.abs(identity.expiresAt.getTime() - (Date.now() + 60_000))).toBeLessThan(2_000);
  });

  it.each([
    ["guest", "guest"],
    ["service", "service"],
    ["bot", "bot"],
  ] as const)("accepts %s tokens", async (typ, role) => {
    const issuer = await createTestTokenIssuer();
    const identity = await verifierFor(issuer.keys).verify(await issuer.sign({ typ }));
    expect(identity.tokenType).toBe(typ);
    expect(identity.role).toBe(role);
  });

  it("refuses forged, expired, unsigned, HMAC, misaddressed, mistyped and revoked tokens with 401", async () => {
    const issuer = await createTestTokenIssuer({ kid: "k1" });
    const forger = await createTestTokenIssuer({ kid: "k1" });
    const revoked = new Set(["gone"]);
    const verifier = verifierFor(issuer.keys, revoked);
    const valid = await issuer.sign();
    const [header, payload] = valid.split(".") as [string, string];
    const noneHeader = base64url.encode(JSON.stringify({ alg: "none", typ: "JWT", kid: "k1" }));
    const publicX = base64url.decode(String(issuer.jwks.keys[0]?.x));
    const now = Math.floor(Date.now() / 1000);
    const hmac = (secret: Uint8Array) =>
      new SignJWT({ typ: "user", role: "user", sid: randomUUID() })
        .setProtectedHeader({ alg: "HS256", kid: "k1" })
        .setIssuer(DEFAULT_TOKEN_ISSUER)
        .setAudience(DEFAULT_TOKEN_AUDIENCE)
        .setSubject("u")
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(secret);

    const cases: Record<string, string> = {
      forged: await forger.sign(),
      tampered: `${header}.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), role: "superUser" }))}.${valid.split(".")[2]}`,
      "alg none": `${noneHeader}.${payload}.`,
      "HS256 with a random secret": await hmac(crypto.getRandomValues(new Uint8Array(32))),
      "HS256 keyed with the public key": await hmac(publicX),
      "wrong issuer": await issuer.sign({ iss: "someone-else" }),
      "wrong audience": await issuer.sign({ aud: "another-app" }),
      "unknown type": await issuer.sign({ typ: "admin" as never, role: "admin" }),
      "guest claiming superUser": await issuer.sign({ typ: "guest", role: "superUser" }),
      "user with unknown role": await issuer.sign({ typ: "user", role: "root" }),
      garbage: "not.a.jwt",
    };
    for (const [name, token] of Object.entries(cases)) {
      const result = await refusal(verifier.verify(token));
      expect({ name, ...result }).toEqual({ name, code: Code.Unauthenticated, message: "invalid access token" });
    }
    expect(await refusal(verifier.verify(await issuer.sign({ expiresIn: -60 })))).toEqual({
      code: Code.Unauthenticated,
      message: "access token expired",
    });
    expect(await refusal(verifier.verify(await issuer.sign({ sid: "gone" })))).toEqual({
      code: Code.Unauthenticated,
      message: "session revoked",
    });
  });

  it("still refuses a remembered token once its session is revoked", async () => {
    const issuer = await createTestTokenIssuer();
    const revoked = new Set<string>();
    const verifier = verifierFor(issuer.keys, revoked);
    const token = await issuer.sign({ sid: "s-remembered" });
    await verifier.verify(token);
    await verifier.verify(token);
    revoked.add("s-remembered");
    expect(await refusal(verifier.verify(token))).toEqual({ code: Code.Unauthenticated, message: "session revoked" });
  });

  it("still refuses a remembered token once it expires", async () => {
    const issuer = await createTestTokenIssuer();
    const verifier = createTokenVerifier({
      issuer: DEFAULT_TOKEN_ISSUER,
      audience: DEFAULT_TOKEN_AUDIENCE,
      keys: issuer.keys,
      revocations: noRevocations,
      clockToleranceSeconds: 0,
    });
    const token = await issuer.sign({ expiresIn: 60 });
    await verifier.verify(token);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await refusal(verifier.verify(token))).toEqual({
        code: Code.Unauthenticated,
        message: "access token expired",
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("tolerates a few seconds of clock skew but no more", async () => {
    const issuer = await createTestTokenIssuer();
    const verifier = verifierFor(issuer.keys);
    await expect(verifier.verify(await issuer.sign({ expiresIn: -2 }))).resolves.toBeDefined();
    await expect(verifier.verify(await issuer.sign({ expiresIn: -30 }))).rejects.toThrow(/expired/);
  });

  describe("issue 9 defect 11: tokens from the future and tokens that claim to live too long", () => {
    const DAY = 24 * 60 * 60;
    /** A token signed with the issuer's real key, with these times (seconds since the epoch). */
    const timed = (issuer: TestTokenIssuer, times: { iat: number; exp: number; nbf?: number }) => {
      const jwt = new SignJWT({ typ: "user", role: "user", sid: randomUUID() })
        .setProtectedHeader({ alg: "EdDSA", kid: issuer.kid, typ: "JWT" })
        .setIssuer(DEFAULT_TOKEN_ISSUER)
        .setAudience(DEFAULT_TOKEN_AUDIENCE)
        .setSubject(randomUUID())
        .setIssuedAt(times.iat)
        .setExpirationTime(times.exp);
      if (times.nbf !== undefined) jwt.setNotBefore(times.nbf);
      return jwt.sign(issuer.privateKey);
    };
    const verifierWith = (issuer: TestTokenIssuer, extra: { maxTtlSeconds?: number } = {}) =>
      createTokenVerifier({
        issuer: DEFAULT_TOKEN_ISSUER,
        audience: DEFAULT_TOKEN_AUDIENCE,
        keys: issuer.keys,
        revocations: noRevocations,
        ...extra,
      });
    const now = () => Math.floor(Date.now() / 1000);

    it("issue 9 defect 11: a token issued an hour in the future is refused on the first and every later use", async () => {
      const issuer = await createTestTokenIssuer();
      const verifier = verifierWith(issuer);
      const future = await timed(issuer, { iat: now() + 3600, exp: now() + 7200 });
      for (let use = 0; use < 3; use++) {
        expect(await refusal(verifier.verify(future))).toEqual({
          code: Code.Unauthenticated,
          message: "access token issued in the future",
        });
      }
      // A valid token remembered by the cache does not open the door for the future one either.
      await verifier.verify(await issuer.sign());
      expect((await refusal(verifier.verify(future))).message).toBe("access token issued in the future");
    });

    it("issue 9 defect 11: iat within the 5 s clock skew allowance is accepted, beyond it refused", async () => {
      const issuer = await createTestTokenIssuer();
      const verifier = verifierWith(issuer);
      await expect(verifier.verify(await timed(issuer, { iat: now() + 3, exp: now() + 600 }))).resolves.toBeDefined();
      expect((await refusal(verifier.verify(await timed(issuer, { iat: now() + 30, exp: now() + 600 })))).message).toBe(
        "access token issued in the future",
      );
    });

    it("issue 9 defect 11: a token not valid before a future time (nbf) is refused, every time", async () => {
      const issuer = await createTestTokenIssuer();
      const verifier = verifierWith(issuer);
      const later = await timed(issuer, { iat: now(), nbf: now() + 3600, exp: now() + 7200 });
      for (let use = 0; use < 2; use++) {
        expect(await refusal(verifier.verify(later))).toEqual({
          code: Code.Unauthenticated,
          message: "access token not yet valid",
        });
      }
      await expect(
        verifier.verify(await timed(issuer, { iat: now(), nbf: now(), exp: now() + 60 })),
      ).resolves.toBeDefined();
    });

    it("issue 9 defect 11: a token valid for 100 years (exp - iat above ACCESS_TOKEN_MAX_TTL_SECONDS) is refused", async () => {
      const issuer = await createTestTokenIssuer();
      const verifier = verifierWith(issuer);
      const century = await timed(issuer, { iat: now(), exp: now() + 100 * 365 * DAY });
      for (let use = 0; use < 2; use++) {
        expect(await refusal(verifier.verify(century))).toEqual({
          code: Code.Unauthenticated,
          message: "invalid access token",
        });
      }
      // An old iat does not make room for a long exp either: the lifetime is what is bounded.
      const backdated = await timed(issuer, { iat: now() - 30 * DAY, exp: now() + 3600 });
      expect((await refusal(verifier.verify(backdated))).message).toBe("invalid access token");
      // Exactly the maximum (7 days by default) is what the user service may sign, and is accepted.
      await expect(verifier.verify(await timed(issuer, { iat: now(), exp: now() + 7 * DAY }))).resolves.toBeDefined();
      // The bound is the configured one.
      const strict = verifierWith(issuer, { maxTtlSeconds: 600 });
      await expect(strict.verify(await timed(issuer, { iat: now(), exp: now() + 600 }))).resolves.toBeDefined();
      expect((await refusal(strict.verify(await timed(issuer, { iat: now(), exp: now() + 601 })))).message).toBe(
        "invalid access token",
      );
    });
  });

  it("fetches the key set once, and again only for an unknown key id (rotation)", async () => {
    const first = await createTestTokenIssuer({ kid: "old" });
    const second = await createTestTokenIssuer({ kid: "new" });
    let current: JSONWebKeySet = first.jwks;
    const fetches: boolean[] = [];
    const verifier = verifierFor(async (opts) => {
      fetches.push(opts?.refresh ?? false);
      return current;
    });
    await verifier.verify(await first.sign());
    await verifier.verify(await first.sign());
    expect(fetches).toEqual([false]);
    current = { keys: [...first.jwks.keys, ...second.jwks.keys] };
    await verifier.verify(await second.sign());
    expect(fetches).toEqual([false, true]);
    await verifier.verify(await first.sign());
    expect(fetches).toEqual([false, true]);
  });

  it("does not refetch for every made-up key id", async () => {
    const issuer = await createTestTokenIssuer({ kid: "real" });
    const stranger = await createTestTokenIssuer({ kid: "made-up" });
    let fetches = 0;
    const verifier = createTokenVerifier({
      issuer: DEFAULT_TOKEN_ISSUER,
      audience: DEFAULT_TOKEN_AUDIENCE,
      keys: async () => {
        fetches++;
        return issuer.jwks;
      },
      revocations: noRevocations,
      minRefreshIntervalMs: 60_000,
    });
    for (let i = 0; i < 5; i++) await expect(verifier.verify(await stranger.sign())).rejects.toThrow(/invalid/);
    expect(fetches).toBe(2);
  });

  it("answers Unavailable when the keys cannot be fetched", async () => {
    const issuer = await createTestTokenIssuer();
    const verifier = verifierFor(async () => {
      throw new Error("connection refused");
    });
    expect(await refusal(verifier.verify(await issuer.sign()))).toEqual({
      code: Code.Unavailable,
      message: "token verification keys unavailable",
    });
  });
});
