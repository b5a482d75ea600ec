// The one list of the platform's backend services, in start order. Everything else that names the services is
// derived from it or checked against it by a test:
// - the all-in-one runner hosts `loadServiceDefinitions()` in this order; the distributed runner starts one process
//   per entry (services/<name>/src/main.ts, with the environment the chart gives that Deployment), side by side as a
//   cluster does (record 0346);
// - the standalone gateway's `serviceCatalog` (gateway/src/catalog.ts) names each service's proto descriptors
//   only, since the gateway must not load service code; catalogue.test.ts checks it holds exactly each
//   definition's `services`;
// - the `e2e-distributed` Vitest project runs `tests/e2e/<name>-*.e2e.test.ts` of every entry (vitest.config.ts);
// - the chart's `services.<name>` entries are checked against it (tests/deploy/chart.test.ts), and so are the
//   worker Deployments of each entry's `workers` (`services.<name>.workers.<role>`).
// Each definition is loaded lazily, so reading the names (the Vitest config, the distributed supervisor) loads no
// service code.
import type { ServiceDefinition } from "@tt/kit";

export interface CatalogueEntry {
  /** The service's name: its definition's `name`, `services/<name>`, the chart's `services.<name>`. */
  name: string;
  /** Its ServiceDefinition (protos, entities, migrations, create), imported on first use. */
  load(): Promise<ServiceDefinition>;
  /**
   * Roles of worker processes the service runs beside the one behind its Service: the chart renders a
   * Deployment `<name>-<role>` for each (same image and program, `<NAME>_ROLE=<role>`, no Service), and the
   * process behind the Service then runs `<NAME>_ROLE=api`. Distributed mode starts each as its own process.
   */
  workers?: readonly string[];
}

/** A worker Deployment of a service: `upload-worker` runs the upload service with UPLOAD_ROLE=worker. */
export interface WorkerWorkload {
  /** `<service>-<role>`: the chart's component and Deployment suffix, distributed mode's process name. */
  name: string;
  service: string;
  role: string;
}

/** Every backend service, in start order: the user service first (it holds the token keys). */
export const serviceCatalogue: readonly CatalogueEntry[] = [
  { name: "user", load: async () => (await import("@tt/user-service")).userServiceDefinition },
  {
    name: "upload",
    load: async () => (await import("@tt/upload-service")).uploadServiceDefinition,
    // Packaging (FFmpeg) scales on its own: UPLOAD_ROLE=worker consumes the packaging jobs.
    workers: ["worker"],
  },
  { name: "playlist", load: async () => (await import("@tt/playlist-service")).playlistServiceDefinition },
  { name: "merch", load: async () => (await import("@tt/merch-service")).merchServiceDefinition },
  { name: "payment", load: async () => (await import("@tt/payment-service")).paymentServiceDefinition },
  {
    name: "room",
    load: async () => (await import("@tt/room-service")).roomServiceDefinition,
    // Deliveries to a DJ's 100,000 fans or every device run apart from the calls (ROOM_ROLE=notify, issue 29).
    workers: ["notify"],
  },
  { name: "audit", load: async () => (await import("@tt/audit-service")).auditServiceDefinition },
  { name: "social", load: async () => (await import("@tt/social-service")).socialServiceDefinition },
];

/**
 * The packages under services/ that are not services of the catalogue: libraries and runners, with no Deployment of
 * their own (the service kit, the platform's runners, the bot kit, the resident DJ: a bot, deployed by the chart's
 * `residentDj` values, and the small libraries some services share: @tt/providers, @tt/image-type). Every other
 * services/<name> package is a service.
 */
export const nonServicePackages: readonly string[] = [
  "kit",
  "platform",
  "bot",
  "resident-dj",
  "providers",
  "image-type",
];

/** The services' names, in start order. */
export const serviceNames: readonly string[] = serviceCatalogue.map((entry) => entry.name);

/** Every worker Deployment, in the services' start order. */
export const serviceWorkers: readonly WorkerWorkload[] = serviceCatalogue.flatMap((entry) =>
  (entry.workers ?? []).map((role) => ({ name: `${entry.name}-${role}`, service: entry.name, role })),
);

/** Every service's definition, in start order; refuses an entry whose definition carries another name. */
export async function loadServiceDefinitions(
  catalogue: readonly CatalogueEntry[] = serviceCatalogue,
): Promise<ServiceDefinition[]> {
  return Promise.all(
    catalogue.map(async (entry) => {
      const definition = await entry.load();
      if (definition.name !== entry.name) {
        throw new Error(`the service catalogue names "${entry.name}" but its definition is named "${definition.name}"`);
      }
      return definition;
    }),
  );
}
