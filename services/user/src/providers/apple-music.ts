// The Apple Music developer token: a JWT the team signs with its MusicKit key, handed to web and mobile
// players. Users' music-user tokens come from MusicKit on the client and are stored by the service. The signing is
// @tt/providers' (the web apps' configuration serves the same token).
import {
  createAppleMusicTokenIssuer,
  readAppleMusicKey,
  type AppleMusicDeveloperToken,
  type AppleMusicTokenIssuer,
} from "@tt/providers";
import { notConfigured } from "./provider-error.ts";

export { readAppleMusicKey };
export type { AppleMusicDeveloperToken };

export type AppleMusicTokens = AppleMusicTokenIssuer;

export interface SignedAppleMusicTokensOptions {
  teamId: string;
  keyId: string;
  /** The .p8 key from the Apple developer account (PKCS8 PEM, P-256). */
  privateKey: string;
  ttlSeconds: number;
  now?: () => number;
}

/** Cached: the same token until it is within an hour (or half its life) of expiring. */
export function createSignedAppleMusicTokens(options: SignedAppleMusicTokensOptions): AppleMusicTokens {
  return createAppleMusicTokenIssuer(options);
}

export function createDevAppleMusicTokens(): AppleMusicTokens {
  return { developerToken: () => Promise.reject(notConfigured("apple-music", "Apple Music")) };
}
