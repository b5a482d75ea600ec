// Issue 23 (finding 10): the catalogue's copy of an uploaded song arrives by event, a moment after the upload
// service reports it VERIFIED. A caller that asks in between (upload, then add to the queue at once) must not get
// 404: the catalogue asks the upload service for the song (a service call) and takes it in exactly as the event
// would (the upload service's own mapping of its answer to the event, then applyUploadedSongPublished; the event,
// when it comes, finds the song and only brings it up to date).
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { ServiceClients } from "@tt/kit";
import { UploadedSongPublishedSchema, type UploadedSongPublished } from "@tt/proto/tt/upload/v1/events_pb";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { publishedSong } from "@tt/upload-service/published-song";
import type { Logger } from "pino";

/** The published form of upload `id` when the upload service has it VERIFIED; undefined otherwise. */
export type UploadLookup = (id: string, signal?: AbortSignal) => Promise<UploadedSongPublished | undefined>;

/**
 * Asks the upload service (its client made on first use: a deployment or a test without it still starts, and
 * then only the events fill the catalogue). An id that is no upload id, an unknown or unverified song, and an
 * upload service that cannot be reached all answer undefined (the caller's 404 stands).
 */
export function createUploadLookup(clients: ServiceClients, logger: Logger): UploadLookup {
  let media: Client<typeof MediaService> | undefined;
  return async (id, signal) => {
    if (!/^[1-9]\d{0,9}$/.test(id)) return undefined;
    try {
      media ??= clients.get(MediaService);
      const { song } = await media.getSongById({ id: BigInt(id) }, { signal });
      if (!song || song.status !== "VERIFIED") return undefined;
      return create(UploadedSongPublishedSchema, publishedSong(song));
    } catch (error) {
      if (!(error instanceof ConnectError && error.code === Code.NotFound)) {
        logger.warn({ err: error, upload: id }, "the upload service was not asked for a song the catalogue lacks");
      }
      return undefined;
    }
  };
}
