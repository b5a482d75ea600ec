// Discord login and account linking (spec 000: /auth/discord-auth, /auth/link-discord): trade the
// authorization code for tokens, then read who signed in.
import { notConfigured } from "./provider-error.ts";
import { isRecord, optionalString, requestJson, requireString } from "./provider-http.ts";
import { requestTokens, type OAuthTokens } from "./oauth-tokens.ts";

export interface DiscordUser {
  id: string;
  username: string;
  globalName?: string;
  /** Only with the `email` scope. */
  email?: string;
  emailVerified: boolean;
  avatarUrl?: string;
}

export interface DiscordAuth {
  exchangeCode(code: string, redirectUri: string): Promise<OAuthTokens>;
  getUser(accessToken: string): Promise<DiscordUser>;
}

export interface HttpDiscordAuthOptions {
  /** https://discord.com; the client adds the versioned API path. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

// Unversioned /api paths fall back to a retired API version, so the version is pinned here.
const API = "/api/v10";
const CDN = "https://cdn.discordapp.com";

export function createHttpDiscordAuth(options: HttpDiscordAuthOptions): DiscordAuth {
  return {
    exchangeCode(code, redirectUri) {
      return requestTokens({
        provider: "discord",
        url: `${options.baseUrl}${API}/oauth2/token`,
        form: {
          grant_type: "authorization_code",
          code,
          // The Discord activity's code exchange has no redirect URI; an empty one would be refused.
          redirect_uri: redirectUri || undefined,
          client_id: options.clientId,
          client_secret: options.clientSecret,
        },
        timeoutMs: options.timeoutMs,
      });
    },
    async getUser(accessToken) {
      const body = await requestJson({
        provider: "discord",
        method: "GET",
        url: `${options.baseUrl}${API}/users/@me`,
        headers: { authorization: `Bearer ${accessToken}` },
        timeoutMs: options.timeoutMs,
      });
      const id = requireString("discord", body, "id");
      const user: DiscordUser = {
        id,
        username: requireString("discord", body, "username"),
        emailVerified: isRecord(body) && body.verified === true,
      };
      const globalName = optionalString(body, "global_name");
      if (globalName !== undefined) user.globalName = globalName;
      const email = optionalString(body, "email");
      if (email !== undefined) user.email = email;
      const avatar = optionalString(body, "avatar");
      if (avatar !== undefined) user.avatarUrl = `${CDN}/avatars/${id}/${avatar}.png`;
      return user;
    },
  };
}

export function createDevDiscordAuth(): DiscordAuth {
  const unavailable = () => Promise.reject(notConfigured("discord", "Discord login"));
  return { exchangeCode: unavailable, getUser: unavailable };
}
