// How a service package describes itself to the kit. Each service exports one `ServiceDefinition`; the
// single-service entry (`src/main.ts`), the all-in-one runner and the tests all start it through the kit,
// so every way of running goes through the same code.
import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import type { MigrationObject } from "@mikro-orm/core";
import type { MikroORM, Options } from "@mikro-orm/postgresql";
import type { JSONWebKeySet } from "jose";
import type { Logger } from "pino";
import type { SessionRevocations } from "./auth/revocations.ts";
import type { Bus } from "./bus/bus.ts";
import type { ServiceClients } from "./clients/service-clients.ts";

/** What a service's factory receives. */
export interface ServiceDeps {
  /** This service's ORM: its own PostgreSQL schema, migrations already applied. */
  orm: MikroORM;
  bus: Bus;
  /** Revoking sessions (logout, ban, password change) and asking whether one is revoked. */
  revocations: SessionRevocations;
  logger: Logger;
  /** The process environment (or a test's stand-in); each service validates its own part with zod. */
  env: Record<string, string | undefined>;
  /** Stops background work of the service on shutdown. */
  signal: AbortSignal;
  /**
   * Typed clients of other services (`clients.get(AuthService)`), each call with this service's `service`
   * token and a deadline; get them in `create`, so a missing <NAME>_SERVICE_URL fails the start.
   */
  clients: ServiceClients;
}

/** A running service: its RPC implementations and what the host needs to know about it. */
export interface ServiceInstance {
  /** Registers the implementations (`router.service(Desc, impl)` for each of `definition.services`). */
  routes(router: ConnectRouter): void;
  /** Only the user service: the keys that verify access tokens, for hosts in the same process. */
  verificationKeys?: () => Promise<JSONWebKeySet>;
  /** Checks beyond database and bus that must pass for /readyz. */
  ready?: () => Promise<boolean>;
  /** Stops what `create` started (timers, consumers). */
  close?: () => Promise<void>;
}

export interface ServiceDefinition {
  /** Short name: "user". Also its PostgreSQL schema and the middle of its bus subjects (tt.user.…). */
  name: string;
  /** The proto services it serves; their `google.api.http` rules are what the gateway routes. */
  services: DescService[];
  /** MikroORM entity schemas (`defineEntity`), listed explicitly. */
  entities: NonNullable<Options["entities"]>;
  /** Checked-in migrations (name and class), applied in order at start. */
  migrations: MigrationObject[];
  create(deps: ServiceDeps): Promise<ServiceInstance>;
}
