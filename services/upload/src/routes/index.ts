import type { ConnectRouter } from "@connectrpc/connect";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import type { UploadContext } from "./context.ts";
import { mediaRoutes } from "./media.ts";
import { songRoutes } from "./songs.ts";

/** The services of package tt.upload.v1, one per area. */
export function registerUploadRoutes(router: ConnectRouter, svc: UploadContext): void {
  router.service(SongService, songRoutes(svc));
  router.service(MediaService, mediaRoutes(svc));
}
