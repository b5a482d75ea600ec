// Agora RTC tokens for voice and video in rooms (spec 000: POST /agora/token, roles PUBLISHER and
// SUBSCRIBER). Signed locally with the app certificate; no call to Agora.
import agoraToken from "agora-token";
import { notConfigured } from "./provider-error.ts";

const { RtcRole, RtcTokenBuilder } = agoraToken;

export type AgoraRtcRole = "PUBLISHER" | "SUBSCRIBER";

export interface AgoraRtcTokenRequest {
  channel: string;
  /** A numeric Agora uid (0 lets any uid join) or a string user account, for example the user's uuid. */
  uid: number | string;
  role: AgoraRtcRole;
  ttlSeconds: number;
}

export interface AgoraRtcToken {
  token: string;
  /** The client needs the app id to join; handing it out with the token keeps clients free of config. */
  appId: string;
  expiresAt: Date;
}

export interface AgoraTokens {
  rtcToken(request: AgoraRtcTokenRequest): Promise<AgoraRtcToken>;
}

export interface SignedAgoraTokensOptions {
  appId: string;
  appCertificate: string;
  now?: () => number;
}

/** Agora refuses tokens valid for more than a day. */
export const AGORA_MAX_TTL_SECONDS = 24 * 60 * 60;
// Agora's documented channel-name alphabet, at most 64 bytes.
const CHANNEL = /^[a-zA-Z0-9 !#$%&()+\-:;<=.>?@[\]^_{|}~,]{1,64}$/;

export function createSignedAgoraTokens(options: SignedAgoraTokensOptions): AgoraTokens {
  const now = options.now ?? Date.now;
  return {
    async rtcToken({ channel, uid, role, ttlSeconds }) {
      if (!CHANNEL.test(channel)) throw new RangeError("channel must be 1 to 64 characters Agora accepts");
      if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > AGORA_MAX_TTL_SECONDS) {
        throw new RangeError(`ttlSeconds must be an integer from 1 to ${AGORA_MAX_TTL_SECONDS}`);
      }
      const agoraRole = role === "PUBLISHER" ? RtcRole.PUBLISHER : RtcRole.SUBSCRIBER;
      let token: string;
      if (typeof uid === "number") {
        if (!Number.isInteger(uid) || uid < 0 || uid > 0xffff_ffff) {
          throw new RangeError("a numeric uid must be an unsigned 32-bit integer");
        }
        token = RtcTokenBuilder.buildTokenWithUid(
          options.appId,
          options.appCertificate,
          channel,
          uid,
          agoraRole,
          ttlSeconds,
          ttlSeconds,
        );
      } else {
        if (uid.length === 0 || uid.length > 255) throw new RangeError("a user account must be 1 to 255 characters");
        token = RtcTokenBuilder.buildTokenWithUserAccount(
          options.appId,
          options.appCertificate,
          channel,
          uid,
          agoraRole,
          ttlSeconds,
          ttlSeconds,
        );
      }
      // The builder answers "" instead of throwing when the app id or certificate is malformed.
      if (token === "") throw new Error("agora-token refused the app id or certificate");
      return { token, appId: options.appId, expiresAt: new Date(now() + ttlSeconds * 1000) };
    },
  };
}

export function createDevAgoraTokens(): AgoraTokens {
  return { rtcToken: () => Promise.reject(notConfigured("agora", "Voice and video (Agora)")) };
}
