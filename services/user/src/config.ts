// The user service's configuration, validated once at start: its own variables (this file) and each area's
// (modules/*/*-config.ts, providers/config.ts), read together so a bad deployment fails naming every bad variable.
import { z } from "zod";
import {
  DEFAULT_TOKEN_AUDIENCE,
  DEFAULT_TOKEN_ISSUER,
  envFlag,
  optionalEnvString,
  parseEnv,
  parseEnvParts,
} from "@tt/kit";
import { loadAccountConfig, type AccountConfig } from "./modules/accounts/account-config.ts";
import { loadContactConfig, type ContactConfig } from "./modules/contact/contact-config.ts";
import { loadModerationConfig, type ModerationConfig } from "./modules/moderation/moderation-config.ts";
import { loadMediaConfig, type MediaConfig } from "./modules/profile-data/media-config.ts";
import { readProviderTokenKey } from "./modules/provider-tokens/token-cipher.ts";
import { loadProvidersConfig, type ProvidersConfig } from "./providers/config.ts";

const DAY_SECONDS = 24 * 60 * 60;

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
// 32 bytes in base64 (standard or URL-safe alphabet): an AES-256-GCM key.
const aesKey = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, "must be 32 bytes, base64")
    .transform((v) => Buffer.from(v, "base64"))
    .refine((key) => key.length === 32, "must be 32 bytes, base64")
    .optional(),
);

export const userConfigSchema = z
  .object({
    JWT_ISSUER: z.string().min(1).default(DEFAULT_TOKEN_ISSUER),
    JWT_AUDIENCE: z.string().min(1).default(DEFAULT_TOKEN_AUDIENCE),
    /** An Ed25519 private key (PKCS8 PEM). When set it signs every token and is never stored. */
    JWT_PRIVATE_KEY: optionalEnvString,
    /**
     * Encrypts the signing keys the service generates and stores (AES-256-GCM). Unset: they are stored in plain
     * text, protected by the database's own access control (docs/decisions/0066-signing-keys-at-rest-defect-12.md).
     */
    SIGNING_KEY_ENCRYPTION_KEY: aesKey,
    USER_TOKEN_TTL_SECONDS: seconds(7 * DAY_SECONDS),
    BOT_TOKEN_TTL_SECONDS: seconds(7 * DAY_SECONDS),
    GUEST_TOKEN_TTL_SECONDS: seconds(DAY_SECONDS),
    // The kit refuses tokens that live longer than this; signing longer ones would lock people out.
    ACCESS_TOKEN_MAX_TTL_SECONDS: seconds(7 * DAY_SECONDS),
    ADMIN_EMAIL: optionalEnvString,
    ADMIN_PASSWORD: optionalEnvString,
    /** Make the demo voucher DEMO-UPLOAD (grants uploadMusic) at start: npm start turns it on; chart and tests leave it off. */
    USER_DEMO_VOUCHER: envFlag(false),
  })
  .superRefine((env, ctx) => {
    for (const key of ["USER_TOKEN_TTL_SECONDS", "BOT_TOKEN_TTL_SECONDS", "GUEST_TOKEN_TTL_SECONDS"] as const) {
      if (env[key] > env.ACCESS_TOKEN_MAX_TTL_SECONDS) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `must not exceed ACCESS_TOKEN_MAX_TTL_SECONDS (${env.ACCESS_TOKEN_MAX_TTL_SECONDS})`,
        });
      }
    }
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      const missing = env.ADMIN_EMAIL === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD";
      ctx.addIssue({ code: "custom", path: [missing], message: "is required when the other admin variable is set" });
    }
  });

export type UserConfig = z.output<typeof userConfigSchema>;

export function loadUserConfig(env: Record<string, string | undefined>): UserConfig {
  return parseEnv(userConfigSchema, env);
}

/** Each area's configuration, parsed once at start and handed to the routes in the service context. */
export interface UserAreaConfigs {
  accounts: AccountConfig;
  contact: ContactConfig;
  media: MediaConfig;
  moderation: ModerationConfig;
  providers: ProvidersConfig;
  /** PROVIDER_TOKEN_KEY as bytes; undefined when unset (a generated key is stored in the database). */
  providerTokenKey: Buffer | undefined;
}

/** The whole configuration of the service; a ConfigError names every bad variable of every area. */
export function loadUserServiceConfig(env: Record<string, string | undefined>): {
  service: UserConfig;
  areas: UserAreaConfigs;
} {
  const { service, ...areas } = parseEnvParts(
    {
      service: loadUserConfig,
      accounts: loadAccountConfig,
      contact: loadContactConfig,
      media: loadMediaConfig,
      moderation: loadModerationConfig,
      providers: loadProvidersConfig,
      providerTokenKey: readProviderTokenKey,
    },
    env,
  );
  return { service, areas };
}
