// What the search, song-data, import, export and analysis areas share: the outside music providers (real
// clients when configured, absent otherwise) and the user's provider tokens, read from the user service with
// a service call. The user service client is made on first use, so a deployment (or a test) without the user
// service still starts: the calls that need a user's token then answer 412 "<Provider> is not connected".
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { Identity, ServiceClients } from "@tt/kit";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import type { Logger } from "pino";
import type { MusicProviders } from "../../providers/index.ts";
import type { TokenSource } from "../../providers/token-source.ts";

export interface MusicServices {
  providers: MusicProviders;
  /** The user's Spotify token (refreshed by the user service when needed). */
  spotifyUserToken(userUuid: string, signal?: AbortSignal): TokenSource;
  /** The Apple developer token and the user's Music User Token. */
  appleUserToken(userUuid: string, signal?: AbortSignal): Promise<{ developerToken: string; musicUserToken: string }>;
  /** The user's private SoundCloud token. */
  soundCloudUserToken(userUuid: string, signal?: AbortSignal): TokenSource;
  /**
   * A user's music preferences (002 §3) from the user service; none for guests, bots and services, or when
   * the user service does not answer (search then goes on unordered and unfiltered).
   */
  preferences(identity: Identity | undefined, signal?: AbortSignal): Promise<MusicPreferences>;
}

export interface MusicPreferences {
  musicProviders: string[];
  /** Unset when unknown. */
  allowExplicitAudio?: boolean;
}

function notConnected(label: string, error: unknown): ConnectError {
  if (error instanceof ConnectError && error.code === Code.NotFound) {
    return new ConnectError(`${label} is not connected`, Code.FailedPrecondition, undefined, undefined, error);
  }
  if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
    // The user service dropped a refused link: the user must authorise again (002 §8).
    return new ConnectError(
      `${label} refused the connection: connect ${label} again`,
      Code.FailedPrecondition,
      undefined,
      undefined,
      error,
    );
  }
  if (error instanceof ConnectError && error.code === Code.FailedPrecondition) return error;
  return new ConnectError(`${label} is not available`, Code.Unavailable, undefined, undefined, error);
}

export function createMusicServices(providers: MusicProviders, clients: ServiceClients, logger: Logger): MusicServices {
  let tokens: Client<typeof ProviderTokenService> | undefined;
  let profiles: Client<typeof ProfileService> | undefined;
  const userService = (): Client<typeof ProviderTokenService> => {
    if (tokens === undefined) {
      try {
        tokens = clients.get(ProviderTokenService);
      } catch (error) {
        logger.warn({ err: error }, "the user service cannot be called: provider tokens are not available");
        throw new ConnectError(
          "the user service is not reachable",
          Code.FailedPrecondition,
          undefined,
          undefined,
          error,
        );
      }
    }
    return tokens;
  };
  const source = (label: string, fetch: (forceRefresh: boolean) => Promise<string>): TokenSource => ({
    get: () => fetch(false).catch((error: unknown) => Promise.reject(notConnected(label, error))),
    // After a refusal (002 §8) the user service refreshes the token even though it has not expired.
    refresh: () => fetch(true).catch((error: unknown) => Promise.reject(notConnected(label, error))),
  });
  return {
    providers,
    async preferences(identity, signal) {
      if (identity === undefined || identity.tokenType !== "user") return { musicProviders: [] };
      try {
        profiles ??= clients.get(ProfileService);
        const answer = await profiles.getServiceUserData({ id: identity.subject }, { signal });
        return {
          musicProviders: answer.userData?.musicProviders ?? [],
          allowExplicitAudio: answer.userData?.allowExplicitAudio ?? false,
        };
      } catch (error) {
        logger.warn({ err: error }, "music preferences not read from the user service");
        return { musicProviders: [] };
      }
    },
    spotifyUserToken: (userUuid, signal) =>
      source("Spotify", async (forceRefresh) => {
        const answer = await userService().getServiceSpotifyAccessToken({ id: userUuid, forceRefresh }, { signal });
        return answer.token?.accessToken ?? "";
      }),
    async appleUserToken(userUuid, signal) {
      try {
        const answer = await userService().getServiceAppleUserToken({ id: userUuid }, { signal });
        return { developerToken: answer.developerToken, musicUserToken: answer.userToken?.accessToken ?? "" };
      } catch (error) {
        throw notConnected("Apple Music", error);
      }
    },
    soundCloudUserToken: (userUuid, signal) =>
      source("SoundCloud", async (forceRefresh) => {
        const answer = await userService().getSoundCloudAccessToken(
          { id: userUuid, mobile: false, forceRefresh },
          { signal },
        );
        return answer.token?.accessToken ?? "";
      }),
  };
}
