import { generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { createAppleMusicTokenIssuer, loadAppleMusicTokenConfig } from "./apple-music-token.ts";

const pair = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const pem = (key: ReturnType<typeof pair>["privateKey"]) => key.export({ format: "pem", type: "pkcs8" }).toString();

describe("Apple Music developer token (issue 14)", () => {
  it("is an ES256 JWT with the key id, the team as issuer and the site's origin, verified by the public key", async () => {
    const { privateKey, publicKey } = pair();
    let now = Date.UTC(2026, 0, 1);
    const issuer = createAppleMusicTokenIssuer({
      teamId: "TEAM123456",
      keyId: "KEY1234567",
      privateKey: pem(privateKey),
      ttlSeconds: 6 * 3600,
      origin: "https://music.example.org/some/path",
      now: () => now,
    });
    const { token, expiresAt } = await issuer.developerToken();
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "KEY1234567" });
    const { payload } = await jwtVerify(token, publicKey, {
      issuer: "TEAM123456",
      algorithms: ["ES256"],
      currentDate: new Date(now),
    });
    expect(payload).toEqual({
      iss: "TEAM123456",
      iat: now / 1000,
      exp: now / 1000 + 6 * 3600,
      origin: ["https://music.example.org"],
    });
    expect(expiresAt.getTime()).toBe(now + 6 * 3600_000);
    // Another key does not verify it.
    await expect(jwtVerify(token, pair().publicKey, { currentDate: new Date(now) })).rejects.toThrow();

    // The same token until an hour before it expires, then a new one.
    now += 4 * 3600_000;
    expect((await issuer.developerToken()).token).toBe(token);
    now += 3600_000 + 1;
    const renewed = await issuer.developerToken();
    expect(renewed.token).not.toBe(token);
    expect(renewed.expiresAt.getTime()).toBe(Math.floor(now / 1000) * 1000 + 6 * 3600_000);
  });

  it("has no origin claim when the site's origin is not known; concurrent callers share one signing", async () => {
    const { privateKey, publicKey } = pair();
    const issuer = createAppleMusicTokenIssuer({
      teamId: "T",
      keyId: "K",
      privateKey: pem(privateKey),
      ttlSeconds: 60,
    });
    const tokens = await Promise.all([issuer.developerToken(), issuer.developerToken(), issuer.developerToken()]);
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    const { payload } = await jwtVerify(tokens[0]!.token, publicKey);
    expect(payload.origin).toBeUndefined();
  });

  it("reads the user service's variables; partial or bad settings name the variable", () => {
    const key = pem(pair().privateKey);
    expect(loadAppleMusicTokenConfig({})).toBeUndefined();
    expect(
      loadAppleMusicTokenConfig({
        APPLE_MUSIC_TEAM_ID: "T",
        APPLE_MUSIC_KEY_ID: "K",
        APPLE_MUSIC_PRIVATE_KEY: key.replace(/\n/g, "\\n"),
      }),
    ).toEqual({ teamId: "T", keyId: "K", privateKey: key, ttlSeconds: 12 * 3600 });
    expect(() => loadAppleMusicTokenConfig({ APPLE_MUSIC_TEAM_ID: "T" })).toThrow(
      "APPLE_MUSIC_KEY_ID, APPLE_MUSIC_PRIVATE_KEY: required when APPLE_MUSIC_TEAM_ID is set",
    );
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ format: "pem", type: "pkcs8" })
      .toString();
    const base = { APPLE_MUSIC_TEAM_ID: "T", APPLE_MUSIC_KEY_ID: "K" };
    expect(() => loadAppleMusicTokenConfig({ ...base, APPLE_MUSIC_PRIVATE_KEY: rsa })).toThrow(
      "APPLE_MUSIC_PRIVATE_KEY: must be an EC P-256 key",
    );
    expect(() => loadAppleMusicTokenConfig({ ...base, APPLE_MUSIC_PRIVATE_KEY: "nope" })).toThrow(
      "APPLE_MUSIC_PRIVATE_KEY: is not a readable PEM private key",
    );
    expect(() =>
      loadAppleMusicTokenConfig({ ...base, APPLE_MUSIC_PRIVATE_KEY: key, APPLE_MUSIC_TOKEN_TTL_SECONDS: "99999999" }),
    ).toThrow("APPLE_MUSIC_TOKEN_TTL_SECONDS");
  });
});
