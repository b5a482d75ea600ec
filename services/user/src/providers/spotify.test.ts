import { afterEach, describe, expect, it } from "vitest";
import { createDevSpotifyAuth, createHttpSpotifyAuth, type SpotifyAuth } from "./spotify.ts";
import { decodeBasicAuth, startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";
import { withTokenRefresh } from "./token-refresh.ts";

describe("Spotify", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  // One fake for both hosts: the accounts service (/api/token) and the Web API (/v1/...).
  async function setup(handler: FakeHandler): Promise<SpotifyAuth> {
    fake = await startFakeServer(handler);
    return createHttpSpotifyAuth({
      accountsBaseUrl: fake.url,
      apiBaseUrl: fake.url,
      clientId: "sp-id",
      clientSecret: "sp-secret",
      timeoutMs: 5_000,
    });
  }

  it("exchanges a code with basic client auth and a form body", async () => {
    const spotify = await setup(() => ({
      status: 200,
      json: {
        access_token: "sp-at",
        token_type: "Bearer",
        scope: "streaming",
        expires_in: 3600,
        refresh_token: "sp-rt",
      },
    }));
    expect(await spotify.exchangeCode("abc", "https://tt.example/spotify")).toEqual({
      accessToken: "sp-at",
      expiresIn: 3600,
      refreshToken: "sp-rt",
      scope: "streaming",
    });
    const [request] = fake!.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/token" });
    expect(decodeBasicAuth(request?.headers.authorization)).toEqual({ user: "sp-id", password: "sp-secret" });
    expect(request?.form).toEqual({
      grant_type: "authorization_code",
      code: "abc",
      redirect_uri: "https://tt.example/spotify",
    });
  });

  it("refreshes, and leaves refreshToken out when Spotify does not rotate it", async () => {
    const spotify = await setup(() => ({
      status: 200,
      json: { access_token: "sp-at2", token_type: "Bearer", expires_in: 3600 },
    }));
    expect(await spotify.refresh("sp-rt")).toEqual({ accessToken: "sp-at2", expiresIn: 3600 });
    expect(fake!.requests[0]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt" });
  });

  it("reports a revoked refresh token as rejected invalid_grant", async () => {
    const spotify = await setup(() => ({
      status: 400,
      json: { error: "invalid_grant", error_description: "Refresh token revoked" },
    }));
    await expect(spotify.refresh("revoked")).rejects.toMatchObject({
      provider: "spotify",
      status: 400,
      reason: "invalid_grant",
    });
  });

  it("reports a token answer without access_token as a bad response", async () => {
    const spotify = await setup(() => ({ status: 200, json: { token_type: "Bearer", expires_in: 3600 } }));
    await expect(spotify.refresh("sp-rt")).rejects.toMatchObject({
      kind: "bad-response",
      reason: "answer has no access_token",
    });
  });

  it("reads the current user with the bearer token", async () => {
    const spotify = await setup(() => ({
      status: 200,
      json: { id: "wizzler", display_name: "Wizzler", email: "w@example.com", product: "premium" },
    }));
    expect(await spotify.getCurrentUser("sp-at")).toEqual({
      id: "wizzler",
      displayName: "Wizzler",
      email: "w@example.com",
      product: "premium",
    });
    expect(fake!.requests[0]).toMatchObject({ method: "GET", path: "/v1/me" });
    expect(fake!.requests[0]?.headers.authorization).toBe("Bearer sp-at");
  });

  it("on a 401 refreshes once and retries with the new token (spec 002 §8)", async () => {
    const spotify = await setup((request) => {
      if (request.path === "/api/token") {
        return { status: 200, json: { access_token: "fresh", expires_in: 3600, refresh_token: "rotated" } };
      }
      return request.headers.authorization === "Bearer fresh"
        ? { status: 200, json: { id: "wizzler" } }
        : { status: 401, json: { error: { status: 401, message: "The access token expired" } } };
    });
    let stored = { accessToken: "expired", refreshToken: "sp-rt" };
    const outcome = await withTokenRefresh({
      accessToken: stored.accessToken,
      refresh: async () => {
        const tokens = await spotify.refresh(stored.refreshToken);
        stored = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? stored.refreshToken };
        return tokens.accessToken;
      },
      call: (token) => spotify.getCurrentUser(token),
    });

    expect(outcome).toEqual({ result: { id: "wizzler" }, accessToken: "fresh", refreshed: true });
    expect(stored).toEqual({ accessToken: "fresh", refreshToken: "rotated" });
    expect(fake!.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization?.split(" ")[0]}`)).toEqual([
      "GET /v1/me Bearer",
      "POST /api/token Basic",
      "GET /v1/me Bearer",
    ]);
    expect(fake!.requests[0]?.headers.authorization).toBe("Bearer expired");
    expect(fake!.requests[1]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt" });
    expect(fake!.requests[2]?.headers.authorization).toBe("Bearer fresh");
  });

  it("refreshes only once: a second 401 is thrown", async () => {
    const spotify = await setup((request) =>
      request.path === "/api/token"
        ? { status: 200, json: { access_token: "also-refused", expires_in: 3600 } }
        : { status: 401, json: { error: { status: 401, message: "Invalid access token" } } },
    );
    await expect(
      withTokenRefresh({
        accessToken: "expired",
        refresh: async () => (await spotify.refresh("sp-rt")).accessToken,
        call: (token) => spotify.getCurrentUser(token),
      }),
    ).rejects.toMatchObject({ provider: "spotify", status: 401 });
    expect(fake!.requests.map((r) => r.path)).toEqual(["/v1/me", "/api/token", "/v1/me"]);
  });

  it("does not refresh on errors other than 401", async () => {
    const spotify = await setup(() => ({ status: 503, text: "" }));
    await expect(
      withTokenRefresh({
        accessToken: "sp-at",
        refresh: () => Promise.reject(new Error("must not refresh")),
        call: (token) => spotify.getCurrentUser(token),
      }),
    ).rejects.toMatchObject({ kind: "unavailable", status: 503 });
    expect(fake!.requests).toHaveLength(1);
  });
});

describe("development Spotify", () => {
  it("says Spotify is not configured", async () => {
    const spotify = createDevSpotifyAuth();
    await expect(spotify.refresh("x")).rejects.toMatchObject({ provider: "spotify", kind: "not-configured" });
    await expect(spotify.exchangeCode("c", "r")).rejects.toThrow("Spotify is not configured");
  });
});
