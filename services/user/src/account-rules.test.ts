import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  checkEmail,
  checkNewPassword,
  INVALID_EMAIL,
  NICKNAME_TOO_LONG,
  nicknameFor,
  PASSWORD_IS_ACCOUNT_NAME,
  PASSWORD_ONE_CHARACTER,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "./account-rules.ts";
import { commonPasswords } from "./common-passwords.ts";

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
    expect(() => checkNewPassword("8 chars!")).not.toThrow();
  });

  it("issue 9 defect 7: refuses the most common passwords in any case, with a message that says so", () => {
    // zxcvbn-ts's list, well over the 10,000 the issue asks for.
    expect(commonPasswords().size).toBeGreaterThan(49_000);
    for (const password of ["password", "12345678", "Password1", "PASSWORD", "qwertyuiop", "iloveyou", "secret123"]) {
      expect(rejection(() => checkNewPassword(password))).toEqual({
        code: Code.InvalidArgument,
        message: PASSWORD_TOO_COMMON,
      });
    }
    expect(PASSWORD_TOO_COMMON).toBe("this password is too common; choose another");
    // No composition rules: a long phrase of lower-case words is fine, as is anything not on the list.
    for (const password of ["correct horse battery staple", "ünïcödé-tune", "admin-password-1", "8 chars!"]) {
      expect(() => checkNewPassword(password)).not.toThrow();
    }
  });

  it("issue 9 defect 7: refuses one character repeated and the account's own address or nickname", () => {
    for (const password of ["aaaaaaaa", "ZZZZZZZZZZZZ", "🎵🎵🎵🎵🎵🎵🎵🎵", "        "]) {
      expect(rejection(() => checkNewPassword(password))).toEqual({
        code: Code.InvalidArgument,
        message: PASSWORD_ONE_CHARACTER,
      });
    }
    const account = { email: "dj.annabelle@example.org", nickname: "Annabelle Spins" };
    for (const password of ["DJ.Annabelle@Example.org", "dj.annabelle", "annabelle spins"]) {
      expect(rejection(() => checkNewPassword(password, account))).toEqual({
        code: Code.InvalidArgument,
        message: PASSWORD_IS_ACCOUNT_NAME,
      });
    }
    expect(() => checkNewPassword("annabelle spins records", account)).not.toThrow();
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
