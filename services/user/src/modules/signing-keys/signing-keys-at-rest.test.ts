// Signing keys at rest (issue 9 defect 12): with SIGNING_KEY_ENCRYPTION_KEY the private keys the service
// generates are stored sealed (AES-256-GCM, the kid as additional data), plain rows from before are sealed in
// place, and a missing or wrong key stops the start with the variable named.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, inject, it } from "vitest";
import { ConfigError } from "@tt/kit";
import { createTokenCipher } from "../provider-tokens/token-cipher.ts";
import { createUserHarness, type UserHarness } from "../../testing/user-harness.ts";
import { SigningKey } from "./signing-key.entity.ts";

const harnesses: UserHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(env: Record<string, string> = {}): Promise<UserHarness> {
  const h = await createUserHarness(inject("databaseUrl"), env);
  harnesses.push(h);
  return h;
}

const newKey = () => randomBytes(32).toString("base64");

/** The stored column as PostgreSQL has it, not as the ORM maps it. */
async function storedColumn(h: UserHarness): Promise<{ kid: string; private_key_pem: string; retired: boolean }[]> {
  return h.orm.em
    .fork()
    .getConnection()
    .execute(
      `select kid, private_key_pem, retired_at is not null as retired from "user"."signing_key" order by created_at`,
    );
}

/** The kid in the header of a token the instance signs now (a guest token). */
async function signingKid(instance: UserHarness["instance"], h: UserHarness): Promise<string> {
  let impl: { getGuestToken?: (req: object, ctx: unknown) => Promise<{ accessToken?: { token: string } }> } = {};
  // Each tt.user.v1 service registers its own implementation: GetGuestToken is AuthService's.
  instance.routes({ service: (_s: unknown, i: typeof impl) => (impl = { ...impl, ...i }) } as never);
  const res = await impl.getGuestToken!({}, h.ctx("getGuestToken"));
  return String(decodeProtectedHeader(res.accessToken!.token).kid);
}

async function startFails(h: UserHarness, env: Record<string, string>): Promise<string> {
  const error = await h.createInstance(env).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe("issue 9 defect 12: signing keys at rest", () => {
  it("issue 9 defect 12: with SIGNING_KEY_ENCRYPTION_KEY the stored column does not contain the PEM", async () => {
    const key = newKey();
    const h = await harness({ SIGNING_KEY_ENCRYPTION_KEY: key });
    const [row, ...others] = await storedColumn(h);
    expect(others).toEqual([]);
    expect(row!.private_key_pem).toMatch(/^v1\./);
    expect(row!.private_key_pem).not.toContain("PRIVATE KEY");
    // The sealed value opens with the key and the kid only, to the private key of the published public key.
    const cipher = createTokenCipher(Buffer.from(key, "base64"));
    const pem = cipher.decrypt(row!.private_key_pem, row!.kid);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(() => cipher.decrypt(row!.private_key_pem, "another-kid")).toThrow();
    const publicX = createPublicKey(createPrivateKey(pem)).export({ format: "jwk" }).x;
    const published = await h.instance.verificationKeys!();
    expect(published.keys).toEqual([expect.objectContaining({ kid: row!.kid, x: publicX })]);
  });

  it("issue 9 defect 12: a restart with the same key signs with the same kid", async () => {
    const key = newKey();
    const h = await harness({ SIGNING_KEY_ENCRYPTION_KEY: key });
    const [row] = await storedColumn(h);
    expect(await signingKid(h.instance, h)).toBe(row!.kid);
    // The URL-safe spelling of the same bytes is the same key.
    const restarted = await h.createInstance({
      SIGNING_KEY_ENCRYPTION_KEY: key.replace(/\+/g, "-").replace(/\//g, "_"),
    });
    expect(await signingKid(restarted, h)).toBe(row!.kid);
    expect(await storedColumn(h)).toEqual([row]);
  });

  it("issue 9 defect 12: a wrong or missing key fails the start with a message naming the variable", async () => {
    const h = await harness({ SIGNING_KEY_ENCRYPTION_KEY: newKey() });
    const [row] = await storedColumn(h);
    expect(await startFails(h, { SIGNING_KEY_ENCRYPTION_KEY: newKey() })).toContain(
      `SIGNING_KEY_ENCRYPTION_KEY: does not decrypt signing key ${row!.kid}: it was encrypted with another key`,
    );
    expect(await startFails(h, {})).toContain(
      `SIGNING_KEY_ENCRYPTION_KEY: is required: signing key ${row!.kid} is stored encrypted`,
    );
    for (const malformed of ["too-short", randomBytes(16).toString("base64"), "not base64 at all!"]) {
      expect(await startFails(h, { SIGNING_KEY_ENCRYPTION_KEY: malformed })).toContain(
        "SIGNING_KEY_ENCRYPTION_KEY: must be 32 bytes, base64",
      );
    }
    // Nothing was rewritten by the failed starts.
    expect(await storedColumn(h)).toEqual([row]);
  });

  it("issue 9 defect 12: plain keys from before are sealed in place at the first start with a key", async () => {
    const h = await harness();
    const em = h.orm.em.fork();
    // A retired key from an earlier rotation, stored in plain text like the current one.
    const { privateKey } = generateKeyPairSync("ed25519");
    const jwk = createPublicKey(privateKey).export({ format: "jwk" });
    em.create(SigningKey, {
      kid: "r".repeat(64),
      privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      publicJwk: { kty: "OKP", crv: "Ed25519", x: String(jwk.x), kid: "r".repeat(64) },
      createdAt: new Date(Date.now() - 60_000),
      retiredAt: new Date(),
    });
    await em.flush();
    const before = await storedColumn(h);
    expect(before).toHaveLength(2);
    for (const row of before) expect(row.private_key_pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const current = before.find((row) => !row.retired)!;
    const kidBefore = await signingKid(h.instance, h);
    expect(kidBefore).toBe(current.kid);

    const key = newKey();
    const upgraded = await h.createInstance({ SIGNING_KEY_ENCRYPTION_KEY: key });
    const after = await storedColumn(h);
    const cipher = createTokenCipher(Buffer.from(key, "base64"));
    expect(after.map((row) => row.kid)).toEqual(before.map((row) => row.kid));
    for (const [i, row] of after.entries()) {
      expect(row.private_key_pem).toMatch(/^v1\./);
      expect(cipher.decrypt(row.private_key_pem, row.kid)).toBe(before[i]!.private_key_pem);
    }
    expect(await signingKid(upgraded, h)).toBe(kidBefore);

    // From now on the key is needed.
    expect(await startFails(h, {})).toContain("SIGNING_KEY_ENCRYPTION_KEY: is required");
  });

  it("issue 9 defect 12: with JWT_PRIVATE_KEY signing, stored keys are still sealed when a key is given", async () => {
    const h = await harness();
    const [plain] = await storedColumn(h);
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await h.createInstance({ JWT_PRIVATE_KEY: pem, SIGNING_KEY_ENCRYPTION_KEY: newKey() });
    const [sealed] = await storedColumn(h);
    expect(sealed!.kid).toBe(plain!.kid);
    expect(sealed!.private_key_pem).toMatch(/^v1\./);
  });
});
