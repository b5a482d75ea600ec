import { afterEach, describe, expect, it } from "vitest";
import { requestJson } from "./provider-http.ts";
import { createDevSoundCloudAuth, createHttpSoundCloudAuth, type HttpSoundCloudAuthOptions } from "./soundcloud.ts";
import { decodeBasicAuth, startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";

describe("SoundCloud", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  let clock = Date.parse("2026-03-01T12:00:00Z");
  async function setup(handler: FakeHandler, extra: Partial<HttpSoundCloudAuthOptions> = {}) {
    clock = Date.parse("2026-03-01T12:00:00Z");
    fake = await startFakeServer(handler);
    return createHttpSoundCloudAuth({
      baseUrl: fake.url,
      web: { clientId: "sc-web", clientSecret: "web-secret" },
      mobile: { clientId: "sc-mobile", clientSecret: "mobile-secret" },
      timeoutMs: 5_000,
      now: () => clock,
      ...extra,
    });
  }

  // Each client-credentials grant answers a new token, numbered, so tests see when one was fetched.
  const issuing = (expiresIn = 3600): FakeHandler => {
    let issued = 0;
    return (request) =>
      request.path === "/oauth2/token"
        ? {
            status: 200,
            json: {
              access_token: `${decodeBasicAuth(request.headers.authorization)?.user}-${++issued}`,
              expires_in: expiresIn,
            },
          }
        : { status: 404, text: "" };
  };

  it("gets a public token with the client-credentials grant and basic auth of the web or mobile app", async () => {
    const soundcloud = await setup(issuing());
    expect(await soundcloud.publicToken({ mobile: false })).toEqual({
      accessToken: "sc-web-1",
      expiresAt: new Date("2026-03-01T13:00:00Z"),
    });
    expect((await soundcloud.publicToken({ mobile: true })).accessToken).toBe("sc-mobile-2");

    const [web, mobile] = fake!.requests;
    expect(web).toMatchObject({ method: "POST", path: "/oauth2/token", form: { grant_type: "client_credentials" } });
    expect(decodeBasicAuth(web?.headers.authorization)).toEqual({ user: "sc-web", password: "web-secret" });
    expect(decodeBasicAuth(mobile?.headers.authorization)).toEqual({ user: "sc-mobile", password: "mobile-secret" });
  });

  it("caches the public token until five minutes before expiry, and shares one request between callers", async () => {
    const soundcloud = await setup(issuing());
    const [a, b] = await Promise.all([
      soundcloud.publicToken({ mobile: false }),
      soundcloud.publicToken({ mobile: false }),
    ]);
    expect(a.accessToken).toBe("sc-web-1");
    expect(b.accessToken).toBe("sc-web-1");
    clock += 54 * 60_000;
    expect((await soundcloud.publicToken({ mobile: false })).accessToken).toBe("sc-web-1");
    clock += 2 * 60_000;
    expect((await soundcloud.publicToken({ mobile: false })).accessToken).toBe("sc-web-2");
    expect(fake!.requests).toHaveLength(2);
  });

  it("uses the web app for mobile callers when no mobile app is configured, sharing its token", async () => {
    const soundcloud = await setup(issuing(), { mobile: undefined });
    expect((await soundcloud.publicToken({ mobile: true })).accessToken).toBe("sc-web-1");
    expect((await soundcloud.publicToken({ mobile: false })).accessToken).toBe("sc-web-1");
    expect(fake!.requests).toHaveLength(1);
  });

  it("does not cache a failed grant", async () => {
    const soundcloud = await setup(() => ({ status: 503, text: "" }));
    await expect(soundcloud.publicToken({ mobile: false })).rejects.toMatchObject({ kind: "unavailable", status: 503 });
    fake!.setHandler(issuing());
    expect((await soundcloud.publicToken({ mobile: false })).accessToken).toBe("sc-web-1");
    expect(fake!.requests).toHaveLength(2);
  });

  it("on a 403 from SoundCloud drops the cached public token, gets a new one and retries once", async () => {
    const grant = issuing();
    const soundcloud = await setup((request) =>
      request.path === "/tracks/42"
        ? request.headers.authorization === "OAuth sc-web-2"
          ? { status: 200, json: { id: 42, title: "Song" } }
          : { status: 403, json: { code: 403, message: "Forbidden" } }
        : grant(request),
    );
    const getTrack = (token: string) =>
      requestJson({
        provider: "soundcloud",
        method: "GET",
        url: `${fake!.url}/tracks/42`,
        headers: { authorization: `OAuth ${token}` },
        timeoutMs: 5_000,
      });

    expect(await soundcloud.withPublicToken({ mobile: false }, getTrack)).toEqual({ id: 42, title: "Song" });
    expect(
      fake!.requests.map(
        (r) => `${r.path} ${r.headers.authorization?.startsWith("OAuth") ? r.headers.authorization : "basic"}`,
      ),
    ).toEqual(["/oauth2/token basic", "/tracks/42 OAuth sc-web-1", "/oauth2/token basic", "/tracks/42 OAuth sc-web-2"]);
    // The new token is the cached one now.
    expect((await soundcloud.publicToken({ mobile: false })).accessToken).toBe("sc-web-2");
    expect(fake!.requests).toHaveLength(4);
  });

  it("refreshes a user's token with the variant's app credentials", async () => {
    const soundcloud = await setup(() => ({
      status: 200,
      json: { access_token: "u-at", expires_in: 3599, refresh_token: "u-rt2", scope: "" },
    }));
    expect(await soundcloud.refresh("u-rt", { mobile: true })).toEqual({
      accessToken: "u-at",
      expiresIn: 3599,
      refreshToken: "u-rt2",
    });
    const [request] = fake!.requests;
    expect(request?.form).toEqual({ grant_type: "refresh_token", refresh_token: "u-rt" });
    expect(decodeBasicAuth(request?.headers.authorization)).toEqual({ user: "sc-mobile", password: "mobile-secret" });
  });

  it("reports a refused refresh token as rejected", async () => {
    const soundcloud = await setup(() => ({ status: 401, json: { error: "invalid_grant" } }));
    await expect(soundcloud.refresh("old", { mobile: false })).rejects.toMatchObject({
      provider: "soundcloud",
      kind: "rejected",
      status: 401,
      reason: "invalid_grant",
    });
  });
});

describe("development SoundCloud", () => {
  it("says SoundCloud is not configured", async () => {
    await expect(createDevSoundCloudAuth().publicToken({ mobile: false })).rejects.toThrow(
      "SoundCloud is not configured",
    );
  });
});
