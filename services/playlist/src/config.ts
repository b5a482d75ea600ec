// The playlist service's configuration, validated once at start: each area's variables, read together with
// parseEnvParts so a bad deployment fails naming every bad variable of every area.
import { z } from "zod";
import { envFlag, parseEnv, parseEnvParts } from "@tt/kit";
import { loadMusicProvidersConfig, type MusicProvidersConfig } from "./providers/config.ts";

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
  /** The durable consumer name prefix of the upload events. Unset: "playlist-catalogue-uploads-" and a hash of the database name. */
  CATALOGUE_UPLOAD_DURABLE: z.string().min(1).max(100).optional(),
});
export type CatalogueConfig = z.output<typeof catalogueConfigSchema>;
export function loadCatalogueConfig(env: Record<string, string | undefined>): CatalogueConfig {
  return parseEnv(catalogueConfigSchema, env);
}

/** The recent-songs area. */
export const recentSongsConfigSchema = z.object({
  /** The durable consumer name prefix of the room events (slug → room uuid). Unset: "playlist-recent-songs-rooms-" and a hash of the database name. */
  RECENT_SONGS_ROOM_DURABLE: z.string().min(1).max(100).optional(),
});
export type RecentSongsConfig = z.output<typeof recentSongsConfigSchema>;
export function loadRecentSongsConfig(env: Record<string, string | undefined>): RecentSongsConfig {
  return parseEnv(recentSongsConfigSchema, env);
}

/** The imports area (playlist imports run as durable jobs). */
export const importConfigSchema = z.object({
  /** Whether this process runs the import worker ("false": it only serves the API, another process imports). */
  IMPORT_WORKER: envFlag(true),
  /** Tracks read from the provider and committed per step of a playlist import. */
  IMPORT_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(50),
  /** Deliveries of an import whose provider is away before the crate is FAILED. */
  IMPORT_MAX_ATTEMPTS: positiveInt(8),
  /** Wait before a failed import step is tried again (doubles each time). */
  IMPORT_RETRY_MS: positiveInt(1000),
  /**
   * The durable consumer name of the import worker (one per deployment). Unset: "playlist-imports-" and a hash
   * of the database name, so two deployments on one NATS (test platforms) never take each other's jobs.
   */
  IMPORT_DURABLE: z.string().min(1).max(100).optional(),
});
export type ImportConfig = z.output<typeof importConfigSchema>;
export function loadImportConfig(env: Record<string, string | undefined>): ImportConfig {
  return parseEnv(importConfigSchema, env);
}

/** Each area's configuration; other areas add one line here and one in loadPlaylistConfig. */
export interface PlaylistAreaConfigs {
  crates: CrateConfig;
  catalogue: CatalogueConfig;
  recentSongs: RecentSongsConfig;
  providers: MusicProvidersConfig;
  imports: ImportConfig;
}

/** The whole configuration of the service; a ConfigError names every bad variable of every area. */
export function loadPlaylistConfig(env: Record<string, string | undefined>): PlaylistAreaConfigs {
  return parseEnvParts(
    {
      crates: loadCrateConfig,
      catalogue: loadCatalogueConfig,
      recentSongs: loadRecentSongsConfig,
      providers: loadMusicProvidersConfig,
      imports: loadImportConfig,
    },
    env,
  );
}
