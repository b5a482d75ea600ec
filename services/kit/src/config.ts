// Configuration from the environment, validated once at start so a bad deployment fails with one message
// naming every problem instead of crashing later on the first variable it happens to read.
import { z } from "zod";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER } from "./auth/claims.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./transport/server.ts";
import { DEFAULT_DEPLOYMENT_NAME, DEPLOYMENT_NAME_PATTERN } from "./bus/deployment.ts";
import { parseServiceUrls } from "./transport/replicas.ts";

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

/**
 * Reads every part of a service's configuration at once (each part a loader that throws ConfigError, such as
 * `(env) => parseEnv(schema, env)`), so a bad deployment fails at start with every bad variable of every part
 * named, not only those of the first part that happens to be read.
 */
export function parseEnvParts<P extends Record<string, (env: Record<string, string | undefined>) => unknown>>(
  parts: P,
  env: Record<string, string | undefined>,
): { [K in keyof P]: ReturnType<P[K]> } {
  const issues: { variable: string; reason: string }[] = [];
  const parsed: Record<string, unknown> = {};
  for (const [name, load] of Object.entries(parts)) {
    try {
      parsed[name] = load(env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      for (const issue of err.issues) {
        if (!issues.some((i) => i.variable === issue.variable && i.reason === issue.reason)) issues.push(issue);
      }
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return parsed as { [K in keyof P]: ReturnType<P[K]> };
}

// Empty strings come from templated manifests (`FOO: ""`); treat them as unset.
export const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
/** An optional variable; an empty one is unset. */
export const optionalEnvString = z.preprocess(unsetIfEmpty, z.string().optional());
/** "true" or "false" as a boolean, `fallback` when unset or empty; anything else is refused. */
export const envFlag = (fallback: boolean) =>
  z
    .preprocess(unsetIfEmpty, z.enum(["true", "false"]).default(fallback ? "true" : "false"))
    .transform((v) => v === "true");
/** An http(s) base URL (an outside provider's, say) with a default, without trailing slashes; empty is unset. */
export const httpBaseUrl = (fallback: string) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default(fallback)
      .transform((url) => url.replace(/\/+$/, "")),
  );

/**
 * A schema refinement for variables that go together, such as a provider's credentials: in each group that has some
 * set, every unset one is an issue `is required when <the set ones> is set`, so setting only part of a group stops
 * the start instead of silently falling back.
 */
export function checkSetTogether(
  groups: readonly (readonly string[])[],
  env: Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  for (const group of groups) {
    const set = group.filter((name) => env[name] !== undefined);
    if (set.length === 0 || set.length === group.length) continue;
    for (const name of group) {
      if (env[name] === undefined) {
        ctx.addIssue({ code: "custom", path: [name], message: `is required when ${set.join(", ")} is set` });
      }
    }
  }
}
const DEFAULT_METRICS_PORT = 9464;
/** DATABASE_POOL_MAX when unset: `pg`'s own default. */
export const DEFAULT_DATABASE_POOL_MAX = 10;
const anyPort = z.coerce.number().int().min(0).max(65535);
const port = (fallback: number) => anyPort.default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** The longest delay a Node timer holds (about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** A positive number of milliseconds a timer can hold, with a default. */
export const timeoutMs = (fallback: number) => z.coerce.number().int().positive().max(MAX_TIMER_MS).default(fallback);
const optionalUrl = z.preprocess(unsetIfEmpty, z.url().optional());
/** A <NAME>_SERVICE_URL: one http(s) URL, or every replica's, comma-separated (transport/replicas.ts). */
export const serviceUrlsSchema = z.string().superRefine((value, ctx) => {
  try {
    parseServiceUrls(value);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
  }
});

export const kitConfigSchema = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }),
  // Most PostgreSQL connections each service's ORM pool holds. An all-in-one process holds one pool per service
  // (eight of them), and a distributed deployment one per service process and replica: keep the sum of them under
  // the server's max_connections (PostgreSQL's default is 100).
  DATABASE_POOL_MAX: positiveInt(DEFAULT_DATABASE_POOL_MAX),
  NATS_URL: optionalUrl,
  // This deployment's name on NATS: every subject, stream, consumer and bucket carries it (bus/deployment.ts), so
  // deployments sharing a NATS stay apart. The chart sets the release name; a DNS label.
  DEPLOYMENT_NAME: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(DEPLOYMENT_NAME_PATTERN, "must be 1 to 63 lower-case letters, digits and '-' (a DNS label)")
      .default(DEFAULT_DEPLOYMENT_NAME),
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  JWT_ISSUER: z.string().min(1).default(DEFAULT_TOKEN_ISSUER),
  JWT_AUDIENCE: z.string().min(1).default(DEFAULT_TOKEN_AUDIENCE),
  USER_SERVICE_URL: z.preprocess(unsetIfEmpty, serviceUrlsSchema.optional()),
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  ACCESS_TOKEN_MAX_TTL_SECONDS: positiveInt(7 * 24 * 60 * 60),
  // Prometheus metrics on their own port, never on the public one. Unset: 9464, or a free port when PORT is 0
  // or 9464 is taken (tests and runners that start several processes); see metricsListen.
  METRICS_PORT: z.preprocess(unsetIfEmpty, anyPort.optional()),
  // Unset: HOST (all-in-one: loopback).
  METRICS_HOST: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
  // Limits against slow and greedy clients (issue 9 defect 8), applied by createServer to every server.
  // The request line and headers must arrive within this time (a hard deadline, not reset by trickled bytes).
  HEADERS_TIMEOUT_MS: timeoutMs(DEFAULT_SERVER_LIMITS.headersTimeoutMs),
  // Longest pause between two chunks of a request body (an idle timeout: uploads that keep sending are fine).
  BODY_TIMEOUT_MS: timeoutMs(DEFAULT_SERVER_LIMITS.bodyTimeoutMs),
  // Longest an HTTP/1.1 keep-alive connection or an HTTP/2 session without a running request stays open.
  IDLE_TIMEOUT_MS: timeoutMs(DEFAULT_SERVER_LIMITS.idleTimeoutMs),
  // Open connections of the process, and of one remote address (IPv6: one /64); 0 means no cap.
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(DEFAULT_SERVER_LIMITS.maxConnections),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress),
});

export type KitConfig = z.output<typeof kitConfigSchema>;

/** The kit's part of the environment: server, database, bus, logging and token verification. */
export function loadKitConfig(env: Record<string, string | undefined>): KitConfig {
  return parseEnv(kitConfigSchema, env);
}

type ServerConfig = Pick<
  KitConfig,
  | "PORT"
  | "HOST"
  | "METRICS_PORT"
  | "METRICS_HOST"
  | "HEADERS_TIMEOUT_MS"
  | "BODY_TIMEOUT_MS"
  | "IDLE_TIMEOUT_MS"
  | "MAX_CONNECTIONS"
  | "MAX_CONNECTIONS_PER_ADDRESS"
>;

/** createServer's limits from the environment. */
export function serverLimits(config: ServerConfig): ServerLimits {
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: config.BODY_TIMEOUT_MS,
    idleTimeoutMs: config.IDLE_TIMEOUT_MS,
    maxConnections: config.MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
  };
}

/**
 * Where /metrics is served: METRICS_PORT on METRICS_HOST (default `defaultHost`, else HOST). Unset, the port is
 * 9464, or a free one when PORT is 0 or when 9464 is taken (several processes on one machine); a METRICS_PORT
 * that is set must be free.
 */
export function metricsListen(
  config: ServerConfig,
  defaultHost?: string,
): { port: number; host: string; orFreePort: boolean } {
  const port = config.METRICS_PORT ?? (config.PORT === 0 ? 0 : DEFAULT_METRICS_PORT);
  return {
    port,
    host: config.METRICS_HOST ?? defaultHost ?? config.HOST,
    orFreePort: config.METRICS_PORT === undefined && port !== 0,
  };
}
