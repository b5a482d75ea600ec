import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { queryKeys, shouldRetry } from "./query-client.ts";
import { createAppQueryClient } from "./query-provider.tsx";

describe("query defaults (spec 002 §9 staleness)", () => {
  const client = createAppQueryClient();

  it("keeps profiles fresh for 5 minutes and crates and recent songs for 60 seconds", () => {
    expect(client.getQueryDefaults(queryKeys.profile("u1")).staleTime).toBe(5 * 60_000);
    expect(client.getQueryDefaults(queryKeys.crates("u1")).staleTime).toBe(60_000);
    expect(client.getQueryDefaults(queryKeys.recentSongs("room")).staleTime).toBe(60_000);
    expect(client.getQueryDefaults(queryKeys.avatars()).gcTime).toBe(60_000);
    expect(client.getQueryDefaults(queryKeys.media("https://x/y.jpg")).staleTime).toBe(3_600_000);
  });

  it("refetches the token balance on window focus", () => {
    expect(client.getQueryDefaults(queryKeys.tokenBalance("u1")).refetchOnWindowFocus).toBe("always");
  });

  it("retries only Unavailable and Aborted, at most twice", () => {
    expect(shouldRetry(0, new ConnectError("down", Code.Unavailable))).toBe(true);
    expect(shouldRetry(1, new ConnectError("conflict", Code.Aborted))).toBe(true);
    expect(shouldRetry(2, new ConnectError("down", Code.Unavailable))).toBe(false);
    expect(shouldRetry(0, new ConnectError("nope", Code.PermissionDenied))).toBe(false);
    expect(shouldRetry(0, new Error("plain"))).toBe(false);
  });
});
