// A durable consumer's name of this deployment, when none is configured: the purpose's prefix and a hash of the
// database name. Replicas of one deployment share it (each event delivered once between them); two deployments on one
// NATS (test platforms, a staging copy) never take each other's events. The name is also the key of the consumer's
// processed-event rows, so a deployed name must never change: a service whose names were made with fewer hash digits
// keeps them (`hashChars`).
import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";

export interface DeploymentDurableOptions {
  /** A name from the configuration, taken as it is. */
  configured?: string | undefined;
  /** How many hex digits of the hash; 12 unless a service's deployed names have fewer. */
  hashChars?: number;
}

/** `<prefix>-<hash of the database name>`, or the configured name. */
export function deploymentDurable(orm: MikroORM, prefix: string, opts: DeploymentDurableOptions = {}): string {
  if (opts.configured) return opts.configured;
  const hash = createHash("sha256")
    .update(String(orm.config.get("dbName")))
    .digest("hex")
    .slice(0, opts.hashChars ?? 12);
  return `${prefix}-${hash}`;
}
