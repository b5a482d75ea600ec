import { afterEach, describe, expect, it } from "vitest";
import { startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";
import { createDevYouTubeAuth, createHttpYouTubeAuth } from "./youtube.ts";

describe("YouTube (Google OAuth2)", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(handler: FakeHandler) {
    fake = await startFakeServer(handler);
    return createHttpYouTubeAuth({ baseUrl: fake.url, clientId: "g-id", clientSecret: "g-secret", timeoutMs: 5_000 });
  }

  it("exchanges a code with the client credentials in the form and no Authorization header", async () => {
    const youtube = await setup(() => ({
      status: 200,
      json: {
        access_token: "ya29.x",
        expires_in: 3599,
        refresh_token: "1//rt",
        scope: "https://www.googleapis.com/auth/youtube.readonly",
        token_type: "Bearer",
      },
    }));
    expect(await youtube.exchangeCode("4/code", "https://tt.example/youtube")).toEqual({
      accessToken: "ya29.x",
      expiresIn: 3599,
      refreshToken: "1//rt",
      scope: "https://www.googleapis.com/auth/youtube.readonly",
    });
    const [request] = fake!.requests;
    expect(request).toMatchObject({ method: "POST", path: "/token" });
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.form).toEqual({
      grant_type: "authorization_code",
      code: "4/code",
      redirect_uri: "https://tt.example/youtube",
      client_id: "g-id",
      client_secret: "g-secret",
    });
  });

  it("refreshes with the refresh token", async () => {
    const youtube = await setup(() => ({
      status: 200,
      json: { access_token: "ya29.y", expires_in: 3599, token_type: "Bearer" },
    }));
    expect(await youtube.refresh("1//rt")).toEqual({ accessToken: "ya29.y", expiresIn: 3599 });
    expect(fake!.requests[0]?.form).toEqual({
      grant_type: "refresh_token",
      refresh_token: "1//rt",
      client_id: "g-id",
      client_secret: "g-secret",
    });
  });

  it("reports a revoked grant as rejected and a 500 as unavailable", async () => {
    const youtube = await setup(() => ({
      status: 400,
      json: { error: "invalid_grant", error_description: "Token has been expired or revoked." },
    }));
    await expect(youtube.refresh("1//old")).rejects.toMatchObject({
      provider: "youtube",
      kind: "rejected",
      reason: "invalid_grant",
    });
    fake!.setHandler(() => ({ status: 500, json: { error: "internal_failure" } }));
    await expect(youtube.refresh("1//rt")).rejects.toMatchObject({ kind: "unavailable", status: 500 });
  });
});

describe("development YouTube", () => {
  it("says YouTube is not configured", async () => {
    await expect(createDevYouTubeAuth().refresh("x")).rejects.toThrow("youtube: YouTube is not configured");
  });
});
