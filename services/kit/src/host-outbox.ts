// The host's share of a service's events: a service that lists the kit's outbox migration gets its durable
// stream (`eventStreamOf(name)`) and its outbox relay from the host, so a new service cannot forget either.
// The service only writes events (`publishEvent`) in the transaction of the change they announce.
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "./bus/bus.ts";
import type { BusLogger } from "./bus/bus-logger.ts";
import { eventStreamOf } from "./bus/events.ts";
import { OUTBOX_MIGRATION_NAME, OutboxMessage, OutboxMessageSchema, startOutboxRelay } from "./bus/outbox.ts";
import type { ServiceDefinition } from "./service.ts";

/** Whether the definition lists the kit's outbox migration (`outboxMigration(name)`). */
export function usesOutbox(definition: Pick<ServiceDefinition, "migrations">): boolean {
  return definition.migrations.some((m) => m.name === OUTBOX_MIGRATION_NAME);
}

/**
 * The outbox needs both its migration (the table) and its entity (`publishEvent` creates rows through the
 * ORM): a definition with one and not the other would fail on its first event, so it does not start.
 */
export function assertOutboxDeclared(definition: Pick<ServiceDefinition, "name" | "migrations" | "entities">): void {
  const migration = usesOutbox(definition);
  const entity = definition.entities.some((e) => e === OutboxMessageSchema || e === OutboxMessage);
  if (migration && !entity) {
    throw new Error(`${definition.name} lists outboxMigration but not the OutboxMessageSchema entity`);
  }
  if (entity && !migration) {
    throw new Error(
      `${definition.name} lists the OutboxMessageSchema entity but not outboxMigration("${definition.name}")`,
    );
  }
}

export interface ServiceOutbox {
  /** Stops the relay after its round in progress; settles once it has stopped (before the ORM may close). */
  stop(): Promise<void>;
}

/**
 * For a definition that uses the outbox: creates its stream and starts its relay on `orm`. Several replicas
 * each run one; the relay's advisory lock lets one publish at a time. Undefined for a service without events.
 */
export async function startServiceOutbox(
  definition: Pick<ServiceDefinition, "name" | "migrations">,
  deps: { orm: MikroORM; bus: Bus; logger: BusLogger },
): Promise<ServiceOutbox | undefined> {
  if (!usesOutbox(definition)) return undefined;
  const stream = eventStreamOf(definition.name);
  await deps.bus.ensureStream(stream.name, stream.subjects);
  const lifetime = new AbortController();
  const relay = startOutboxRelay({ orm: deps.orm, bus: deps.bus, signal: lifetime.signal, logger: deps.logger });
  return {
    stop() {
      lifetime.abort();
      return relay.stopped;
    },
  };
}
