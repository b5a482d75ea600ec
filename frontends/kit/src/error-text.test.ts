import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { errorText, GENERIC_ERROR_TEXT } from "./error-text.ts";

describe("errorText (spec 002 §8)", () => {
  it("shows the server's message, capitalised, for a status below 500", () => {
    expect(errorText(new ConnectError("incorrect email or password", Code.Unauthenticated))).toBe(
      "Incorrect email or password",
    );
    expect(errorText(new ConnectError("this email is already registered", Code.PermissionDenied))).toBe(
      "This email is already registered",
    );
  });

  it("shows the generic text for a status of 500 or more", () => {
    expect(errorText(new ConnectError("db connection refused at 10.0.0.3", Code.Internal))).toBe(GENERIC_ERROR_TEXT);
    expect(errorText(new ConnectError("upstream down", Code.Unavailable))).toBe(GENERIC_ERROR_TEXT);
    expect(errorText(new ConnectError("not here", Code.Unimplemented))).toBe(GENERIC_ERROR_TEXT);
  });

  it("takes the first message of a list from a REST error body", () => {
    expect(errorText({ statusCode: 400, message: ["email must be an email", "password is too short"] })).toBe(
      "Email must be an email",
    );
    expect(errorText({ statusCode: 404, message: "user profile not found", error: "Not Found" })).toBe(
      "User profile not found",
    );
    expect(errorText({ statusCode: 502, message: "bad gateway" })).toBe(GENERIC_ERROR_TEXT);
  });

  it("falls back to the generic text for anything that is not a service error", () => {
    expect(errorText(new TypeError("Failed to fetch"))).toBe(GENERIC_ERROR_TEXT);
    expect(errorText(undefined)).toBe(GENERIC_ERROR_TEXT);
    expect(errorText(new ConnectError("", Code.InvalidArgument))).toBe(GENERIC_ERROR_TEXT);
  });

  it("uses the translated generic text it is given", () => {
    expect(errorText(new ConnectError("boom", Code.Internal), "Algo salió mal")).toBe("Algo salió mal");
  });
});
