// The environment of the gateway when it runs alone. It holds no data; it checks tokens only to refuse a caller
// before reading its body (issue 23, JWT_ISSUER/JWT_AUDIENCE and the user service's keys), and each service
// decides again itself, revocations included. So it needs neither PostgreSQL nor NATS: DATABASE_URL and NATS_URL are not
// read even though the chart's shared Secret hands them to every backend pod. What it does need is where
// each catalog service lives; a missing one fails the start instead of answering 503 for a whole API.
import {
  envFlag,
  kitConfigSchema,
  parseEnv,
  parseServiceUrls,
  serviceUrlsSchema,
  serviceUrlVariable,
  unsetIfEmpty,
} from "@tt/kit";
import { z } from "zod";
import { serviceCatalog } from "./catalog.ts";

// One URL each (the chart's Service), or every replica's comma-separated (the local distributed runner, issue 28).
const serviceUrls = Object.fromEntries(
  Object.keys(serviceCatalog).map((name) => [serviceUrlVariable(name), serviceUrlsSchema]),
) as Record<string, typeof serviceUrlsSchema>;

export const gatewayConfigSchema = kitConfigSchema
  .omit({ DATABASE_URL: true, NATS_URL: true, USER_SERVICE_URL: true })
  .extend({
    ...serviceUrls,
    BODY_LIMIT_BYTES: z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().optional()),
    // Largest multipart/form-data body (uploads); default DEFAULT_MULTIPART_BODY_LIMIT_BYTES (32 MiB).
    MULTIPART_BODY_LIMIT_BYTES: z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().optional()),
    // Request-body bytes held at once across every call (503 + retry-after beyond); default
    // DEFAULT_MAX_BODY_BYTES_IN_FLIGHT (256 MiB). Issue 23 finding 6.
    MAX_BODY_BYTES_IN_FLIGHT: z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().optional()),
    // Comma-separated origins allowed to call the API from a browser.
    CORS_ORIGINS: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .transform((s) =>
          s
            .split(",")
            .map((o) => o.trim())
            .filter(Boolean),
        )
        .optional(),
    ),
    // Path of the shell's remotes manifest (mounted from the chart's remotes ConfigMap), served at /remotes.json.
    REMOTES_CONFIG: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
    // What /remotes.json adds for the pages (issue 14), as the all-in-one's frontend server does: the deployment's
    // brand ("hangout" plays by its own provider priority, spec 002 §9), the outside players the live room may load
    // (comma-separated; the chart passes frontends.contentSecurityPolicy.players; unset: apple when the Apple Music
    // key is configured, else none), and the site's public origin, the `origin` claim of the Apple Music developer
    // token (APPLE_MUSIC_TEAM_ID, _KEY_ID, _PRIVATE_KEY, _TOKEN_TTL_SECONDS: @tt/providers' loadAppleMusicTokenConfig).
    // The user service's Agora app id: /remotes.json then carries it (agoraAppId), so rooms whose live audio is on
    // join their Agora channel; 32 hexadecimal characters, as the user service checks it.
    AGORA_APP_ID: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^[0-9a-fA-F]{32}$/, "must be the 32 hexadecimal characters from the Agora console")
        .optional(),
    ),
    WEB_BRAND: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^[a-z][a-z0-9-]*$/, "must be a lower-case name (hangout)")
        .optional(),
    ),
    WEB_PLAYERS: z
      .string()
      .optional()
      .transform((s) =>
        s === undefined
          ? undefined
          : s
              .split(/[\s,]+/)
              .map((p) => p.trim())
              .filter(Boolean),
      )
      .refine((list) => list === undefined || list.every((p) => /^[a-z][a-z0-9]*$/.test(p)), {
        message: "must be comma-separated player names (youtube,spotify,apple)",
      }),
    WEB_PUBLIC_URL: z.preprocess(
      unsetIfEmpty,
      z.url({ protocol: /^https?$/, error: "must be the site's http(s) URL" }).optional(),
    ),
    // How REST calls reach the services, over one HTTP/2 session per service: the Connect protocol with binary
    // messages (default; about twice the throughput of gRPC in gateway/bench/distributed.ts) or gRPC.
    BACKEND_PROTOCOL: z.enum(["connect", "grpc"]).default("connect"),
    // Profile images kept as files on a volume shared with the service that writes them (the chart mounts it
    // read-only here): served under the path of MEDIA_BASE_URL. Unset when S3 or a CDN serves them.
    MEDIA_DIR: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
    MEDIA_BASE_URL: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .refine((v) => v.startsWith("/") || /^https?:\/\//.test(v), "must be a path (/media) or an http(s) URL")
        .default("/media"),
    ),
    // How long a backend's /readyz answer is reused: kubelet probes every pod every few seconds, and each
    // probe of the gateway must not become one probe per backend.
    READINESS_CACHE_MS: z.coerce.number().int().min(0).default(1000),
    // "true": exactly one trusted proxy (the Ingress controller) stands in front of the gateway. Its x-forwarded-for
    // is kept and the socket address appended, so services take the entry before the last as the client address
    // (their per-address throttles). Unset or "false": the caller's x-forwarded-for is dropped.
    TRUST_PROXY: envFlag(false),
  });

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

export function loadGatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  return parseEnv(gatewayConfigSchema, env);
}

/** Base URLs of each catalog service (one, or one per replica), by catalog name. */
export function backendUrls(config: GatewayConfig): Record<string, string[]> {
  const values = config as unknown as Record<string, string>;
  return Object.fromEntries(
    Object.keys(serviceCatalog).map((name) => [name, parseServiceUrls(values[serviceUrlVariable(name)]!)]),
  );
}
