import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserHarness, verifyAccessToken, type UserHarness } from "../testing/user-harness.ts";
import { USER_SERVICE_VERSION } from "./hello.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
});

describe("Hello", () => {
  it("answers the service name and API version 1.8.0", async () => {
    const res = await h.rpc.hello({}, h.ctx("hello"));
    expect(res).toMatchObject({ service: "user-service", version: "1.8.0" });
    expect(USER_SERVICE_VERSION).toBe("1.8.0");
  });
});

describe("GetPubKey and GetJwks", () => {
  it("publishes the current key as SPKI PEM and the JWKS that verifies issued tokens", async () => {
    const res = await h.rpc.getPubKey({}, h.ctx("getPubKey"));
    expect(res.alg).toBe("EdDSA");
    expect(res.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const fromPem = createPublicKey(res.publicKey).export({ format: "jwk" });
    const current = res.jwks?.keys.find((k) => k.kid === res.kid);
    expect(current).toMatchObject({ kty: "OKP", crv: "Ed25519", x: fromPem.x, alg: "EdDSA", use: "sig" });

    const jwks = await h.rpc.getJwks({}, h.ctx("getJwks"));
    expect(jwks.keys.map((k) => k.kid)).toEqual(res.jwks?.keys.map((k) => k.kid));

    // The published set (not only the in-process one) verifies a token the service signed.
    const guest = await h.rpc.getGuestToken({}, h.ctx("getGuestToken"));
    const published = { keys: jwks.keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: k.alg })) };
    await expect(verifyAccessToken(published, guest.accessToken!.token)).resolves.toMatchObject({ typ: "guest" });
    const [header] = guest.accessToken!.token.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({
      alg: "EdDSA",
      kid: res.kid,
      typ: "JWT",
    });
  });
});
