// The all-in-one process's environment: the kit's, with the database made optional (the embedded
// PostgreSQL stands in) and the gateway's settings.
import { envFlag, kitConfigSchema, parseEnv, unsetIfEmpty } from "@tt/kit";
import { z } from "zod";

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfEmpty, schema.optional());

export const allInOneConfigSchema = kitConfigSchema.extend({
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" })),
  /** Where the embedded PostgreSQL and nats-server keep their data; default <repo>/.data. */
  DATA_DIR: optional(z.string().min(1)),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  BODY_LIMIT_BYTES: optional(z.coerce.number().int().positive()),
  // Largest multipart/form-data body (song and image uploads); the gateway's default (32 MiB) when unset.
  MULTIPART_BODY_LIMIT_BYTES: optional(z.coerce.number().int().positive()),
  // Request-body bytes the gateway holds at once (503 + retry-after beyond); the gateway's default (256 MiB) when unset.
  MAX_BODY_BYTES_IN_FLIGHT: optional(z.coerce.number().int().positive()),
  // As the gateway's (gateway-config.ts): "true" only when one trusted reverse proxy stands in front.
  TRUST_PROXY: envFlag(false),
  CORS_ORIGINS: optional(
    z.string().transform((s) =>
      s
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  ),
});

export type AllInOneConfig = z.output<typeof allInOneConfigSchema>;

export function loadAllInOneConfig(env: Record<string, string | undefined>): AllInOneConfig {
  return parseEnv(allInOneConfigSchema, env);
}
