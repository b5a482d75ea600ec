import { describe, expect, it } from "vitest";
import { Code, connectErrorOf } from "../../testing/expect-connect-error.ts";
import { assertOutranks, mayGrant, RANK_TOO_LOW, rankOf, ROLES } from "./ranks.ts";

describe("ranks", () => {
  it("order the roles superUser > admin > staff > globalModerator > moderator > promoter > user = bot", () => {
    const order = ["superUser", "admin", "staff", "globalModerator", "moderator", "promoter", "user"];
    for (let i = 1; i < order.length; i++) expect(rankOf(order[i - 1]!)).toBeGreaterThan(rankOf(order[i]!));
    expect(rankOf("bot")).toBe(rankOf("user"));
    expect(new Set(ROLES.map(rankOf)).size).toBe(ROLES.length - 1);
  });

  it("let a caller act only on accounts strictly below it", async () => {
    expect(() => assertOutranks("moderator", "promoter")).not.toThrow();
    expect(() => assertOutranks("admin", "staff")).not.toThrow();
    for (const [caller, target] of [
      ["moderator", "moderator"],
      ["moderator", "globalModerator"],
      ["staff", "admin"],
      ["admin", "admin"],
    ] as const) {
      await expect(connectErrorOf((async () => assertOutranks(caller, target))())).resolves.toEqual({
        code: Code.PermissionDenied,
        message: RANK_TOO_LOW,
      });
    }
  });

  it("let a caller give roles below its own, admins any grantable role", () => {
    expect(mayGrant("moderator", "promoter")).toBe(true);
    expect(mayGrant("moderator", "moderator")).toBe(false);
    expect(mayGrant("globalModerator", "moderator")).toBe(true);
    expect(mayGrant("globalModerator", "globalModerator")).toBe(false);
    expect(mayGrant("staff", "globalModerator")).toBe(true);
    expect(mayGrant("staff", "admin")).toBe(false);
    expect(mayGrant("admin", "admin")).toBe(true);
    expect(mayGrant("admin", "superUser")).toBe(false);
    expect(mayGrant("admin", "bot")).toBe(false);
  });
});
