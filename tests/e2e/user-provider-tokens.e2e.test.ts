// The provider-token paths of the user service over REST through the gateway, with every outside provider a
// local fake that records what it was sent: each path's success and each documented error.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  decodeBasicAuth,
  startFakeServer,
  type FakeAnswer,
  type FakeServer,
  type RecordedRequest,
} from "@tt/user-service/testing/fake-http-server";
import { fakeProvidersEnv } from "@tt/user-service/testing/fake-providers-env";
import { startTestPlatform, u, type Answer, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let fake: FakeServer;
let routes: Record<string, (request: RecordedRequest) => FakeAnswer>;
let user: { uuid: string; token: string };
let other: { uuid: string; token: string };
let serviceToken: string;
let guestToken: string;
let adminToken: string;

const ok = (json: unknown): FakeAnswer => ({ status: 200, json });
const oauth = (access: string, refresh?: string): FakeAnswer =>
  ok({ access_token: access, token_type: "Bearer", expires_in: 3600, ...(refresh ? { refresh_token: refresh } : {}) });
const down: FakeAnswer = { status: 503, text: "" };
const invalidGrant: FakeAnswer = { status: 400, json: { error: "invalid_grant" } };

beforeAll(async () => {
  fake = await startFakeServer((request) => {
    const route = routes[`${request.method} ${request.path}`];
    return route ? route(request) : { status: 404, json: { error: "not_found" } };
  });
  platform = await startTestPlatform({ env: fakeProvidersEnv(fake.url) });
  const a = await platform.signUp();
  const b = await platform.signUp();
  user = { uuid: a.user.uuid, token: a.token };
  other = { uuid: b.user.uuid, token: b.token };
  serviceToken = await platform.serviceToken("playlist");
  guestToken = await platform.craft({ typ: "guest", role: "guest" });
  adminToken = await platform.adminToken();
});

afterAll(async () => {
  await platform?.close();
  await fake?.close();
});

beforeEach(() => {
  routes = {};
  fake.requests.length = 0;
});

function expectError(res: Answer, status: number, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

const post = (path: string, token: string, body: unknown = {}) => platform.call("POST", u(path), { token, body });
const get = (path: string, token?: string) => platform.call("GET", u(path), token === undefined ? {} : { token });

describe("POST /agora/token", () => {
  it("signs a token for the caller on the room's channel", async () => {
    const channel = randomUUID();
    const res = await post("/agora/token", user.token, { channel, role: "SUBSCRIBER" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ appId: "0123456789abcdef0123456789abcdef", uid: user.uuid, channel });
    expect(res.body.token).toMatch(/^007/);
  });

  it("400 for an empty channel or another role", async () => {
    expectError(await post("/agora/token", user.token, { role: "PUBLISHER" }), 400, "channel is required");
    expectError(
      await post("/agora/token", user.token, { channel: "c", role: "HOST" }),
      400,
      "role must be PUBLISHER or SUBSCRIBER",
    );
  });
});

describe("Apple Music", () => {
  it("POST, GET /apple/user-token and the service read GET /apple/user-token/{id}", async () => {
    const saved = await post("/apple/user-token", user.token, { musicUserToken: "mut" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ provider: "apple", accessToken: "mut" });
    const mine = await get("/apple/user-token", user.token);
    expect(mine.status).toBe(200);
    expect(mine.body.userToken).toMatchObject({ accessToken: "mut" });
    expect(typeof mine.body.developerToken).toBe("string");
    const theirs = await get(`/apple/user-token/${user.uuid}`, serviceToken);
    expect(theirs.status).toBe(200);
    expect(theirs.body.userToken).toMatchObject({ provider: "apple", accessToken: "mut" });
  });

  it("400 for an empty token; 404 when the user stored none", async () => {
    expectError(await post("/apple/user-token", user.token, { musicUserToken: "" }), 400, "musicUserToken is required");
    expectError(
      await get(`/apple/user-token/${other.uuid}`, serviceToken),
      404,
      "no Apple Music user token is stored for this user",
    );
  });
});

describe("SoundCloud", () => {
  it("GET /soundcloud/public-token: 503 while SoundCloud is down, then the app token for guests", async () => {
    routes["POST /oauth2/token"] = () => down;
    expectError(await get("/soundcloud/public-token", guestToken), 503, "SoundCloud is not available");
    routes["POST /oauth2/token"] = () => oauth("public-web");
    const res = await get("/soundcloud/public-token", guestToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "soundcloud", accessToken: "public-web" });
    expect(fake.requests.at(-1)?.form).toEqual({ grant_type: "client_credentials" });
  });

  it("GET /soundcloud/mobile/public-token uses the mobile app", async () => {
    routes["POST /oauth2/token"] = () => oauth("public-mobile");
    const res = await get("/soundcloud/mobile/public-token", guestToken);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe("public-mobile");
    expect(decodeBasicAuth(fake.requests[0]?.headers.authorization)?.user).toBe("sc-mobile");
  });

  it("POST /soundcloud/refresh-token: 404 unlinked, 200 with a client's token, 401 refused, 503 down", async () => {
    expectError(await post("/soundcloud/refresh-token", other.token), 404, "no SoundCloud account is linked");
    routes["POST /oauth2/token"] = () => oauth("sc-at", "sc-rt-2");
    const res = await post("/soundcloud/refresh-token", other.token, { refreshToken: "sc-rt-1" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "soundcloud", accessToken: "sc-at" });
    expect(JSON.stringify(res.body)).not.toContain("sc-rt");
    expect(fake.requests[0]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sc-rt-1" });
    routes["POST /oauth2/token"] = () => down;
    expectError(await post("/soundcloud/refresh-token", other.token), 503, "SoundCloud is not available");
    routes["POST /oauth2/token"] = () => invalidGrant;
    expectError(
      await post("/soundcloud/refresh-token", other.token),
      401,
      "SoundCloud refused the stored refresh token: connect again",
    );
    expectError(await post("/soundcloud/refresh-token", other.token), 404);
  });

  it("POST /soundcloud/mobile/refresh-token: 200 with the mobile app, 404 unlinked", async () => {
    expectError(await post("/soundcloud/mobile/refresh-token", user.token), 404, "no SoundCloud account is linked");
    routes["POST /oauth2/token"] = () => oauth("sc-mobile-at", "sc-mobile-rt");
    const res = await post("/soundcloud/mobile/refresh-token", user.token, { refreshToken: "given" });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe("sc-mobile-at");
    expect(decodeBasicAuth(fake.requests[0]?.headers.authorization)?.user).toBe("sc-mobile");
  });

  it("GET /soundcloud/access-token/{id}: own or service 200, another user's 403, unlinked 404", async () => {
    routes["POST /oauth2/token"] = () => oauth("sc-web-at", "sc-web-rt");
    expect((await post("/soundcloud/refresh-token", user.token, { refreshToken: "x" })).status).toBe(200);
    const own = await get(`/soundcloud/access-token/${user.uuid}`, user.token);
    expect(own.status).toBe(200);
    expect(own.body.accessToken).toBe("sc-web-at");
    const mobile = await get(`/soundcloud/access-token/${user.uuid}?mobile=true`, serviceToken);
    expect(mobile.status).toBe(200);
    expect(mobile.body.accessToken).toBe("sc-mobile-at");
    expectError(
      await get(`/soundcloud/access-token/${user.uuid}`, other.token),
      403,
      "a user may read only their own SoundCloud token",
    );
    expectError(
      await get(`/soundcloud/access-token/${other.uuid}`, other.token),
      404,
      "no SoundCloud account is linked",
    );
    expectError(await get(`/soundcloud/access-token/not-a-uuid`, serviceToken), 400, "id must be a uuid");
  });
});

describe("Spotify", () => {
  it("POST /spotify/exchange-code: 401 refused, 503 down, 200 linked", async () => {
    routes["POST /api/token"] = () => invalidGrant;
    expectError(
      await post("/spotify/exchange-code", user.token, { code: "bad", redirectUri: "https://tt.example/cb" }),
      401,
      "Spotify refused the code",
    );
    routes["POST /api/token"] = () => down;
    expectError(
      await post("/spotify/exchange-code", user.token, { code: "c", redirectUri: "https://tt.example/cb" }),
      503,
      "Spotify is not available",
    );
    routes["POST /api/token"] = () => oauth("sp-at", "sp-rt");
    routes["GET /v1/me"] = () => ok({ id: "sp-user", email: "sp@example.org", product: "premium" });
    const res = await post("/spotify/exchange-code", user.token, {
      code: "good",
      redirectUri: "https://tt.example/cb",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: "spotify",
      accessToken: "sp-at",
      providerUserId: "sp-user",
      product: "premium",
    });
    expect(JSON.stringify(res.body)).not.toContain("sp-rt");
    expect(fake.requests.at(-2)?.form).toEqual({
      grant_type: "authorization_code",
      code: "good",
      redirect_uri: "https://tt.example/cb",
    });
  });

  it("POST /spotify/refresh-token: 404 unlinked, 200, 503 down", async () => {
    expectError(await post("/spotify/refresh-token", other.token), 404, "no Spotify account is linked");
    routes["POST /api/token"] = () => oauth("sp-at-2");
    const res = await post("/spotify/refresh-token", user.token);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe("sp-at-2");
    expect(fake.requests[0]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt" });
    routes["POST /api/token"] = () => down;
    expectError(await post("/spotify/refresh-token", user.token), 503, "Spotify is not available");
  });

  it("GET /spotify/access-token/{id}/service: 200 for a service, 404 unlinked", async () => {
    const res = await get(`/spotify/access-token/${user.uuid}/service`, serviceToken);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe("sp-at-2");
    expect(fake.requests).toHaveLength(0);
    expectError(
      await get(`/spotify/access-token/${other.uuid}/service`, serviceToken),
      404,
      "no Spotify account is linked",
    );
  });

  it("POST /spotify/refresh-token 401 drops the link; DELETE /spotify/refresh-token forgets it", async () => {
    routes["POST /api/token"] = () => invalidGrant;
    expectError(
      await post("/spotify/refresh-token", user.token),
      401,
      "Spotify refused the stored refresh token: connect again",
    );
    expectError(await get(`/spotify/access-token/${user.uuid}/service`, serviceToken), 404);
    routes["POST /api/token"] = () => oauth("sp-at", "sp-rt");
    routes["GET /v1/me"] = () => ok({ id: "sp-user" });
    expect((await post("/spotify/exchange-code", user.token, { code: "c", redirectUri: "https://x" })).status).toBe(
      200,
    );
    const deleted = await platform.call("DELETE", u("/spotify/refresh-token"), { token: user.token });
    expect(deleted.status).toBe(200);
    expectError(await get(`/spotify/access-token/${user.uuid}/service`, serviceToken), 404);
    expect((await platform.call("DELETE", u("/spotify/refresh-token"), { token: user.token })).status).toBe(200);
  });
});

describe("YouTube", () => {
  it("POST /youtube/exchange-code: 401 refused, 503 down, 200 linked", async () => {
    routes["POST /token"] = () => invalidGrant;
    expectError(
      await post("/youtube/exchange-code", user.token, { code: "bad", redirectUri: "https://x" }),
      401,
      "YouTube refused the code",
    );
    routes["POST /token"] = () => down;
    expectError(
      await post("/youtube/exchange-code", user.token, { code: "c", redirectUri: "https://x" }),
      503,
      "YouTube is not available",
    );
    routes["POST /token"] = () => oauth("yt-at", "yt-rt");
    const res = await post("/youtube/exchange-code", user.token, { code: "c", redirectUri: "https://x" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "youtube", accessToken: "yt-at" });
    expect(fake.requests.at(-1)?.form).toMatchObject({ client_id: "g-id", client_secret: "g-secret" });
  });

  it("POST /youtube/refresh-token: 404 unlinked, 200, 503 down, 401 refused", async () => {
    expectError(await post("/youtube/refresh-token", other.token), 404, "no YouTube account is linked");
    routes["POST /token"] = () => oauth("yt-at-2");
    const res = await post("/youtube/refresh-token", user.token);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe("yt-at-2");
    expect(fake.requests[0]?.form).toMatchObject({ grant_type: "refresh_token", refresh_token: "yt-rt" });
    routes["POST /token"] = () => down;
    expectError(await post("/youtube/refresh-token", user.token), 503, "YouTube is not available");
    routes["POST /token"] = () => invalidGrant;
    expectError(
      await post("/youtube/refresh-token", user.token),
      401,
      "YouTube refused the stored refresh token: connect again",
    );
  });
});

describe("CometChat", () => {
  it("GET /comet-chat/user-token: 503 down, then 200", async () => {
    routes[`POST /v3/users/${user.uuid}/auth_tokens`] = () => down;
    expectError(await get("/comet-chat/user-token", user.token), 503, "Chat (CometChat) is not available");
    routes[`POST /v3/users/${user.uuid}/auth_tokens`] = () => ok({ data: { authToken: "cc-user" } });
    const res = await get("/comet-chat/user-token", user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ uid: user.uuid, authToken: "cc-user" });
    expect(fake.requests.at(-1)?.headers).toMatchObject({ appid: "cc-app", apikey: "cc-key" });
  });

  it("GET /comet-chat/ghost-token: 503 down, then 200 for a guest", async () => {
    routes["POST /v3/users"] = () => down;
    expectError(await get("/comet-chat/ghost-token", guestToken), 503, "Chat (CometChat) is not available");
    routes["POST /v3/users"] = () => ok({ data: {} });
    routes["POST /v3/users/tt-ghost/auth_tokens"] = () => ok({ data: { authToken: "cc-ghost" } });
    const res = await get("/comet-chat/ghost-token", guestToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ uid: "tt-ghost", authToken: "cc-ghost" });
  });

  it("POST /comet-chat/create-users: 200 for admins, 400 over 100 uuids, 503 down", async () => {
    const unknown = randomUUID();
    routes["POST /v3/users"] = () => ok({ data: {} });
    const res = await post("/comet-chat/create-users", adminToken, { uuids: [other.uuid, unknown] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: [other.uuid], existing: [], unknown: [unknown] });
    expect(fake.requests[0]?.json).toMatchObject({ uid: other.uuid });
    const many = Array.from({ length: 101 }, () => randomUUID());
    expectError(
      await post("/comet-chat/create-users", serviceToken, { uuids: many }),
      400,
      "uuids must list 1 to 100 users",
    );
    routes["POST /v3/users"] = () => down;
    expectError(
      await post("/comet-chat/create-users", adminToken, { uuids: [other.uuid] }),
      503,
      "Chat (CometChat) is not available",
    );
  });
});

describe("GET /info-admin/user-service-status", () => {
  it("answers the admin the version, database, bus and provider modes", async () => {
    const res = await get("/info-admin/user-service-status", adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      service: "user-service",
      version: "1.8.0",
      databaseOk: true,
      busOk: true,
      providers: { spotify: "http", email: "dev", discord: "unconfigured", cometChat: "http" },
    });
    expectError(await get("/info-admin/user-service-status", user.token), 401);
  });
});
