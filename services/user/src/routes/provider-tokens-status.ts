// GET /info-admin/user-service-status: what an operator checks first.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { pingDatabase } from "@tt/kit";
import type { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import type { ProvidersConfig } from "../providers/index.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm } from "./call.ts";

export const USER_SERVICE_NAME = "user-service";
export const USER_SERVICE_VERSION = "1.8.0";

type Mode = "http" | "dev" | "unconfigured";

/**
 * Per provider: "http" when its credentials are set (the real client; Apple Music and Agora sign locally
 * with them), "dev" when a working development stand-in is used (e-mail and SMS into the dev outbox, the
 * local phone check), "unconfigured" when calls answer "not configured". The same variables decide as in
 * createProviders.
 */
export function providerModes(c: ProvidersConfig): Record<string, Mode> {
  const real = (set: boolean, otherwise: Mode): Mode => (set ? "http" : otherwise);
  return {
    email: real(c.SMTP_URL !== undefined, "dev"),
    sms: real(c.SMS_ACCOUNT_SID !== undefined, "dev"),
    phoneValidation: real(c.PHONE_LOOKUP_ACCOUNT_SID !== undefined, "dev"),
    discord: real(c.DISCORD_CLIENT_ID !== undefined, "unconfigured"),
    spotify: real(c.SPOTIFY_CLIENT_ID !== undefined, "unconfigured"),
    soundcloud: real(c.SOUNDCLOUD_CLIENT_ID !== undefined, "unconfigured"),
    youtube: real(c.GOOGLE_CLIENT_ID !== undefined, "unconfigured"),
    apple: real(c.APPLE_MUSIC_TEAM_ID !== undefined, "unconfigured"),
    agora: real(c.AGORA_APP_ID !== undefined, "unconfigured"),
    cometChat: real(c.COMETCHAT_APP_ID !== undefined, "unconfigured"),
  };
}

export function statusRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ProviderTokenService>> {
  // The routes are built once when the service starts, so this is the service's start time.
  const startedAt = new Date();
  const providers = providerModes(svc.areas.providers);
  return {
    async getUserServiceStatus(_req, ctx) {
      const databaseOk = await pingDatabase(callEm(ctx)).then(
        () => true,
        (error: unknown) => {
          svc.logger.warn({ err: error }, "status: the database did not answer");
          return false;
        },
      );
      const busOk = await svc.bus.healthy().catch(() => false);
      return {
        service: USER_SERVICE_NAME,
        version: USER_SERVICE_VERSION,
        startedAt: timestampFromDate(startedAt),
        databaseOk,
        busOk,
        providers,
      };
    },
  };
}
