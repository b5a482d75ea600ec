import type { ConnectError } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { callProvider, ProviderError, toConnectProviderError, type ProviderErrorKind } from "./provider-errors.ts";

const failure = (kind: ProviderErrorKind) => new ProviderError("spotify", kind, "secret provider answer", 500);

function answer(error: unknown): { code: string; message: string } {
  const e = error as ConnectError;
  return { code: Code[e.code], message: e.rawMessage };
}

describe("toConnectProviderError", () => {
  it.each([
    ["not-configured", "FailedPrecondition", "Spotify is not configured"],
    ["rejected", "InvalidArgument", "Spotify refused the request"],
    ["timeout", "Unavailable", "Spotify did not answer in time"],
    ["unavailable", "Unavailable", "Spotify is not available"],
    ["bad-response", "Unavailable", "Spotify answered unexpectedly"],
  ] as const)("maps %s to %s, keeping the provider's answer in cause only", (kind, code, message) => {
    const error = failure(kind);
    const mapped = toConnectProviderError(error, "Spotify");
    expect(answer(mapped)).toEqual({ code, message });
    expect((mapped as ConnectError).cause).toBe(error);
    expect((mapped as ConnectError).message).not.toContain("secret");
  });

  it("words a call's refusal and provider-side failures as asked", () => {
    const words = {
      refusal: { message: "Discord refused the code or token", code: Code.Unauthenticated },
      unavailable: "Discord is unavailable, try again later",
    };
    expect(answer(toConnectProviderError(failure("rejected"), "Discord login", words))).toEqual({
      code: "Unauthenticated",
      message: "Discord refused the code or token",
    });
    for (const kind of ["timeout", "unavailable", "bad-response"] as const) {
      expect(answer(toConnectProviderError(failure(kind), "Discord login", words)).message).toBe(words.unavailable);
    }
    expect(answer(toConnectProviderError(failure("not-configured"), "Discord login", words)).message).toBe(
      "Discord login is not configured",
    );
  });

  it("leaves other errors alone", async () => {
    const other = new Error("a bug of ours");
    expect(toConnectProviderError(other, "Spotify")).toBe(other);
    await expect(callProvider("Spotify", () => Promise.reject(other))).rejects.toBe(other);
    await expect(callProvider("Spotify", () => Promise.resolve(7))).resolves.toBe(7);
  });
});
