import { parseOptions } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import {
  DUMMY_PASSWORD_HASH,
  PASSWORD_HASH_OPTIONS,
  hashPassword,
  verifyPassword,
  verifyPasswordOrDummy,
} from "./passwords.ts";

describe("passwords", () => {
  it("hashes with argon2id and verifies only the right password", async () => {
    const hashed = await hashPassword("correct horse battery staple");
    expect(hashed.startsWith("$argon2id$")).toBe(true);
    await expect(verifyPassword(hashed, "correct horse battery staple")).resolves.toBe(true);
    await expect(verifyPassword(hashed, "correct horse battery stapler")).resolves.toBe(false);
  });

  it("keeps the dummy hash's cost in step with real hashes, so unknown e-mails cost the same", () => {
    const parsed = parseOptions(DUMMY_PASSWORD_HASH);
    expect(DUMMY_PASSWORD_HASH.startsWith("$argon2id$")).toBe(true);
    expect({ memoryCost: parsed.memoryCost, timeCost: parsed.timeCost, parallelism: parsed.parallelism }).toEqual(
      PASSWORD_HASH_OPTIONS,
    );
  });

  it("treats a malformed stored hash as a mismatch instead of throwing", async () => {
    await expect(verifyPassword("not a hash", "whatever")).resolves.toBe(false);
  });

  it("answers false without an account, after spending a verification", async () => {
    await expect(verifyPasswordOrDummy(undefined, "anything at all")).resolves.toBe(false);
  });
});
