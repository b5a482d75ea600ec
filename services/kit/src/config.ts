// Configuration from the environment, validated once at start so a bad deployment fails with one message
// naming every problem instead of crashing later on the first variable it happens to read.
import { z } from "zod";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER } from "./auth/claims.ts";

/** Raised when environment variables are missing or invalid; the message lists each one with its reason. */
export class ConfigError extends Error {
  constructor(readonly issues: readonly { variable: string; reason: string }[]) {
    super(`invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.reason}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Validates one part of the environment with a zod object schema; throws ConfigError listing every issue. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: issue.path.map(String).join(".") || "(environment)",
      // zod reports an absent variable as "expected string, received undefined"; say it plainly.
      reason: issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message,
    })),
  );
}

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
// Empty strings come from templated manifests (`FOO: ""`); treat them as unset.
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());

export const kitConfigSchema = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }),
  NATS_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  JWT_ISSUER: z.string().min(1).default(DEFAULT_TOKEN_ISSUER),
  JWT_AUDIENCE: z.string().min(1).default(DEFAULT_TOKEN_AUDIENCE),
  USER_SERVICE_URL: optionalUrl,
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  ACCESS_TOKEN_MAX_TTL_SECONDS: positiveInt(7 * 24 * 60 * 60),
});

export type KitConfig = z.output<typeof kitConfigSchema>;

/** The kit's part of the environment: server, database, bus, logging and token verification. */
export function loadKitConfig(env: Record<string, string | undefined>): KitConfig {
  return parseEnv(kitConfigSchema, env);
}
