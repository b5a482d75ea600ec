import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserHarness, type UserHarness } from "../../testing/user-harness.ts";
import { Email } from "./email.entity.ts";
import { EmailStatus, isEmailVerified } from "./emails.ts";

let h: UserHarness;
beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});
afterAll(async () => {
  await h?.close();
});

describe("isEmailVerified", () => {
  // Regression: an address staff entered (CREATED_BY_ADMIN) was not counted as verified.
  it.each([
    [EmailStatus.verified, true],
    [EmailStatus.createdByAdmin, true],
    [EmailStatus.pending, false],
    [EmailStatus.deleted, false],
  ])("counts an address with status %s as verified: %s", async (status, verified) => {
    const em = h.orm.em.fork();
    const userId = randomUUID();
    em.create(Email, { userId, email: `${userId}@example.test`, type: "personal", status, primary: true });
    await em.flush();
    expect(await isEmailVerified(h.orm.em.fork(), userId, `${userId}@example.test`)).toBe(verified);
  });
});
