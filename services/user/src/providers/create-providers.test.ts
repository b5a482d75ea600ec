import { generateKeyPairSync } from "node:crypto";
import { ConfigError } from "@tt/kit";
import { afterEach, describe, expect, it } from "vitest";
import { cometChatBaseUrl, loadProvidersConfig } from "./config.ts";
import { createProviders } from "./create-providers.ts";
import { createInMemoryDevOutbox } from "./dev-outbox.ts";
import { decodeBasicAuth, startFakeServer, type FakeServer } from "./testing/fake-http-server.ts";

const applePem = generateKeyPairSync("ec", { namedCurve: "P-256" })
  .privateKey.export({ format: "pem", type: "pkcs8" })
  .toString();

function configError(env: Record<string, string>): ConfigError {
  try {
    loadProvidersConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("createProviders", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it("uses every development implementation when nothing is configured", async () => {
    const devOutbox = createInMemoryDevOutbox();
    const { providers, modes, summary, close } = createProviders({}, { devOutbox });

    expect(Object.values(modes).every((mode) => mode === "dev")).toBe(true);
    expect(summary).toBe(
      "email=dev sms=dev phoneValidation=dev discord=dev spotify=dev youtube=dev soundcloud=dev appleMusic=dev agora=dev cometChat=dev",
    );
    await providers.email.send({ to: "dj@example.com", subject: "Code", text: "123456" });
    await providers.sms.send({ to: "+14155550100", body: "654321" });
    expect((await devOutbox.list({ limit: 5 })).map((m) => `${m.channel} ${m.to} ${m.body}`)).toEqual([
      "sms +14155550100 654321",
      "email dj@example.com 123456",
    ]);
    expect(await providers.phoneValidation.validate("+12125550123")).toMatchObject({ status: "VOIP" });
    await expect(providers.discord.getUser("x")).rejects.toThrow("Discord login is not configured");
    close();
  });

  it("treats empty variables from templated manifests as unset", () => {
    const { modes } = createProviders(
      { SPOTIFY_CLIENT_ID: "", SPOTIFY_CLIENT_SECRET: "", SMS_BASE_URL: "" },
      { devOutbox: createInMemoryDevOutbox() },
    );
    expect(modes.spotify).toBe("dev");
  });

  it("wires each configured provider to its base URL, credentials and timeout", async () => {
    fake = await startFakeServer((request) => {
      if (request.path.endsWith("/Messages.json")) return { status: 201, json: { sid: "SM1" } };
      if (request.path === "/api/token" || request.path === "/oauth2/token" || request.path === "/token") {
        return { status: 200, json: { access_token: "at", expires_in: 3600 } };
      }
      if (request.path === "/api/v10/users/@me") return "hang";
      if (request.path.startsWith("/v2/PhoneNumbers/")) {
        return { status: 200, json: { valid: true, line_type_intelligence: { type: "mobile" } } };
      }
      if (request.path.startsWith("/v3/users")) return { status: 200, json: { data: { authToken: "cc" } } };
      return { status: 404, text: "" };
    });
    const url = fake.url;
    const { providers, modes } = createProviders(
      {
        PROVIDER_TIMEOUT_MS: "1000",
        SMTP_URL: "smtp://u:p@127.0.0.1:2525",
        EMAIL_FROM: "no-reply@tt.example",
        SMS_BASE_URL: url,
        SMS_ACCOUNT_SID: "AC1",
        SMS_AUTH_TOKEN: "sms-token",
        SMS_FROM: "+15005550006",
        PHONE_LOOKUP_BASE_URL: `${url}/`,
        PHONE_LOOKUP_ACCOUNT_SID: "AC2",
        PHONE_LOOKUP_AUTH_TOKEN: "lookup-token",
        DISCORD_BASE_URL: url,
        DISCORD_CLIENT_ID: "d",
        DISCORD_CLIENT_SECRET: "ds",
        SPOTIFY_ACCOUNTS_BASE_URL: url,
        SPOTIFY_API_BASE_URL: url,
        SPOTIFY_CLIENT_ID: "s",
        SPOTIFY_CLIENT_SECRET: "ss",
        GOOGLE_OAUTH_BASE_URL: url,
        GOOGLE_CLIENT_ID: "g",
        GOOGLE_CLIENT_SECRET: "gs",
        SOUNDCLOUD_BASE_URL: url,
        SOUNDCLOUD_CLIENT_ID: "sc",
        SOUNDCLOUD_CLIENT_SECRET: "scs",
        SOUNDCLOUD_MOBILE_CLIENT_ID: "scm",
        SOUNDCLOUD_MOBILE_CLIENT_SECRET: "scms",
        APPLE_MUSIC_TEAM_ID: "TEAM",
        APPLE_MUSIC_KEY_ID: "KEY",
        APPLE_MUSIC_PRIVATE_KEY: applePem.replace(/\n/g, "\\n"),
        AGORA_APP_ID: "970ca35de60c44645bbae8a215061b33",
        AGORA_APP_CERTIFICATE: "5cfd2fd1755d40ecb72977518be15d3b",
        COMETCHAT_APP_ID: "app",
        COMETCHAT_API_KEY: "cc-key",
        COMETCHAT_BASE_URL: url,
      },
      { devOutbox: createInMemoryDevOutbox() },
    );

    expect(Object.values(modes).every((mode) => mode === "real")).toBe(true);
    await providers.sms.send({ to: "+14155550100", body: "hi" });
    expect(await providers.phoneValidation.validate("+14155550100")).toMatchObject({ status: "VALID" });
    await providers.spotify.refresh("rt");
    await providers.youtube.refresh("rt");
    await providers.soundcloud.publicToken({ mobile: true });
    expect(await providers.cometChat.userToken("u1")).toEqual({ uid: "u1", authToken: "cc" });
    await expect(providers.discord.getUser("at")).rejects.toMatchObject({ kind: "timeout" });
    expect((await providers.appleMusic.developerToken()).token.split(".")).toHaveLength(3);
    expect((await providers.agora.rtcToken({ channel: "r", uid: 1, role: "PUBLISHER", ttlSeconds: 60 })).token).toMatch(
      /^007/,
    );

    const seen = fake.requests.map(
      (r) => `${r.method} ${r.path} ${decodeBasicAuth(r.headers.authorization)?.user ?? ""}`,
    );
    expect(seen).toEqual([
      "POST /2010-04-01/Accounts/AC1/Messages.json AC1",
      "GET /v2/PhoneNumbers/+14155550100 AC2",
      "POST /api/token s",
      "POST /token ",
      "POST /oauth2/token scm",
      "POST /v3/users/u1/auth_tokens ",
      "GET /api/v10/users/@me ",
    ]);
    expect(fake.requests[5]?.headers.apikey).toBe("cc-key");
  });
});

describe("providers configuration", () => {
  it("names every missing variable of a half-configured provider", () => {
    const error = configError({ SMS_ACCOUNT_SID: "AC1", SPOTIFY_CLIENT_SECRET: "s", PROVIDER_TIMEOUT_MS: "soon" });
    // Reported together with the field errors, so one failed start names every problem.
    expect(error.issues.map((i) => i.variable)).toContain("PROVIDER_TIMEOUT_MS");
    expect(error.issues.filter((i) => i.variable !== "PROVIDER_TIMEOUT_MS")).toEqual([
      { variable: "SMS_AUTH_TOKEN", reason: "is required when SMS_ACCOUNT_SID is set" },
      { variable: "SMS_FROM", reason: "is required when SMS_ACCOUNT_SID is set" },
      { variable: "SPOTIFY_CLIENT_ID", reason: "is required when SPOTIFY_CLIENT_SECRET is set" },
    ]);
  });

  it("refuses malformed values with the variable's name and never echoes a secret", () => {
    const error = configError({
      SMTP_URL: "http://mail.example",
      EMAIL_FROM: "x@example.com",
      AGORA_APP_ID: "not-hex",
      AGORA_APP_CERTIFICATE: "5cfd2fd1755d40ecb72977518be15d3b",
      APPLE_MUSIC_TEAM_ID: "T",
      APPLE_MUSIC_KEY_ID: "K",
      APPLE_MUSIC_PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleQ==\n-----END PRIVATE KEY-----",
      APPLE_MUSIC_TOKEN_TTL_SECONDS: "99999999",
      PROVIDER_TIMEOUT_MS: "0",
      COMETCHAT_REGION: "mars",
    });
    expect(error.issues.map((i) => i.variable).sort()).toEqual([
      "AGORA_APP_ID",
      "APPLE_MUSIC_PRIVATE_KEY",
      "APPLE_MUSIC_TOKEN_TTL_SECONDS",
      "COMETCHAT_REGION",
      "PROVIDER_TIMEOUT_MS",
      "SMTP_URL",
    ]);
    expect(error.message).toContain("SMTP_URL: must be an smtp:// or smtps:// URL");
    expect(error.message).toContain("APPLE_MUSIC_PRIVATE_KEY: is not a readable PEM private key");
    expect(error.message).not.toContain("c2VjcmV0LWtleQ");
  });

  it("applies the documented defaults", () => {
    const config = loadProvidersConfig({});
    expect(config).toMatchObject({
      PROVIDER_TIMEOUT_MS: 10_000,
      SMS_BASE_URL: "https://api.twilio.com",
      PHONE_LOOKUP_BASE_URL: "https://lookups.twilio.com",
      DISCORD_BASE_URL: "https://discord.com",
      SPOTIFY_ACCOUNTS_BASE_URL: "https://accounts.spotify.com",
      SPOTIFY_API_BASE_URL: "https://api.spotify.com",
      GOOGLE_OAUTH_BASE_URL: "https://oauth2.googleapis.com",
      SOUNDCLOUD_BASE_URL: "https://api.soundcloud.com",
      APPLE_MUSIC_TOKEN_TTL_SECONDS: 43_200,
      COMETCHAT_REGION: "us",
      COMETCHAT_GHOST_UID: "tt-ghost",
    });
    expect(cometChatBaseUrl(config)).toBeUndefined();
  });

  it("derives CometChat's host from the app id and region unless a base URL is given", () => {
    const env = { COMETCHAT_APP_ID: "12345abc", COMETCHAT_API_KEY: "k", COMETCHAT_REGION: "eu" };
    expect(cometChatBaseUrl(loadProvidersConfig(env))).toBe("https://12345abc.api-eu.cometchat.io");
    expect(cometChatBaseUrl(loadProvidersConfig({ ...env, COMETCHAT_BASE_URL: "http://127.0.0.1:1/" }))).toBe(
      "http://127.0.0.1:1",
    );
  });
});
