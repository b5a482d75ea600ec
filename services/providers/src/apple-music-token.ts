// The Apple Music developer token the web player configures MusicKit JS with (issue 14): an ES256 JWT signed with
// the team's MusicKit key (header kid = key id; iss = team id, iat, exp, and `origin` = the site's public origin
// when it is known, so the token only works on that site). Issued by whatever serves the page's runtime
// configuration (/remotes.json: the all-in-one's frontend server, the gateway in a cluster) from the same variables
// as the user service's token: APPLE_MUSIC_TEAM_ID, APPLE_MUSIC_KEY_ID, APPLE_MUSIC_PRIVATE_KEY and
// APPLE_MUSIC_TOKEN_TTL_SECONDS. One token is kept and re-minted before it expires, never per request.
import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";

/** Apple refuses developer tokens that live longer than six months. */
export const APPLE_MUSIC_MAX_TTL_SECONDS = 15_777_000;
/** The default lifetime, the user service's as well. */
export const APPLE_MUSIC_DEFAULT_TTL_SECONDS = 12 * 60 * 60;
/** A token is re-minted when less than this (or half its life) is left. */
const MAX_RENEW_MARGIN_MS = 60 * 60_000;

export interface AppleMusicTokenConfig {
  teamId: string;
  keyId: string;
  /** The .p8 key from the Apple developer account (PKCS8 PEM, P-256). */
  privateKey: string;
  ttlSeconds: number;
}

export interface AppleMusicDeveloperToken {
  token: string;
  expiresAt: Date;
}

export interface AppleMusicTokenIssuer {
  /** The current token; the same one until it is within an hour (or half its life) of expiring. */
  developerToken(): Promise<AppleMusicDeveloperToken>;
}

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

const GROUP = ["APPLE_MUSIC_TEAM_ID", "APPLE_MUSIC_KEY_ID", "APPLE_MUSIC_PRIVATE_KEY"] as const;

/**
 * The token's settings from the environment: undefined when none of the three credentials is set; throws, naming
 * the variable, when only some are, when the key is not a P-256 PEM key (Kubernetes Secrets and .env files often
 * carry it on one line with literal "\n", which is accepted) or when the lifetime is not 1 s to six months.
 */
export function loadAppleMusicTokenConfig(env: Record<string, string | undefined>): AppleMusicTokenConfig | undefined {
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw ? raw : undefined;
  };
  const set = GROUP.filter((name) => value(name) !== undefined);
  if (set.length === 0) return undefined;
  const unset = GROUP.filter((name) => value(name) === undefined);
  if (unset.length > 0) throw new Error(`${unset.join(", ")}: required when ${set.join(", ")} is set`);
  const privateKey = value("APPLE_MUSIC_PRIVATE_KEY")!.replace(/\\n/g, "\n");
  try {
    readAppleMusicKey(privateKey);
  } catch (error) {
    throw new Error(`APPLE_MUSIC_PRIVATE_KEY: ${(error as Error).message}`, { cause: error });
  }
  const ttlText = value("APPLE_MUSIC_TOKEN_TTL_SECONDS");
  const ttlSeconds = ttlText === undefined ? APPLE_MUSIC_DEFAULT_TTL_SECONDS : Number(ttlText);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > APPLE_MUSIC_MAX_TTL_SECONDS) {
    throw new Error(
      `APPLE_MUSIC_TOKEN_TTL_SECONDS: must be a whole number of seconds from 1 to ${APPLE_MUSIC_MAX_TTL_SECONDS} (six months)`,
    );
  }
  return { teamId: value("APPLE_MUSIC_TEAM_ID")!, keyId: value("APPLE_MUSIC_KEY_ID")!, privateKey, ttlSeconds };
}

export interface AppleMusicTokenIssuerOptions extends AppleMusicTokenConfig {
  /** The site's public origin (https://music.example.org): the token's `origin` claim. Unset: no claim. */
  origin?: string;
  now?: () => number;
}

export function createAppleMusicTokenIssuer(options: AppleMusicTokenIssuerOptions): AppleMusicTokenIssuer {
  const key = readAppleMusicKey(options.privateKey);
  const now = options.now ?? Date.now;
  const origin = options.origin ? new URL(options.origin).origin : undefined;
  const marginMs = Math.min(MAX_RENEW_MARGIN_MS, (options.ttlSeconds * 1000) / 2);
  let current: { token: string; expiresAt: number; renewAt: number } | undefined;
  let minting: Promise<void> | undefined;

  const mint = async () => {
    const issuedAt = Math.floor(now() / 1000);
    const expiresAt = issuedAt + options.ttlSeconds;
    const token = await new SignJWT(origin ? { origin: [origin] } : {})
      .setProtectedHeader({ alg: "ES256", kid: options.keyId })
      .setIssuer(options.teamId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);
    current = { token, expiresAt: expiresAt * 1000, renewAt: expiresAt * 1000 - marginMs };
  };

  return {
    async developerToken() {
      if (current === undefined || now() >= current.renewAt) {
        // Requests arriving together share one signing.
        minting ??= mint().finally(() => (minting = undefined));
        await minting;
      }
      return { token: current!.token, expiresAt: new Date(current!.expiresAt) };
    },
  };
}
