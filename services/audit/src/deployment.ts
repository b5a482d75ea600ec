import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";

/**
 * A name for this deployment's durable consumers and stream: the configured one, else `<prefix>-<hash of the
 * database name>`, so deployments (and test databases) that share one NATS never share a consumer.
 */
export function deploymentName(orm: MikroORM, prefix: string, configured: string | undefined): string {
  if (configured) return configured;
  const hash = createHash("sha256")
    .update(String(orm.config.get("dbName")))
    .digest("hex")
    .slice(0, 12);
  return `${prefix}-${hash}`;
}
