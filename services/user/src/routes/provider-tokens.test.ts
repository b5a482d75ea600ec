import { randomBytes, randomUUID } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { create, fromBinary, type DescService } from "@bufbuild/protobuf";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import {
  GetServiceAppleUserTokenRequestSchema,
  type ProviderTokenService,
} from "@tt/proto/tt/user/v1/provider_token_service_pb";
import {
  ConfigError,
  eventDeclaration,
  INTERNAL_ERROR_MESSAGE,
  OutboxMessage,
  type Identity,
  type ServiceInstance,
} from "@tt/kit";
import { ProviderLinkCreatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { ProviderTokenKey } from "../modules/provider-tokens/provider-token-key.entity.ts";
import { ProviderToken } from "../modules/provider-tokens/provider-token.entity.ts";
import {
  decodeBasicAuth,
  startFakeServer,
  type FakeAnswer,
  type FakeServer,
  type RecordedRequest,
} from "../providers/testing/fake-http-server.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { fakeProvidersEnv } from "../providers/testing/fake-providers-env.ts";

// One fake stands in for every provider host; each test says how each path answers.
let fake: FakeServer;
let routes: Record<string, (request: RecordedRequest) => FakeAnswer>;
let h: UserHarness;
let dev: UserHarness;
let env: Record<string, string>;

const ok = (json: unknown): FakeAnswer => ({ status: 200, json });
const oauth = (access: string, refresh?: string, expiresIn = 3600) =>
  ok({
    access_token: access,
    token_type: "Bearer",
    expires_in: expiresIn,
    scope: "s1 s2",
    ...(refresh ? { refresh_token: refresh } : {}),
  });

beforeAll(async () => {
  fake = await startFakeServer((request) => {
    const route = routes[`${request.method} ${request.path}`];
    return route ? route(request) : { status: 404, json: { error: "not_found" } };
  });
  env = fakeProvidersEnv(fake.url);
  h = await createUserHarness(inject("databaseUrl"), env);
  dev = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
  await dev?.close();
  await fake?.close();
});

beforeEach(() => {
  routes = {};
  fake.requests.length = 0;
});

/** The ProviderTokenService implementation another instance registers (the harness's rpc is its first instance's). */
function routesOf(instance: ServiceInstance): Partial<ServiceImpl<typeof ProviderTokenService>> {
  let impl: Partial<ServiceImpl<typeof ProviderTokenService>> = {};
  const router = {
    service: (service: DescService, i: Partial<ServiceImpl<typeof ProviderTokenService>>) => {
      if (service.typeName === "tt.user.v1.ProviderTokenService") impl = i;
      return router;
    },
    rpc: () => router,
  } as unknown as ConnectRouter;
  instance.routes(router);
  return impl;
}

async function signUp(harness: UserHarness = h): Promise<Identity> {
  const res = await harness.rpc.signUp(
    { email: `${randomUUID()}@example.org`, password: "long enough", nickname: "DJ Test" },
    harness.ctx("signUp"),
  );
  return harness.identityOf(res.accessToken!.token);
}

const service: Identity = {
  tokenType: "service",
  subject: "playlist",
  role: "service",
  sessionId: randomUUID(),
  expiresAt: new Date(Date.now() + 60_000),
  token: "",
};

async function storedRow(userId: string, provider: string, variant = "web") {
  return h.orm.em.fork().findOne(ProviderToken, { user: userId, provider, variant });
}

async function expire(userId: string, provider: string, variant = "web") {
  await h.orm.em
    .fork()
    .nativeUpdate(ProviderToken, { user: userId, provider, variant }, { expiresAt: new Date(Date.now() - 1000) });
}

async function linkSpotify(user: Identity, refresh = "sp-rt") {
  routes["POST /api/token"] = () => oauth("sp-at", refresh);
  routes["GET /v1/me"] = () =>
    ok({ id: "sp-user", display_name: "Spotty", email: "spot@example.org", product: "premium" });
  return h.rpc.exchangeSpotifyCode(
    { code: "the-code", redirectUri: "https://tt.example/cb" },
    h.ctx("exchangeSpotifyCode", user),
  );
}

describe("ExchangeSpotifyCode", () => {
  it("trades the code, stores the refresh token encrypted, answers the access token with the account", async () => {
    const user = await signUp();
    const res = await linkSpotify(user);
    expect(res.token).toMatchObject({
      provider: "spotify",
      accessToken: "sp-at",
      scope: "s1 s2",
      providerUserId: "sp-user",
      providerDisplayName: "Spotty",
      product: "premium",
    });
    expect(
      JSON.stringify(res, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value)),
    ).not.toContain("sp-rt");
    const [tokenRequest, meRequest] = fake.requests;
    expect(tokenRequest?.form).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "https://tt.example/cb",
    });
    expect(decodeBasicAuth(tokenRequest?.headers.authorization)).toEqual({ user: "sp-id", password: "sp-secret" });
    expect(meRequest?.headers.authorization).toBe("Bearer sp-at");
    const row = await storedRow(user.subject, "spotify");
    expect(row?.refreshTokenEnc).toMatch(/^v1\./);
    expect(row?.refreshTokenEnc).not.toContain("sp-rt");
    expect(row?.accessTokenEnc).not.toContain("sp-at");
    expect(row?.providerEmail).toBe("spot@example.org");
    const { subject } = eventDeclaration(ProviderLinkCreatedSchema);
    const events = await h.orm.em.fork().find(OutboxMessage, { subject });
    const payloads = events.map((e) => fromBinary(ProviderLinkCreatedSchema, e.payload));
    expect(payloads).toContainEqual(
      create(ProviderLinkCreatedSchema, {
        uuid: user.subject,
        provider: "spotify",
        variant: "web",
        providerUserId: "sp-user",
        email: "spot@example.org",
      }),
    );
  });

  it("refreshes once when Spotify refuses the new token on /v1/me", async () => {
    const user = await signUp();
    routes["POST /api/token"] = (r) =>
      r.form.grant_type === "refresh_token" ? oauth("sp-at2") : oauth("sp-at1", "sp-rt");
    routes["GET /v1/me"] = (r) =>
      r.headers.authorization === "Bearer sp-at1"
        ? { status: 401, json: { error: { status: 401, message: "expired" } } }
        : ok({ id: "sp-user" });
    const res = await h.rpc.exchangeSpotifyCode(
      { code: "c", redirectUri: "https://tt.example/cb" },
      h.ctx("exchangeSpotifyCode", user),
    );
    expect(res.token?.accessToken).toBe("sp-at2");
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/token",
      "GET /v1/me",
      "POST /api/token",
      "GET /v1/me",
    ]);
    expect(fake.requests[2]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt" });
  });

  it("answers 401 when Spotify refuses the code and 503 when it fails", async () => {
    const user = await signUp();
    routes["POST /api/token"] = () => ({ status: 400, json: { error: "invalid_grant" } });
    expect(
      await connectErrorOf(
        h.rpc.exchangeSpotifyCode({ code: "bad", redirectUri: "https://x" }, h.ctx("exchangeSpotifyCode", user)),
      ),
    ).toEqual({ code: Code.Unauthenticated, message: "Spotify refused the code" });
    routes["POST /api/token"] = () => ({ status: 502, text: "bad gateway" });
    expect(
      await connectErrorOf(
        h.rpc.exchangeSpotifyCode({ code: "c", redirectUri: "https://x" }, h.ctx("exchangeSpotifyCode", user)),
      ),
    ).toEqual({ code: Code.Unavailable, message: "Spotify is not available" });
    expect(await storedRow(user.subject, "spotify")).toBeNull();
  });

  it("refuses a missing code or redirect URI with 400", async () => {
    const user = await signUp();
    expect(
      await connectErrorOf(
        h.rpc.exchangeSpotifyCode({ code: " ", redirectUri: "https://x" }, h.ctx("exchangeSpotifyCode", user)),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: "code is required" });
    expect(await connectErrorOf(h.rpc.exchangeSpotifyCode({ code: "c" }, h.ctx("exchangeSpotifyCode", user)))).toEqual({
      code: Code.InvalidArgument,
      message: "redirectUri is required",
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("RefreshSpotifyToken, GetServiceSpotifyAccessToken, DeleteSpotifyToken", () => {
  it("refreshes from the stored refresh token and keeps a rotated one", async () => {
    const user = await signUp();
    await linkSpotify(user);
    fake.requests.length = 0;
    routes["POST /api/token"] = () => oauth("sp-at-new", "sp-rt-rotated");
    const res = await h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user));
    expect(res.token).toMatchObject({ provider: "spotify", accessToken: "sp-at-new", providerUserId: "sp-user" });
    expect(fake.requests[0]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt" });
    routes["POST /api/token"] = () => oauth("sp-at-3");
    await h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user));
    expect(fake.requests[1]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sp-rt-rotated" });
  });

  it("service reads answer the stored token while valid and refresh it once expired", async () => {
    const user = await signUp();
    await linkSpotify(user);
    fake.requests.length = 0;
    const first = await h.rpc.getServiceSpotifyAccessToken(
      { id: user.subject },
      h.ctx("getServiceSpotifyAccessToken", service),
    );
    expect(first.token?.accessToken).toBe("sp-at");
    expect(fake.requests).toHaveLength(0);
    await expire(user.subject, "spotify");
    routes["POST /api/token"] = () => oauth("sp-at-fresh");
    const second = await h.rpc.getServiceSpotifyAccessToken(
      { id: user.subject },
      h.ctx("getServiceSpotifyAccessToken", service),
    );
    expect(second.token?.accessToken).toBe("sp-at-fresh");
    expect(timestampDate(second.token!.expiresAt!).getTime()).toBeGreaterThan(Date.now());
    expect(fake.requests.map((r) => r.form.grant_type)).toEqual(["refresh_token"]);
  });

  it("forceRefresh refreshes a token that has not expired (the provider refused it, spec 002 §8)", async () => {
    const user = await signUp();
    await linkSpotify(user);
    fake.requests.length = 0;
    routes["POST /api/token"] = () => oauth("sp-at-forced");
    const forced = await h.rpc.getServiceSpotifyAccessToken(
      { id: user.subject, forceRefresh: true },
      h.ctx("getServiceSpotifyAccessToken", service),
    );
    expect(forced.token?.accessToken).toBe("sp-at-forced");
    expect(fake.requests.map((r) => r.form.grant_type)).toEqual(["refresh_token"]);
  });

  it("drops the link with 401 when Spotify refuses the refresh token", async () => {
    const user = await signUp();
    await linkSpotify(user);
    routes["POST /api/token"] = () => ({ status: 400, json: { error: "invalid_grant" } });
    expect(await connectErrorOf(h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)))).toEqual({
      code: Code.Unauthenticated,
      message: "Spotify refused the stored refresh token: connect again",
    });
    expect(await storedRow(user.subject, "spotify")).toBeNull();
    expect(await connectErrorOf(h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)))).toEqual({
      code: Code.NotFound,
      message: "no Spotify account is linked",
    });
  });

  it("keeps the link when Spotify refuses our client or is down", async () => {
    const user = await signUp();
    await linkSpotify(user);
    routes["POST /api/token"] = () => ({ status: 401, json: { error: "invalid_client" } });
    expect((await connectErrorOf(h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)))).code).toBe(
      Code.Unavailable,
    );
    routes["POST /api/token"] = () => ({ status: 503, text: "" });
    expect(await connectErrorOf(h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)))).toEqual({
      code: Code.Unavailable,
      message: "Spotify is not available",
    });
    expect(await storedRow(user.subject, "spotify")).not.toBeNull();
  });

  it("two concurrent refreshes use the rotated refresh token in turn", async () => {
    const user = await signUp();
    await linkSpotify(user, "rt-0");
    fake.requests.length = 0;
    let n = 0;
    routes["POST /api/token"] = (r) =>
      r.form.refresh_token === `rt-${n}`
        ? oauth(`at-${++n}`, `rt-${n}`)
        : { status: 400, json: { error: "invalid_grant" } };
    const answers = await Promise.all([
      h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)),
      h.rpc.refreshSpotifyToken({}, h.ctx("refreshSpotifyToken", user)),
    ]);
    expect(answers.map((a) => a.token?.accessToken).sort()).toEqual(["at-1", "at-2"]);
    expect(fake.requests.map((r) => r.form.refresh_token)).toEqual(["rt-0", "rt-1"]);
  });

  it("404 for a user with no link, 400 for a malformed uuid", async () => {
    expect(
      await connectErrorOf(
        h.rpc.getServiceSpotifyAccessToken({ id: randomUUID() }, h.ctx("getServiceSpotifyAccessToken", service)),
      ),
    ).toEqual({ code: Code.NotFound, message: "no Spotify account is linked" });
    expect(
      await connectErrorOf(
        h.rpc.getServiceSpotifyAccessToken({ id: "nope" }, h.ctx("getServiceSpotifyAccessToken", service)),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: "id must be a uuid" });
  });

  it("DeleteSpotifyToken forgets the tokens, and changes nothing when nothing is linked", async () => {
    const user = await signUp();
    await linkSpotify(user);
    await h.rpc.deleteSpotifyToken({}, h.ctx("deleteSpotifyToken", user));
    expect(await storedRow(user.subject, "spotify")).toBeNull();
    expect(await h.rpc.deleteSpotifyToken({}, h.ctx("deleteSpotifyToken", user))).toEqual(expect.objectContaining({}));
    expect(
      await connectErrorOf(
        h.rpc.getServiceSpotifyAccessToken({ id: user.subject }, h.ctx("getServiceSpotifyAccessToken", service)),
      ),
    ).toMatchObject({ code: Code.NotFound });
  });
});

describe("YouTube", () => {
  it("exchanges the code with the client credentials in the form and refreshes", async () => {
    const user = await signUp();
    routes["POST /token"] = (r) =>
      r.form.grant_type === "authorization_code" ? oauth("yt-at", "yt-rt") : oauth("yt-at2");
    const linked = await h.rpc.exchangeYouTubeCode(
      { code: "yc", redirectUri: "https://tt.example/yt" },
      h.ctx("exchangeYouTubeCode", user),
    );
    expect(linked.token).toMatchObject({ provider: "youtube", accessToken: "yt-at" });
    expect(fake.requests[0]?.form).toEqual({
      grant_type: "authorization_code",
      code: "yc",
      redirect_uri: "https://tt.example/yt",
      client_id: "g-id",
      client_secret: "g-secret",
    });
    const refreshed = await h.rpc.refreshYouTubeToken({}, h.ctx("refreshYouTubeToken", user));
    expect(refreshed.token?.accessToken).toBe("yt-at2");
    expect(fake.requests[1]?.form).toMatchObject({ grant_type: "refresh_token", refresh_token: "yt-rt" });
  });

  it("401 when Google refuses the code, 404 refreshing with no link", async () => {
    const user = await signUp();
    routes["POST /token"] = () => ({ status: 400, json: { error: "invalid_grant" } });
    expect(
      await connectErrorOf(
        h.rpc.exchangeYouTubeCode({ code: "x", redirectUri: "https://x" }, h.ctx("exchangeYouTubeCode", user)),
      ),
    ).toEqual({ code: Code.Unauthenticated, message: "YouTube refused the code" });
    expect(await connectErrorOf(h.rpc.refreshYouTubeToken({}, h.ctx("refreshYouTubeToken", user)))).toEqual({
      code: Code.NotFound,
      message: "no YouTube account is linked",
    });
  });
});

describe("SoundCloud", () => {
  it("stores a refresh token the client hands in, per app, and answers only access tokens", async () => {
    const user = await signUp();
    routes["POST /oauth2/token"] = (r) => oauth(`sc-at-${r.form.refresh_token}`, `${r.form.refresh_token}-next`);
    const web = await h.rpc.refreshSoundCloudToken(
      { refreshToken: "client-rt" },
      h.ctx("refreshSoundCloudToken", user),
    );
    expect(web.token).toMatchObject({ provider: "soundcloud", accessToken: "sc-at-client-rt" });
    expect(decodeBasicAuth(fake.requests[0]?.headers.authorization)?.user).toBe("sc-web");
    const mobile = await h.rpc.refreshSoundCloudMobileToken(
      { refreshToken: "mobile-rt" },
      h.ctx("refreshSoundCloudMobileToken", user),
    );
    expect(mobile.token?.accessToken).toBe("sc-at-mobile-rt");
    expect(decodeBasicAuth(fake.requests[1]?.headers.authorization)?.user).toBe("sc-mobile");
    // Without one, the stored (rotated) refresh token of that app is used.
    await h.rpc.refreshSoundCloudToken({}, h.ctx("refreshSoundCloudToken", user));
    expect(fake.requests[2]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "client-rt-next" });
    await h.rpc.refreshSoundCloudMobileToken({}, h.ctx("refreshSoundCloudMobileToken", user));
    expect(fake.requests[3]?.form.refresh_token).toBe("mobile-rt-next");
  });

  it("GetSoundCloudAccessToken: own uuid or a service; 403 for another user's; refreshed when expired", async () => {
    const user = await signUp();
    const other = await signUp();
    routes["POST /oauth2/token"] = () => oauth("sc-at", "sc-rt");
    await h.rpc.refreshSoundCloudToken({ refreshToken: "rt" }, h.ctx("refreshSoundCloudToken", user));
    fake.requests.length = 0;
    expect(
      (await h.rpc.getSoundCloudAccessToken({ id: user.subject }, h.ctx("getSoundCloudAccessToken", user))).token
        ?.accessToken,
    ).toBe("sc-at");
    expect(fake.requests).toHaveLength(0);
    expect(
      await connectErrorOf(
        h.rpc.getSoundCloudAccessToken({ id: user.subject }, h.ctx("getSoundCloudAccessToken", other)),
      ),
    ).toEqual({ code: Code.PermissionDenied, message: "a user may read only their own SoundCloud token" });
    await expire(user.subject, "soundcloud");
    routes["POST /oauth2/token"] = () => oauth("sc-at-2", "sc-rt-2");
    expect(
      (await h.rpc.getSoundCloudAccessToken({ id: user.subject }, h.ctx("getSoundCloudAccessToken", service))).token
        ?.accessToken,
    ).toBe("sc-at-2");
    expect(fake.requests[0]?.form).toEqual({ grant_type: "refresh_token", refresh_token: "sc-rt" });
    expect(
      await connectErrorOf(
        h.rpc.getSoundCloudAccessToken({ id: user.subject, mobile: true }, h.ctx("getSoundCloudAccessToken", user)),
      ),
    ).toEqual({ code: Code.NotFound, message: "no SoundCloud account is linked" });
  });

  it("401 when SoundCloud refuses a client's refresh token", async () => {
    const user = await signUp();
    routes["POST /oauth2/token"] = () => ({ status: 401, json: { error: "invalid_grant" } });
    expect(
      await connectErrorOf(
        h.rpc.refreshSoundCloudToken({ refreshToken: "dead" }, h.ctx("refreshSoundCloudToken", user)),
      ),
    ).toEqual({ code: Code.Unauthenticated, message: "SoundCloud refused the refresh token" });
    expect(await connectErrorOf(h.rpc.refreshSoundCloudToken({}, h.ctx("refreshSoundCloudToken", user)))).toEqual({
      code: Code.NotFound,
      message: "no SoundCloud account is linked",
    });
  });

  it("public tokens come from the client-credentials grant of each app, cached", async () => {
    routes["POST /oauth2/token"] = (r) => oauth(`public-${decodeBasicAuth(r.headers.authorization)?.user}`);
    const guest: Identity = { ...service, tokenType: "guest", role: "guest", subject: randomUUID() };
    const web = await h.rpc.getSoundCloudPublicToken({}, h.ctx("getSoundCloudPublicToken", guest));
    expect(web.token).toMatchObject({ provider: "soundcloud", accessToken: "public-sc-web" });
    await h.rpc.getSoundCloudPublicToken({}, h.ctx("getSoundCloudPublicToken", guest));
    const mobile = await h.rpc.getSoundCloudMobilePublicToken({}, h.ctx("getSoundCloudMobilePublicToken", guest));
    expect(mobile.token?.accessToken).toBe("public-sc-mobile");
    expect(fake.requests.map((r) => r.form.grant_type)).toEqual(["client_credentials", "client_credentials"]);
  });
});

describe("Apple Music", () => {
  it("saves the Music User Token and answers it with a signed developer token; services read any user's", async () => {
    const user = await signUp();
    const saved = await h.rpc.saveAppleUserToken({ musicUserToken: "mut-1" }, h.ctx("saveAppleUserToken", user));
    expect(saved.token).toMatchObject({ provider: "apple", accessToken: "mut-1" });
    expect(saved.token?.expiresAt).toBeUndefined();
    const mine = await h.rpc.getAppleUserToken({}, h.ctx("getAppleUserToken", user));
    expect(mine.userToken?.accessToken).toBe("mut-1");
    expect(decodeProtectedHeader(mine.developerToken)).toMatchObject({ alg: "ES256", kid: "KEY1234567" });
    expect(decodeJwt(mine.developerToken).iss).toBe("TEAM123456");
    await h.rpc.saveAppleUserToken({ musicUserToken: "mut-2" }, h.ctx("saveAppleUserToken", user));
    const theirs = await h.rpc.getServiceAppleUserToken(
      { id: user.subject },
      h.ctx("getServiceAppleUserToken", service),
    );
    expect(theirs.userToken?.accessToken).toBe("mut-2");
    expect((await storedRow(user.subject, "apple"))?.accessTokenEnc).not.toContain("mut-2");
  });

  it("no stored token: absent for the user, 404 for services; empty token 400", async () => {
    const user = await signUp();
    expect((await h.rpc.getAppleUserToken({}, h.ctx("getAppleUserToken", user))).userToken).toBeUndefined();
    expect(
      await connectErrorOf(
        h.rpc.getServiceAppleUserToken({ id: user.subject }, h.ctx("getServiceAppleUserToken", service)),
      ),
    ).toEqual({ code: Code.NotFound, message: "no Apple Music user token is stored for this user" });
    expect(
      await connectErrorOf(h.rpc.saveAppleUserToken({ musicUserToken: "" }, h.ctx("saveAppleUserToken", user))),
    ).toEqual({ code: Code.InvalidArgument, message: "musicUserToken is required" });
  });
  it("a token stored under another PROVIDER_TOKEN_KEY fails as a server fault, never as someone's token", async () => {
    const user = await signUp();
    await h.rpc.saveAppleUserToken({ musicUserToken: "mut-key-1" }, h.ctx("saveAppleUserToken", user));
    const rotated = await h.createInstance({ ...env, PROVIDER_TOKEN_KEY: randomBytes(32).toString("base64") });
    const read = routesOf(rotated).getServiceAppleUserToken!(
      create(GetServiceAppleUserTokenRequestSchema, { id: user.subject }),
      h.ctx("getServiceAppleUserToken", service),
    );
    expect(await connectErrorOf(read)).toEqual({ code: Code.Internal, message: INTERNAL_ERROR_MESSAGE });
  });
});

describe("Agora", () => {
  it("signs an RTC token for the caller's uuid on the channel", async () => {
    const user = await signUp();
    const channel = randomUUID();
    const res = await h.rpc.createAgoraToken(
      { channel, role: "PUBLISHER", ttlSeconds: 600 },
      h.ctx("createAgoraToken", user),
    );
    expect(res).toMatchObject({ appId: "0123456789abcdef0123456789abcdef", uid: user.subject, channel });
    expect(res.token).toMatch(/^007/);
    const lifetime = timestampDate(res.expiresAt!).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(590_000);
    expect(lifetime).toBeLessThanOrEqual(600_000);
  });

  it("refuses an empty channel, another role, a lifetime out of range with 400", async () => {
    const user = await signUp();
    const call = (req: { channel?: string; role?: string; ttlSeconds?: number }) =>
      connectErrorOf(h.rpc.createAgoraToken(req, h.ctx("createAgoraToken", user)));
    expect(await call({ role: "PUBLISHER" })).toEqual({ code: Code.InvalidArgument, message: "channel is required" });
    expect(await call({ channel: "c", role: "ADMIN" })).toEqual({
      code: Code.InvalidArgument,
      message: "role must be PUBLISHER or SUBSCRIBER",
    });
    expect(await call({ channel: "c", role: "SUBSCRIBER", ttlSeconds: 86401 })).toEqual({
      code: Code.InvalidArgument,
      message: "ttlSeconds must be from 60 to 86400",
    });
    expect((await call({ channel: "no/slash", role: "SUBSCRIBER" })).code).toBe(Code.InvalidArgument);
  });
});

describe("CometChat", () => {
  it("creates the chat user on first use, then answers its token", async () => {
    const user = await signUp();
    let exists = false;
    routes[`POST /v3/users/${user.subject}/auth_tokens`] = () =>
      exists
        ? ok({ data: { uid: user.subject, authToken: "cc-token" } })
        : { status: 404, json: { error: { code: "ERR_UID_NOT_FOUND" } } };
    routes["POST /v3/users"] = () => ((exists = true), ok({ data: {} }));
    const res = await h.rpc.getCometChatUserToken({}, h.ctx("getCometChatUserToken", user));
    expect(res).toEqual(expect.objectContaining({ uid: user.subject, authToken: "cc-token" }));
    expect(fake.requests[1]?.json).toEqual({ uid: user.subject, name: "DJ Test" });
    expect(fake.requests[1]?.headers).toMatchObject({ appid: "cc-app", apikey: "cc-key" });
    fake.requests.length = 0;
    await h.rpc.getCometChatUserToken({}, h.ctx("getCometChatUserToken", user));
    expect(fake.requests).toHaveLength(1);
  });

  it("the ghost token, and 503 when CometChat is down", async () => {
    routes["POST /v3/users/tt-ghost/auth_tokens"] = () => ok({ data: { authToken: "ghost-token" } });
    routes["POST /v3/users"] = () => ({ status: 500, text: "" });
    expect(await connectErrorOf(h.rpc.getCometChatGhostToken({}, h.ctx("getCometChatGhostToken", service)))).toEqual({
      code: Code.Unavailable,
      message: "Chat (CometChat) is not available",
    });
    routes["POST /v3/users"] = () => ok({ data: {} });
    expect(await h.rpc.getCometChatGhostToken({}, h.ctx("getCometChatGhostToken", service))).toEqual(
      expect.objectContaining({ uid: "tt-ghost", authToken: "ghost-token" }),
    );
  });

  it("CreateCometChatUsers creates known accounts, reports existing and unknown ones; 400 over 100", async () => {
    const a = await signUp();
    const b = await signUp();
    const unknown = randomUUID();
    routes["POST /v3/users"] = (r) =>
      (r.json as { uid: string }).uid === b.subject
        ? { status: 400, json: { error: { code: "ERR_UID_ALREADY_EXISTS" } } }
        : ok({ data: {} });
    const res = await h.rpc.createCometChatUsers(
      { uuids: [a.subject, b.subject, unknown] },
      h.ctx("createCometChatUsers", service),
    );
    expect(res).toEqual(expect.objectContaining({ created: [a.subject], existing: [b.subject], unknown: [unknown] }));
    const many = Array.from({ length: 101 }, () => randomUUID());
    expect(
      await connectErrorOf(h.rpc.createCometChatUsers({ uuids: many }, h.ctx("createCometChatUsers", service))),
    ).toEqual({ code: Code.InvalidArgument, message: "uuids must list 1 to 100 users" });
    expect(
      await connectErrorOf(h.rpc.createCometChatUsers({ uuids: ["x"] }, h.ctx("createCometChatUsers", service))),
    ).toEqual({ code: Code.InvalidArgument, message: "uuids must be a uuid" });
  });
});

describe("GetUserServiceStatus", () => {
  it("answers version, start, database and bus state, and provider modes", async () => {
    const res = await h.rpc.getUserServiceStatus({}, h.ctx("getUserServiceStatus", service));
    expect(res).toMatchObject({ service: "user-service", version: "1.8.0", databaseOk: true, busOk: true });
    expect(timestampDate(res.startedAt!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(res.providers).toEqual({
      email: "dev",
      sms: "dev",
      phoneValidation: "dev",
      discord: "unconfigured",
      spotify: "http",
      soundcloud: "http",
      youtube: "http",
      apple: "http",
      agora: "http",
      cometChat: "http",
    });
    const devStatus = await dev.rpc.getUserServiceStatus({}, dev.ctx("getUserServiceStatus", service));
    expect(devStatus.providers.spotify).toBe("unconfigured");
  });
});

describe("development mode (no credentials)", () => {
  it("answers 412 not configured for each provider", async () => {
    const user = await signUp(dev);
    const expectNotConfigured = async (call: Promise<unknown>, what: string) =>
      expect(await connectErrorOf(call)).toEqual({
        code: Code.FailedPrecondition,
        message: `${what} is not configured`,
      });
    await expectNotConfigured(
      dev.rpc.exchangeSpotifyCode({ code: "c", redirectUri: "https://x" }, dev.ctx("exchangeSpotifyCode", user)),
      "Spotify",
    );
    await expectNotConfigured(
      dev.rpc.exchangeYouTubeCode({ code: "c", redirectUri: "https://x" }, dev.ctx("exchangeYouTubeCode", user)),
      "YouTube",
    );
    await expectNotConfigured(
      dev.rpc.getSoundCloudPublicToken({}, dev.ctx("getSoundCloudPublicToken", user)),
      "SoundCloud",
    );
    await expectNotConfigured(dev.rpc.getAppleUserToken({}, dev.ctx("getAppleUserToken", user)), "Apple Music");
    await expectNotConfigured(
      dev.rpc.createAgoraToken({ channel: "c", role: "PUBLISHER" }, dev.ctx("createAgoraToken", user)),
      "Voice and video (Agora)",
    );
    await expectNotConfigured(
      dev.rpc.getCometChatGhostToken({}, dev.ctx("getCometChatGhostToken", user)),
      "Chat (CometChat)",
    );
  });

  it("encrypts with a generated key stored in the database, shared by a second instance", async () => {
    const user = await signUp(dev);
    await dev.rpc.saveAppleUserToken({ musicUserToken: "dev-mut" }, dev.ctx("saveAppleUserToken", user));
    const keys = await dev.orm.em.fork().find(ProviderTokenKey, {});
    expect(keys).toHaveLength(1);
    expect(Buffer.from(keys[0]!.key, "base64")).toHaveLength(32);
    const row = await dev.orm.em.fork().findOneOrFail(ProviderToken, { user: user.subject, provider: "apple" });
    expect(row.accessTokenEnc).not.toContain("dev-mut");
    // Reading it back through the service proves it decrypts; the service reads (no dev token) answers 412.
    expect(
      await connectErrorOf(
        dev.rpc.getServiceAppleUserToken({ id: user.subject }, dev.ctx("getServiceAppleUserToken", service)),
      ),
    ).toMatchObject({ code: Code.FailedPrecondition });
  });

  it("a malformed PROVIDER_TOKEN_KEY stops the service at start, naming the variable", async () => {
    const started = dev.createInstance({ PROVIDER_TOKEN_KEY: "c2hvcnQ=" });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/PROVIDER_TOKEN_KEY/);
  });
});
