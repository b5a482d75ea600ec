import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  checkEmail,
  checkNewPassword,
  INVALID_EMAIL,
  NICKNAME_TOO_LONG,
  nicknameFor,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "./account-rules.ts";

function rejection(run: () => unknown): { code: Code; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof ConnectError) return { code: err.code, message: err.rawMessage };
    throw err;
  }
  throw new Error("expected a ConnectError");
}

describe("account rules", () => {
  it("normalizes addresses to trimmed lower case", () => {
    expect(checkEmail("  Ann.Example@Example.ORG ")).toBe("ann.example@example.org");
  });

  it.each(["ann", "ann@", "@example.org", "ann@example", "ann example@example.org", `${"a".repeat(250)}@ex.org`])(
    "refuses %j as an address",
    (email) => {
      expect(rejection(() => checkEmail(email))).toEqual({ code: Code.InvalidArgument, message: INVALID_EMAIL });
    },
  );

  it("needs at least 8 and at most 1024 characters, counted as code points", () => {
    expect(rejection(() => checkNewPassword("1234567"))).toEqual({
      code: Code.InvalidArgument,
      message: PASSWORD_TOO_SHORT,
    });
    expect(rejection(() => checkNewPassword("x".repeat(1025)))).toEqual({
      code: Code.InvalidArgument,
      message: PASSWORD_TOO_LONG,
    });
    // Four emoji are eight UTF-16 units but only four characters.
    expect(rejection(() => checkNewPassword("🎵🎵🎵🎵")).message).toBe(PASSWORD_TOO_SHORT);
    expect(() => checkNewPassword("12345678")).not.toThrow();
  });

  it("defaults the nickname to the part before the @ and limits a given one", () => {
    expect(nicknameFor("", "dj.ann@example.org")).toBe("dj.ann");
    expect(nicknameFor("  DJ Ann ", "dj.ann@example.org")).toBe("DJ Ann");
    expect(rejection(() => nicknameFor("n".repeat(65), "a@b.co"))).toEqual({
      code: Code.InvalidArgument,
      message: NICKNAME_TOO_LONG,
    });
  });
});
