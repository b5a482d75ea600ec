// The playlist service's configuration, validated once at start: each area's variables, read together with
// parseEnvParts so a bad deployment fails naming every bad variable of every area.
import { z } from "zod";
import { parseEnv, parseEnvParts } from "@tt/kit";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The crates area (002 §9 page sizes are the protos' maxima; these are the defaults). */
export const crateConfigSchema = z.object({
  /** Songs a crate may hold at most (a bench crate holds 10,000). */
  CRATE_MAX_SONGS: positiveInt(20_000),
  /** Crates a user may keep at most (the special ones included). */
  CRATE_MAX_CRATES: positiveInt(1_000),
});
export type CrateConfig = z.output<typeof crateConfigSchema>;
export function loadCrateConfig(env: Record<string, string | undefined>): CrateConfig {
  return parseEnv(crateConfigSchema, env);
}

/** The catalogue area. */
export const catalogueConfigSchema = z.object({
  /** The durable consumer name of the upload events (one per deployment). */
  CATALOGUE_UPLOAD_DURABLE: z.string().min(1).max(100).default("playlist-catalogue-uploads"),
});
export type CatalogueConfig = z.output<typeof catalogueConfigSchema>;
export function loadCatalogueConfig(env: Record<string, string | undefined>): CatalogueConfig {
  return parseEnv(catalogueConfigSchema, env);
}

/** Each area's configuration; other areas add one line here and one in loadPlaylistConfig. */
export interface PlaylistAreaConfigs {
  crates: CrateConfig;
  catalogue: CatalogueConfig;
}

/** The whole configuration of the service; a ConfigError names every bad variable of every area. */
export function loadPlaylistConfig(env: Record<string, string | undefined>): PlaylistAreaConfigs {
  return parseEnvParts(
    {
      crates: loadCrateConfig,
      catalogue: loadCatalogueConfig,
    },
    env,
  );
}
