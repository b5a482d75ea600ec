import { describe, expect, it } from "vitest";
import { InvalidSubjectError, subject, subjectMatches, subjectsOverlap, validateSubject } from "./subject.ts";

describe("subject helpers", () => {
  it.each([
    ["tt.room.created", "tt.room.created", true],
    ["tt.*.created", "tt.room.created", true],
    ["tt.*.created", "tt.room.song.created", false],
    ["tt.>", "tt.room.created", true],
    ["tt.>", "tt", false],
    ["tt.room.>", "tt.room", false],
    ["*", "tt", true],
    [">", "a.b.c", true],
    ["tt.room", "tt.room.created", false],
  ])("%s matches %s: %s", (pattern, s, expected) => {
    expect(subjectMatches(pattern, s)).toBe(expected);
  });

  it.each([
    ["tt.>", "tt.room.*", true],
    ["tt.*.a", "tt.b.*", true],
    ["tt.a", "tt.b", false],
    ["tt.>", "tt", false],
    ["tt.a.b", "tt.a", false],
  ])("%s overlaps %s: %s", (a, b, expected) => {
    expect(subjectsOverlap(a, b)).toBe(expected);
    expect(subjectsOverlap(b, a)).toBe(expected);
  });

  it.each([
    ["", /empty/],
    ["tt..room", /empty token at position 2/],
    [".tt", /empty token at position 1/],
    ["tt.", /empty token at position 2/],
    ["tt.ro om", /whitespace/],
    ["tt.room\t", /whitespace/],
    ["tt.*", /wildcards are not allowed/],
  ])("refuses %j", (s, message) => {
    expect(() => validateSubject(s)).toThrow(InvalidSubjectError);
    expect(() => validateSubject(s)).toThrow(message);
  });

  it("accepts patterns only where wildcards are allowed, `>` only last", () => {
    expect(validateSubject("tt.*.>", { wildcards: true })).toEqual(["tt", "*", ">"]);
    expect(() => validateSubject("tt.>.x", { wildcards: true })).toThrow(/must be the last token/);
  });

  it("builds platform subjects and refuses parts that would change their shape", () => {
    expect(subject("social", "room", "created")).toBe("tt.social.room.created");
    expect(subject("user", "session-token", "revoked")).toBe("tt.user.session-token.revoked");
    expect(() => subject("social", "room.song", "played")).toThrow(/entity "room.song"/);
    expect(() => subject("social", "*", "played")).toThrow(InvalidSubjectError);
    expect(() => subject("", "room", "played")).toThrow(/service ""/);
  });
});
