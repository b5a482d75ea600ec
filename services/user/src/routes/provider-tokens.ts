// Music-provider tokens (Apple Music, SoundCloud, Spotify, YouTube). Refresh tokens stay in the service,
// encrypted; callers get access tokens. Agora, CometChat and the status live in provider-tokens-*.ts.
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { checkUuid, publishEvent, type Identity } from "@tt/kit";
import { callProvider } from "@tt/providers";
import { ProviderLinkCreatedSchema, ProviderLinkDeletedSchema } from "@tt/proto/tt/user/v1/events_pb";
import {
  createProviderTokenStore,
  flushLink,
  LABELS,
  type LinkedProvider,
  type ProviderRef,
  type ProviderTokenStore,
} from "../modules/provider-tokens/provider-token-store.ts";
import { loadTokenCipher, type TokenCipher } from "../modules/provider-tokens/token-cipher.ts";
import { withTokenRefresh, type OAuthTokens } from "../providers/index.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callIdentity } from "./call.ts";
import { chatRoutes } from "./provider-tokens-chat.ts";
import { required } from "./provider-tokens-input.ts";
import { statusRoutes } from "./provider-tokens-status.ts";

export function providerTokenRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ProviderTokenService>> {
  // PROVIDER_TOKEN_KEY was parsed at start; without it the key is generated (or read back) in the database
  // on first use, and asked for again after a failure.
  let cipher: Promise<TokenCipher> | undefined;
  const loadCipher = () => {
    cipher ??= loadTokenCipher(svc.orm.em, svc.areas.providerTokenKey, svc.logger).catch((error: unknown) => {
      cipher = undefined;
      throw error;
    });
    return cipher;
  };
  const store: ProviderTokenStore = createProviderTokenStore(loadCipher);

  const refresher = (provider: LinkedProvider, mobile: boolean) => (refreshToken: string) => {
    switch (provider) {
      case "spotify":
        return svc.providers.spotify.refresh(refreshToken);
      case "youtube":
        return svc.providers.youtube.refresh(refreshToken);
      case "soundcloud":
        return svc.providers.soundcloud.refresh(refreshToken, { mobile });
      case "apple":
        throw new Error("Apple Music User Tokens are not refreshed by the service");
    }
  };

  /** A usable access token of a linked account, refreshed when needed (or always with `force`). */
  async function freshToken(em: EntityManager, ref: ProviderRef, force: boolean) {
    const row = await store.fresh(em, ref, refresher(ref.provider, ref.variant === "mobile"), { force });
    return { token: await store.toMessage(row) };
  }

  /** SoundCloud refresh; a refresh token from the client (SoundCloud connect) replaces the stored one. */
  async function refreshSoundCloud(ctx: HandlerContext, clientRefreshToken: string, mobile: boolean) {
    const userId = callIdentity(ctx).subject;
    const em = callEm(ctx);
    const ref: ProviderRef = { userId, provider: "soundcloud", variant: mobile ? "mobile" : "web" };
    const given = clientRefreshToken.trim();
    if (given === "") return freshToken(em, ref, true);
    const tokens = await callProvider("SoundCloud", () => svc.providers.soundcloud.refresh(given, { mobile }), {
      refusal: { message: "SoundCloud refused the refresh token", code: Code.Unauthenticated },
    });
    // SoundCloud rotates: keep the new refresh token, or the one the client gave when none came back.
    const row = await store.save(em, ref, { ...tokens, refreshToken: tokens.refreshToken ?? given });
    await flushLink(em);
    return { token: await store.toMessage(row) };
  }

  function ownOrService(identity: Identity, id: string): string {
    const userId = checkUuid(id);
    if (identity.tokenType !== "service" && identity.subject !== userId) {
      throw new ConnectError("a user may read only their own SoundCloud token", Code.PermissionDenied);
    }
    return userId;
  }

  async function appleDeveloperToken() {
    return callProvider(LABELS.apple, () => svc.providers.appleMusic.developerToken());
  }

  async function exchange(
    provider: "spotify" | "youtube",
    code: string,
    redirectUri: string,
    trade: (code: string, redirectUri: string) => Promise<OAuthTokens>,
  ) {
    const c = required(code, "code");
    const uri = required(redirectUri, "redirectUri");
    return callProvider(LABELS[provider], () => trade(c, uri), {
      refusal: { message: `${LABELS[provider]} refused the code`, code: Code.Unauthenticated },
    });
  }

  return {
    async saveAppleUserToken(req, ctx) {
      const musicUserToken = required(req.musicUserToken, "musicUserToken");
      const em = callEm(ctx);
      const row = await store.save(
        em,
        { userId: callIdentity(ctx).subject, provider: "apple" },
        { accessToken: musicUserToken },
      );
      await flushLink(em);
      return { token: await store.toMessage(row) };
    },

    async getAppleUserToken(_req, ctx) {
      const developer = await appleDeveloperToken();
      const row = await store.find(callEm(ctx), { userId: callIdentity(ctx).subject, provider: "apple" });
      return {
        developerToken: developer.token,
        developerTokenExpiresAt: timestampFromDate(developer.expiresAt),
        ...(row ? { userToken: await store.toMessage(row) } : {}),
      };
    },

    async getServiceAppleUserToken(req, ctx) {
      const userId = checkUuid(req.id);
      const row = await store.find(callEm(ctx), { userId, provider: "apple" });
      if (!row) throw new ConnectError("no Apple Music user token is stored for this user", Code.NotFound);
      const developer = await appleDeveloperToken();
      return {
        developerToken: developer.token,
        developerTokenExpiresAt: timestampFromDate(developer.expiresAt),
        userToken: await store.toMessage(row),
      };
    },

    refreshSoundCloudToken: (req, ctx) => refreshSoundCloud(ctx, req.refreshToken, false),
    refreshSoundCloudMobileToken: (req, ctx) => refreshSoundCloud(ctx, req.refreshToken, true),

    async getSoundCloudPublicToken() {
      const token = await callProvider("SoundCloud", () => svc.providers.soundcloud.publicToken({ mobile: false }));
      return {
        token: {
          provider: "soundcloud",
          accessToken: token.accessToken,
          expiresAt: timestampFromDate(token.expiresAt),
        },
      };
    },

    async getSoundCloudMobilePublicToken() {
      const token = await callProvider("SoundCloud", () => svc.providers.soundcloud.publicToken({ mobile: true }));
      return {
        token: {
          provider: "soundcloud",
          accessToken: token.accessToken,
          expiresAt: timestampFromDate(token.expiresAt),
        },
      };
    },

    async getSoundCloudAccessToken(req, ctx) {
      const userId = ownOrService(callIdentity(ctx), req.id);
      return freshToken(
        callEm(ctx),
        { userId, provider: "soundcloud", variant: req.mobile ? "mobile" : "web" },
        req.forceRefresh,
      );
    },

    async exchangeSpotifyCode(req, ctx) {
      const userId = callIdentity(ctx).subject;
      const em = callEm(ctx);
      let tokens = await exchange("spotify", req.code, req.redirectUri, (code, uri) =>
        svc.providers.spotify.exchangeCode(code, uri),
      );
      // The token is brand new, but a 401 here still means "refresh and retry once" (spec 002 §8).
      const me = await callProvider("Spotify", () =>
        withTokenRefresh({
          accessToken: tokens.accessToken,
          refresh: async () => {
            if (tokens.refreshToken === undefined)
              throw new ConnectError("Spotify refused the code", Code.Unauthenticated);
            const next = await svc.providers.spotify.refresh(tokens.refreshToken);
            tokens = { ...next, refreshToken: next.refreshToken ?? tokens.refreshToken };
            return next.accessToken;
          },
          call: (accessToken) => svc.providers.spotify.getCurrentUser(accessToken),
        }),
      );
      const row = await store.save(em, { userId, provider: "spotify" }, tokens, {
        providerUserId: me.result.id,
        providerDisplayName: me.result.displayName,
        product: me.result.product,
        providerEmail: me.result.email,
      });
      publishEvent(em, ProviderLinkCreatedSchema, {
        uuid: userId,
        provider: "spotify",
        variant: "web",
        providerUserId: me.result.id,
        email: me.result.email ?? "",
      });
      await flushLink(em);
      return { token: await store.toMessage(row) };
    },

    refreshSpotifyToken: (_req, ctx) =>
      freshToken(callEm(ctx), { userId: callIdentity(ctx).subject, provider: "spotify" }, true),

    async deleteSpotifyToken(_req, ctx) {
      const userId = callIdentity(ctx).subject;
      const em = callEm(ctx);
      const row = await store.find(em, { userId, provider: "spotify" });
      if (row) {
        em.remove(row);
        publishEvent(em, ProviderLinkDeletedSchema, {
          uuid: userId,
          provider: "spotify",
          variant: row.variant,
          providerUserId: row.providerUserId ?? "",
          email: row.providerEmail ?? "",
        });
        await flushLink(em);
      }
      return {};
    },

    async getServiceSpotifyAccessToken(req, ctx) {
      return freshToken(callEm(ctx), { userId: checkUuid(req.id), provider: "spotify" }, req.forceRefresh);
    },

    async exchangeYouTubeCode(req, ctx) {
      const userId = callIdentity(ctx).subject;
      const em = callEm(ctx);
      const tokens = await exchange("youtube", req.code, req.redirectUri, (code, uri) =>
        svc.providers.youtube.exchangeCode(code, uri),
      );
      const row = await store.save(em, { userId, provider: "youtube" }, tokens);
      publishEvent(em, ProviderLinkCreatedSchema, {
        uuid: userId,
        provider: "youtube",
        variant: "web",
        providerUserId: "",
        email: "",
      });
      await flushLink(em);
      return { token: await store.toMessage(row) };
    },

    refreshYouTubeToken: (_req, ctx) =>
      freshToken(callEm(ctx), { userId: callIdentity(ctx).subject, provider: "youtube" }, true),

    ...chatRoutes(svc),
    ...statusRoutes(svc),
  };
}
