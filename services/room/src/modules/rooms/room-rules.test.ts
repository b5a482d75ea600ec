// The rank rule, expiry and permissions as tables (002 §6, 001 §3).
import { describe, expect, it } from "vitest";
import { isGrantActive } from "./room-user-role.entity.ts";
import {
  checkExternalUrl,
  effectiveRoles,
  mayActOn,
  mayRemoveOwn,
  type Member,
  permissionsOf,
  rankOf,
  slugify,
} from "./room-rules.ts";

function member(name: string, standing: string): Member {
  const global = ["admin", "globalModerator", "staff", "superUser"].includes(standing);
  return {
    userId: name,
    accountRole: global ? standing : standing === "guest" ? "guest" : "user",
    isOwner: standing === "owner",
    grants: new Set(!global && !["owner", "user", "guest"].includes(standing) ? [standing] : []),
  };
}

describe("rank", () => {
  it.each([
    ["user", 0],
    ["dj", 0],
    ["banned", 0],
    ["moderator", 1],
    ["coOwner", 2],
    ["owner", 3],
    ["globalModerator", 10],
    ["staff", 10],
    ["admin", 10],
    ["superUser", 10],
  ])("%s has rank %i", (standing, rank) => {
    expect(rankOf(member("a", standing))).toBe(rank);
  });
});

describe("the rank rule", () => {
  // actor, target, role, allowed
  const table: [string, string, string, boolean][] = [
    ["user", "user", "banned", false],
    ["dj", "user", "banned", false],
    ["moderator", "user", "banned", true],
    ["moderator", "user", "kicked", true],
    ["moderator", "user", "dj", true],
    ["moderator", "user", "chatDisabled", true],
    ["moderator", "user", "djDisabled", true],
    ["moderator", "user", "moderator", false],
    ["moderator", "moderator", "banned", false],
    ["moderator", "coOwner", "banned", false],
    ["moderator", "owner", "kicked", false],
    ["coOwner", "user", "moderator", true],
    ["coOwner", "moderator", "banned", true],
    ["coOwner", "user", "coOwner", false],
    ["coOwner", "coOwner", "banned", false],
    ["coOwner", "owner", "banned", false],
    ["owner", "user", "coOwner", true],
    ["owner", "coOwner", "banned", true],
    ["owner", "moderator", "kicked", true],
    ["globalModerator", "owner", "banned", true],
    ["staff", "coOwner", "kicked", true],
    ["admin", "owner", "coOwner", true],
    ["admin", "globalModerator", "banned", false],
    ["globalModerator", "admin", "banned", false],
    ["superUser", "staff", "kicked", false],
  ];
  it.each(table)("%s on %s, role %s: %s", (actor, target, role, allowed) => {
    expect(mayActOn(member("actor", actor), member("target", target), role)).toBe(allowed);
  });

  it("no one acts on themself through the rank rule, but may give up their own non-restrictive roles", () => {
    const mod = member("same", "moderator");
    expect(mayActOn(mod, mod, "banned")).toBe(false);
    expect(mayRemoveOwn(mod, mod, "moderator")).toBe(true);
    const banned = member("same", "banned");
    expect(mayRemoveOwn(banned, banned, "banned")).toBe(false);
    expect(mayRemoveOwn(member("a", "moderator"), member("b", "dj"), "dj")).toBe(false);
  });
});

describe("expiry", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  it.each([
    [null, true],
    [undefined, true],
    [new Date("2026-11-24T12:00:01Z"), true],
    [new Date("2026-11-24T12:00:00Z"), false],
    [new Date("2026-11-24T11:59:59Z"), false],
  ])("a grant expiring at %s has effect: %s", (expiresAt, active) => {
    expect(isGrantActive({ expiresAt }, now)).toBe(active);
  });
});

describe("effective roles and permissions", () => {
  it.each([
    ["guest", ["guest"], { canChat: false, canDj: false, isModerator: false }],
    ["user", ["user"], { canChat: true, canDj: true, isModerator: false }],
    ["owner", ["owner", "user"], { canChat: true, canDj: true, isModerator: true }],
    ["chatDisabled", ["chatDisabled", "user"], { canChat: false, canDj: true, isModerator: false }],
    ["djDisabled", ["djDisabled", "user"], { canChat: true, canDj: false, isModerator: false }],
    ["admin", ["superUser", "user"], { canChat: true, canDj: true, isModerator: true }],
    ["globalModerator", ["globalModerator", "user"], { canChat: true, canDj: true, isModerator: true }],
  ])("%s in an EVERYONE room", (standing, roles, permissions) => {
    const m = member("a", standing);
    expect(effectiveRoles(m)).toEqual(roles);
    expect(permissionsOf(m, "EVERYONE")).toEqual(permissions);
  });

  it.each([
    ["user", "INVITE_ONLY", false],
    ["dj", "INVITE_ONLY", true],
    ["moderator", "INVITE_ONLY", true],
    ["moderator", "PRO_PLAN_OWNER", false],
    ["dj", "PRO_PLAN_OWNER", true],
    ["owner", "PRO_PLAN_OWNER", true],
    ["staff", "PRO_PLAN_OWNER", true],
  ])("%s may DJ in a %s room: %s", (standing, djType, canDj) => {
    expect(permissionsOf(member("a", standing), djType).canDj).toBe(canDj);
  });
});

describe("slugs and external URLs", () => {
  it.each([
    ["My Room", "my-room"],
    ["  Café  del Mar!! ", "cafe-del-mar"],
    ["???", "room"],
    ["a".repeat(100), "a".repeat(80)],
  ])("slug of %j is %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("accepts http(s) URLs and refuses the rest naming externalUrl", () => {
    expect(checkExternalUrl("https://example.com/x")).toBe("https://example.com/x");
    for (const bad of ["javascript:alert(1)", "ftp://example.com", "not a url", "https://user:pw@example.com"]) {
      expect(() => checkExternalUrl(bad)).toThrow(/externalUrl must be an http or https URL/);
    }
  });
});
