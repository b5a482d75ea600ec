import type { ConnectRouter } from "@connectrpc/connect";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { crateRoutes } from "./crates.ts";
import { recentSongRoutes } from "./recent-songs.ts";

/** The services of package tt.playlist.v1, one per area (one proto file and one routes file each; one line each). */
export const PLAYLIST_SERVICES = [CrateService, CatalogueService, RecentSongsService] as const;

/** Registers every service of the playlist service, each with its area's routes (one line each). */
export function registerPlaylistRoutes(router: ConnectRouter, svc: PlaylistServiceContext): void {
  router.service(CrateService, crateRoutes(svc));
  router.service(CatalogueService, catalogueRoutes(svc));
  router.service(RecentSongsService, recentSongRoutes(svc));
}
