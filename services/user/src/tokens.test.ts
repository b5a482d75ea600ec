import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SigningKey } from "./modules/signing-keys/signing-key.entity.ts";
import { createUserHarness, verifyAccessToken, type UserHarness } from "./testing/user-harness.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
});

const kidsOf = async (keys: () => Promise<{ keys: { kid?: string }[] }>) => (await keys()).keys.map((k) => k.kid);

describe("signing keys", () => {
  it("generates one Ed25519 key at first start, stores it, and reuses it after a restart", async () => {
    const stored = await h.orm.em.fork().find(SigningKey, {});
    expect(stored).toHaveLength(1);
    expect(stored[0]!.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(stored[0]!.publicJwk).toMatchObject({ kty: "OKP", crv: "Ed25519", kid: stored[0]!.kid });

    const restarted = await h.createInstance();
    expect(await kidsOf(restarted.verificationKeys!)).toEqual([stored[0]!.kid]);
    expect(await h.orm.em.fork().count(SigningKey, {})).toBe(1);
  });

  it("creates a single key when replicas start at the same moment", async () => {
    const em = h.orm.em.fork();
    await em.nativeUpdate(SigningKey, {}, { retiredAt: new Date() });
    const replicas = await Promise.all([h.createInstance(), h.createInstance(), h.createInstance()]);
    const sets = await Promise.all(replicas.map((r) => kidsOf(r.verificationKeys!)));
    expect(new Set(sets.map((kids) => kids.join()))).toHaveProperty("size", 1);
    expect(await em.count(SigningKey, { retiredAt: null })).toBe(1);
  });

  it("signs with JWT_PRIVATE_KEY when given, never stores it, and still publishes stored keys", async () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const before = await h.orm.em.fork().count(SigningKey, {});
    // Manifests often carry PEMs with literal "\n"; both forms are accepted.
    const instance = await h.createInstance({ JWT_PRIVATE_KEY: pem.replace(/\n/g, "\\n") });
    expect(await h.orm.em.fork().count(SigningKey, {})).toBe(before);

    const keys = await instance.verificationKeys!();
    const envJwk = privateKey.export({ format: "jwk" });
    expect(keys.keys[0]).toMatchObject({ x: envJwk.x, alg: "EdDSA", use: "sig" });
    const live = await h.orm.em.fork().find(SigningKey, { retiredAt: null });
    expect(keys.keys.map((k) => k.kid)).toEqual([keys.keys[0]!.kid, ...live.map((k) => k.kid)]);
  });

  it("refuses a JWT_PRIVATE_KEY that is not Ed25519", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await expect(h.createInstance({ JWT_PRIVATE_KEY: pem })).rejects.toThrow(/must be Ed25519/);
  });

  it("leaves retired keys out of the verification keys of instances started after the retirement", async () => {
    const em = h.orm.em.fork();
    const instance = await h.createInstance();
    const all = await em.find(SigningKey, {});
    const retired = all.filter((k) => k.retiredAt !== null).map((k) => k.kid);
    expect(retired.length).toBeGreaterThan(0);
    const kids = await kidsOf(instance.verificationKeys!);
    expect(kids).toHaveLength(1);
    for (const kid of retired) expect(kids).not.toContain(kid);
  });

  it("takes token lifetimes from the environment", async () => {
    const instance = await h.createInstance({ GUEST_TOKEN_TTL_SECONDS: "600" });
    let impl: { getGuestToken?: (req: object, ctx: unknown) => Promise<{ accessToken?: { token: string } }> } = {};
    // Each tt.user.v1 service registers its own implementation: GetGuestToken is AuthService's.
    instance.routes({
      service: (_s: unknown, i: typeof impl) => (impl = { ...impl, ...i }),
    } as never);
    const res = await impl.getGuestToken!({}, h.ctx("getGuestToken"));
    const claims = await verifyAccessToken(await instance.verificationKeys!(), res.accessToken!.token);
    expect(claims.exp - claims.iat).toBe(600);
  });
});
