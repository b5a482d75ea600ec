import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";

/**
 * A durable consumer name for this deployment when none is configured: `prefix` and a hash of the database
 * name. Replicas of one deployment share it (one delivery each event); two deployments on one NATS (test
 * platforms, a staging copy) never take each other's events.
 */
export function deploymentDurable(orm: MikroORM, prefix: string, configured: string | undefined): string {
  if (configured) return configured;
  const hash = createHash("sha256")
    .update(String(orm.config.get("dbName")))
    .digest("hex")
    .slice(0, 12);
  return `${prefix}-${hash}`;
}
