import { describe, expect, it } from "vitest";
import { requestIdOf } from "./request-id.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("requestIdOf", () => {
  it.each([
    ["abc-123", true],
    ["req#7", true],
    ["a:b/c+d=e.f_g", true],
    ["!~", true],
    ["x".repeat(128), true],
    ["x".repeat(129), false],
    ["has space", false],
    ["line\nbreak", false],
    ["tab\there", false],
    ["café", false],
    ["", false],
  ])("issue 10: %j is kept: %s", (id, kept) => {
    if (kept) expect(requestIdOf(id)).toBe(id);
    else expect(requestIdOf(id)).toMatch(UUID);
  });

  it("makes a fresh uuid when there is none", () => {
    expect(requestIdOf(null)).toMatch(UUID);
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});
