export { startAllInOne } from "./all-in-one.ts";
export {
  loadServiceDefinitions,
  nonServicePackages,
  serviceCatalogue,
  serviceNames,
  serviceWorkers,
} from "./catalogue.ts";
export { openBus } from "./bus.ts";
export { allInOneConfigSchema, loadAllInOneConfig } from "./config.ts";
export { startDistributed } from "./distributed.ts";
export { startEmbeddedPostgres } from "./embedded-postgres.ts";

export type { AllInOne, AllInOneOptions } from "./all-in-one.ts";
export type { BusHandle } from "./bus.ts";
export type { CatalogueEntry, WorkerWorkload } from "./catalogue.ts";
export type { AllInOneConfig } from "./config.ts";
export type { EmbeddedPostgresHandle } from "./embedded-postgres.ts";
