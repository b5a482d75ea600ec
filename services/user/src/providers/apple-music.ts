// The Apple Music developer token: a JWT the team signs with its MusicKit key, handed to web and mobile
// players. Users' music-user tokens come from MusicKit on the client and are stored by the service.
import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { notConfigured } from "./provider-error.ts";

export interface AppleMusicDeveloperToken {
  token: string;
  expiresAt: Date;
}

export interface AppleMusicTokens {
  /** Cached: the same token until it is within an hour (or half its life) of expiring. */
  developerToken(): Promise<AppleMusicDeveloperToken>;
}

export interface SignedAppleMusicTokensOptions {
  teamId: string;
  keyId: string;
  /** The .p8 key from the Apple developer account (PKCS8 PEM, P-256). */
  privateKey: string;
  ttlSeconds: number;
  now?: () => number;
}

const MAX_RENEW_MARGIN_MS = 60 * 60_000;

/** Reads a MusicKit key; throws with a reason (never the key) when it is not a P-256 private key. */
export function readAppleMusicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw new Error("is not a readable PEM private key");
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new Error("must be an EC P-256 key (the MusicKit .p8 file)");
  }
  return key;
}

export function createSignedAppleMusicTokens(options: SignedAppleMusicTokensOptions): AppleMusicTokens {
  const key = readAppleMusicKey(options.privateKey);
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlSeconds * 1000;
  const marginMs = Math.min(MAX_RENEW_MARGIN_MS, ttlMs / 2);
  let cached: { token: AppleMusicDeveloperToken; renewAt: number } | undefined;

  return {
    async developerToken() {
      if (cached === undefined || now() >= cached.renewAt) {
        const issuedAt = Math.floor(now() / 1000);
        const expiresAt = issuedAt + options.ttlSeconds;
        const token = await new SignJWT({})
          .setProtectedHeader({ alg: "ES256", kid: options.keyId })
          .setIssuer(options.teamId)
          .setIssuedAt(issuedAt)
          .setExpirationTime(expiresAt)
          .sign(key);
        cached = { token: { token, expiresAt: new Date(expiresAt * 1000) }, renewAt: expiresAt * 1000 - marginMs };
      }
      return { token: cached.token.token, expiresAt: new Date(cached.token.expiresAt) };
    },
  };
}

export function createDevAppleMusicTokens(): AppleMusicTokens {
  return { developerToken: () => Promise.reject(notConfigured("apple-music", "Apple Music")) };
}
