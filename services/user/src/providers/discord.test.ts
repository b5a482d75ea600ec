import { afterEach, describe, expect, it } from "vitest";
import { createDevDiscordAuth, createHttpDiscordAuth } from "./discord.ts";
import { startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";

describe("Discord OAuth2", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(handler: FakeHandler) {
    fake = await startFakeServer(handler);
    return createHttpDiscordAuth({
      baseUrl: fake.url,
      clientId: "disc-id",
      clientSecret: "disc-secret",
      timeoutMs: 5_000,
    });
  }

  it("exchanges a code with the client credentials in the form body", async () => {
    const discord = await setup(() => ({
      status: 200,
      json: {
        access_token: "d-at",
        token_type: "Bearer",
        expires_in: 604800,
        refresh_token: "d-rt",
        scope: "identify email",
      },
    }));
    expect(await discord.exchangeCode("the-code", "https://tt.example/auth/discord")).toEqual({
      accessToken: "d-at",
      expiresIn: 604800,
      refreshToken: "d-rt",
      scope: "identify email",
    });
    const [request] = fake!.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/v10/oauth2/token" });
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request?.form).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "https://tt.example/auth/discord",
      client_id: "disc-id",
      client_secret: "disc-secret",
    });
  });

  it("sends no redirect_uri for the activity's code exchange, which has none", async () => {
    const discord = await setup(() => ({
      status: 200,
      json: { access_token: "a", token_type: "Bearer", expires_in: 60 },
    }));
    await discord.exchangeCode("activity-code", "");
    expect(fake!.requests[0]?.form).not.toHaveProperty("redirect_uri");
  });

  it("reports a bad code as rejected with the OAuth error code", async () => {
    const discord = await setup(() => ({
      status: 400,
      json: { error: "invalid_grant", error_description: 'Invalid "code" in request.' },
    }));
    await expect(discord.exchangeCode("stale", "https://tt.example/cb")).rejects.toMatchObject({
      provider: "discord",
      kind: "rejected",
      status: 400,
      reason: "invalid_grant",
    });
  });

  it("reads the signed-in user with the bearer token", async () => {
    const discord = await setup(() => ({
      status: 200,
      json: {
        id: "80351110224678912",
        username: "nelly",
        global_name: "Nelly",
        email: "n@example.com",
        verified: true,
        avatar: "8342729096ea3675442027381ff50dfe",
      },
    }));
    expect(await discord.getUser("d-at")).toEqual({
      id: "80351110224678912",
      username: "nelly",
      globalName: "Nelly",
      email: "n@example.com",
      emailVerified: true,
      avatarUrl: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
    expect(fake!.requests[0]).toMatchObject({ method: "GET", path: "/api/v10/users/@me" });
    expect(fake!.requests[0]?.headers.authorization).toBe("Bearer d-at");
  });

  it("reports an expired token as rejected 401 and a 502 as unavailable", async () => {
    const discord = await setup(() => ({ status: 401, json: { message: "401: Unauthorized", code: 0 } }));
    await expect(discord.getUser("old")).rejects.toMatchObject({ kind: "rejected", status: 401 });
    fake!.setHandler(() => ({ status: 502, text: "" }));
    await expect(discord.getUser("d-at")).rejects.toMatchObject({
      kind: "unavailable",
      status: 502,
      reason: "HTTP 502",
    });
  });

  it("reports an answer without an id as a bad response", async () => {
    const discord = await setup(() => ({ status: 200, json: { username: "nelly" } }));
    await expect(discord.getUser("d-at")).rejects.toMatchObject({ kind: "bad-response", reason: "answer has no id" });
  });
});

describe("development Discord", () => {
  it("says Discord login is not configured", async () => {
    const discord = createDevDiscordAuth();
    await expect(discord.exchangeCode("c", "r")).rejects.toMatchObject({
      provider: "discord",
      kind: "not-configured",
      message: "discord: Discord login is not configured",
    });
    await expect(discord.getUser("t")).rejects.toThrow("Discord login is not configured");
  });
});
