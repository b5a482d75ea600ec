// The service identity key signs `service` tokens only: a verifier refuses anything else it signed, so a service
// that leaks SERVICE_TOKEN_PRIVATE_KEY cannot mint user tokens.
import { generateKeyPairSync } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { refusalOf } from "../testing/refusals.ts";
import { createTestTokenIssuer } from "../testing/test-tokens.ts";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER, TOKEN_ALG } from "./claims.ts";
import { createServiceTokenMinter, serviceIdentityKey, type ServiceIdentityKey } from "./service-identity.ts";
import { createTokenVerifier } from "./verifier.ts";

const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const noRevocations = { isRevoked: () => false };

async function verifierFor(key: ServiceIdentityKey) {
  const users = await createTestTokenIssuer();
  return {
    users,
    verifier: createTokenVerifier({
      issuer: DEFAULT_TOKEN_ISSUER,
      audience: DEFAULT_TOKEN_AUDIENCE,
      keys: users.keys,
      serviceKeys: key.jwks,
      revocations: noRevocations,
    }),
  };
}

function forge(key: ServiceIdentityKey, claims: { typ: string; role: string }) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, sid: "s-1" })
    .setProtectedHeader({ alg: TOKEN_ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(DEFAULT_TOKEN_ISSUER)
    .setAudience(DEFAULT_TOKEN_AUDIENCE)
    .setSubject("someone")
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(key.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<{ code: Code; message: string }> {
  const e = await refusalOf(promise);
  return { code: e.code, message: e.rawMessage };
}

describe("service identity", () => {
  it("mints short-lived service tokens naming the caller, reused while fresh", async () => {
    const key = await serviceIdentityKey(pem);
    expect(key.configured).toBe(true);
    expect(key.kid).toMatch(/^service-/);
    const { verifier } = await verifierFor(key);
    const minter = createServiceTokenMinter({
      subject: "room",
      key,
      issuer: DEFAULT_TOKEN_ISSUER,
      audience: DEFAULT_TOKEN_AUDIENCE,
    });
    const token = await minter.token();
    expect(await minter.token()).toBe(token);
    const identity = await verifier.verify(token);
    expect(identity).toMatchObject({ tokenType: "service", subject: "room", role: "service" });
    expect(identity.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it("issue 10: a user, bot or guest token signed with the service identity key is refused", async () => {
    const key = await serviceIdentityKey(pem);
    const { verifier, users } = await verifierFor(key);
    for (const claims of [
      { typ: "user", role: "superUser" },
      { typ: "bot", role: "bot" },
      { typ: "guest", role: "guest" },
    ]) {
      expect(await refusal(verifier.verify(await forge(key, claims)))).toEqual({
        code: Code.Unauthenticated,
        message: "invalid access token",
      });
    }
    // The user service's keys still sign every type, services included.
    expect((await verifier.verify(await users.sign({ typ: "user", role: "superUser" }))).role).toBe("superUser");
    expect((await verifier.verify(await users.sign({ typ: "service", sub: "room" }))).tokenType).toBe("service");
  });

  it("a key made up by the host (none configured) is marked so, and the `\\n`-escaped PEM form is read", async () => {
    expect((await serviceIdentityKey(undefined)).configured).toBe(false);
    const escaped = await serviceIdentityKey(pem.replace(/\n/g, "\\n"));
    expect(escaped.kid).toBe((await serviceIdentityKey(pem)).kid);
  });
});
