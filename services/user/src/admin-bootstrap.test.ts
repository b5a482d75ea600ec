import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bootstrapAdmin } from "./admin-bootstrap.ts";
import { Profile } from "./modules/profiles/profile.entity.ts";
import { User } from "./modules/users/user.entity.ts";
import { verifyPassword } from "./passwords.ts";
import { createUserHarness, type UserHarness } from "./testing/user-harness.ts";

const ADMIN = { ADMIN_EMAIL: "Root@Example.org", ADMIN_PASSWORD: "first admin password" };
const logger = pino({ level: "silent" });

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"), ADMIN);
});

afterAll(async () => {
  await h?.close();
});

describe("first admin from ADMIN_EMAIL / ADMIN_PASSWORD", () => {
  it("is created at start with role admin and a profile, and can log in", async () => {
    const em = h.orm.em.fork();
    const admin = await em.findOneOrFail(User, { email: "root@example.org" });
    expect(admin.role).toBe("admin");
    expect((await em.findOneOrFail(Profile, { user: admin.id })).nickname).toBe("root");
    const res = await h.rpc.login({ email: "root@example.org", password: "first admin password" }, h.ctx("login"));
    expect(res.accessToken?.tokenType).toBe("user");
    expect((await h.identityOf(res.accessToken!.token)).role).toBe("admin");
  });

  it("is idempotent and never overwrites the password of an existing account", async () => {
    const admin = await h.rpc.login({ email: "root@example.org", password: "first admin password" }, h.ctx("login"));
    await h.rpc.changePassword(
      { password: "first admin password", newPassword: "changed by the admin" },
      h.ctx("changePassword", await h.identityOf(admin.accessToken!.token)),
    );

    await h.createInstance();
    await expect(
      bootstrapAdmin(h.orm.em, logger, { email: "root@example.org", password: "another password" }),
    ).resolves.toBe("exists");

    const em = h.orm.em.fork();
    expect(await em.count(User, { email: "root@example.org" })).toBe(1);
    const row = await em.findOneOrFail(User, { email: "root@example.org" }, { populate: ["passwordHash"] });
    await expect(verifyPassword(row.passwordHash, "changed by the admin")).resolves.toBe(true);
  });

  it("creates one account when replicas bootstrap at the same moment", async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        bootstrapAdmin(h.orm.em, logger, { email: "race-admin@example.org", password: "long enough" }),
      ),
    );
    expect(results.filter((r) => r === "created")).toHaveLength(1);
    expect(await h.orm.em.fork().count(User, { email: "race-admin@example.org" })).toBe(1);
  });

  it("does nothing without the variables and refuses an invalid pair", async () => {
    await expect(bootstrapAdmin(h.orm.em, logger, {})).resolves.toBe("skipped");
    await expect(
      bootstrapAdmin(h.orm.em, logger, { email: "not-an-address", password: "long enough" }),
    ).rejects.toThrow(/ADMIN_EMAIL \/ ADMIN_PASSWORD: email must be a valid email address/);
    await expect(bootstrapAdmin(h.orm.em, logger, { email: "a@example.org", password: "short" })).rejects.toThrow(
      /password must be at least 8 characters/,
    );
  });

  it("issue 9 defect 7: refuses a common ADMIN_PASSWORD at start, saying why", async () => {
    await expect(
      bootstrapAdmin(h.orm.em, logger, { email: "weak-admin@example.org", password: "administrator" }),
    ).rejects.toThrow(/ADMIN_EMAIL \/ ADMIN_PASSWORD: this password is too common; choose another/);
  });
});
