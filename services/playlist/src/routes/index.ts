import type { ConnectRouter } from "@connectrpc/connect";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { ImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { SongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { crateRoutes } from "./crates.ts";
import { analysisRoutes } from "./analysis.ts";
import { exportRoutes } from "./exports.ts";
import { importRoutes } from "./imports.ts";
import { recentSongRoutes } from "./recent-songs.ts";
import { searchRoutes } from "./search.ts";
import { songDataRoutes } from "./song-data.ts";

/** The services of package tt.playlist.v1, one per area (one proto file and one routes file each; one line each). */
export const PLAYLIST_SERVICES = [
  CrateService,
  CatalogueService,
  RecentSongsService,
  SearchService,
  SongDataService,
  ImportService,
  ExportService,
  AnalysisService,
] as const;

/** Registers every service of the playlist service, each with its area's routes (one line each). */
export function registerPlaylistRoutes(router: ConnectRouter, svc: PlaylistServiceContext): void {
  router.service(CrateService, crateRoutes(svc));
  router.service(CatalogueService, catalogueRoutes(svc));
  router.service(RecentSongsService, recentSongRoutes(svc));
  router.service(SearchService, searchRoutes(svc));
  router.service(SongDataService, songDataRoutes(svc));
  router.service(ImportService, importRoutes(svc));
  router.service(ExportService, exportRoutes(svc));
  router.service(AnalysisService, analysisRoutes(svc));
}
