import { generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { createDevAppleMusicTokens, createSignedAppleMusicTokens, readAppleMusicKey } from "./apple-music.ts";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();

describe("Apple Music developer token", () => {
  it("is an ES256 JWT with the key id, the team as issuer and the configured lifetime", async () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    const apple = createSignedAppleMusicTokens({
      teamId: "TEAM123456",
      keyId: "KEY1234567",
      privateKey: pem,
      ttlSeconds: 43_200,
      now: () => now,
    });
    const { token, expiresAt } = await apple.developerToken();

    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "KEY1234567" });
    const { payload } = await jwtVerify(token, publicKey, { issuer: "TEAM123456", currentDate: new Date(now) });
    expect(payload).toEqual({ iss: "TEAM123456", iat: now / 1000, exp: now / 1000 + 43_200 });
    expect(expiresAt).toEqual(new Date(now + 43_200_000));
  });

  it("reuses the token until an hour before it expires, then signs a new one", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const apple = createSignedAppleMusicTokens({
      teamId: "T",
      keyId: "K",
      privateKey: pem,
      ttlSeconds: 43_200,
      now: () => now,
    });
    const first = await apple.developerToken();
    now += 10 * 60 * 60_000;
    expect(await apple.developerToken()).toEqual(first);
    now += 60 * 60_000 + 1;
    const second = await apple.developerToken();
    expect(second.token).not.toBe(first.token);
    // Issued at 11:00:00.001, whole seconds in the JWT: expires twelve hours after 11:00:00.
    expect(second.expiresAt).toEqual(new Date("2026-05-01T23:00:00Z"));
  });

  it("refuses a key that is not a P-256 private key, without echoing it", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ format: "pem", type: "pkcs8" })
      .toString();
    expect(() => readAppleMusicKey(rsa)).toThrow("must be an EC P-256 key (the MusicKit .p8 file)");
    expect(() => readAppleMusicKey("-----BEGIN PRIVATE KEY-----\nnot-a-key\n-----END PRIVATE KEY-----")).toThrow(
      /^is not a readable PEM private key$/,
    );
  });
});

describe("development Apple Music", () => {
  it("says Apple Music is not configured", async () => {
    await expect(createDevAppleMusicTokens().developerToken()).rejects.toMatchObject({
      provider: "apple-music",
      kind: "not-configured",
    });
  });
});
