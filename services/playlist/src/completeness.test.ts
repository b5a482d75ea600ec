// The playlist service is complete: every RPC of its services has an implementation (the host starts it), and
// every documented /api/playlist-service operation (specification operations.tsv, the rows copied below) is
// routed by the gateway's own route table to an RPC of the service, with literal segments winning over
// variables as the gateway matches them (GET /crate/special/queue is GetQueue, not GetCrate).
import { describe, expect, it } from "vitest";
import { expectEveryOperationRouted, expectEveryRpcImplemented, expectSpecificationRows } from "@tt/kit/testing";
import { buildRouteTable } from "@tt/gateway/routes";
import { PLAYLIST_SERVICES, playlistServiceDefinition } from "./index.ts";

/** The /api/playlist-service rows of operations.tsv (method and path), as the specification lists them. */
export const PLAYLIST_OPERATIONS = [
  "POST /api/playlist-service/crate",
  "PUT /api/playlist-service/crate/{crateId}/copy",
  "GET /api/playlist-service/crate/user",
  "GET /api/playlist-service/crate/user/{userUuid}",
  "GET /api/playlist-service/crate/{crateId}",
  "GET /api/playlist-service/crate/{crateUuid}/songs",
  "POST /api/playlist-service/crate/{crateUuid}/songs",
  "PUT /api/playlist-service/crate/{crateUuid}/current-position",
  "DELETE /api/playlist-service/crate/{crateUuid}/songs/{crateSongUuid}",
  "PUT /api/playlist-service/crate/{crateUuid}/songs/{crateSongUuid}/position",
  "DELETE /api/playlist-service/crate/{crateUuid}",
  "PATCH /api/playlist-service/crate/{crateUuid}",
  "POST /api/playlist-service/crate/{crateUuid}/songs/shuffle",
  "GET /api/playlist-service/crate/special/queue",
  "GET /api/playlist-service/crate/special/queue/songs",
  "POST /api/playlist-service/crate/special/queue/songs",
  "PUT /api/playlist-service/crate/special/queue/current-position",
  "DELETE /api/playlist-service/crate/special/queue/songs/{crateSongUuid}",
  "PUT /api/playlist-service/crate/special/queue/songs/{crateSongUuid}/position",
  "POST /api/playlist-service/crate/special/queue/songs/clear",
  "POST /api/playlist-service/crate/special/queue/songs/shuffle",
  "GET /api/playlist-service/crate/special/likes",
  "GET /api/playlist-service/crate/special/likes/songs",
  "POST /api/playlist-service/crate/special/likes/songs",
  "PUT /api/playlist-service/crate/special/likes/current-position",
  "DELETE /api/playlist-service/crate/special/likes/songs/{crateSongUuid}",
  "PUT /api/playlist-service/crate/special/likes/songs/{crateSongUuid}/position",
  "POST /api/playlist-service/crate/special/likes/songs/clear",
  "POST /api/playlist-service/crate/special/likes/songs/shuffle",
  "GET /api/playlist-service/crate/service/all-crates",
  "GET /api/playlist-service/crate/service/{crateShortId}/songs",
  "GET /api/playlist-service/albums/service/all-albums",
  "GET /api/playlist-service/albums/service/{albumShortId}/songs",
  "GET /api/playlist-service/albums/service/all-songs",
  "GET /api/playlist-service/albums/service/{songShortId}/song",
  "GET /api/playlist-service/artists/service/all-artists",
  "GET /api/playlist-service/artists/service/{artistShortId}/albums",
  "POST /api/playlist-service/artists/service/albums-by-artists",
  "POST /api/playlist-service/exports/spotify",
  "POST /api/playlist-service/exports/apple",
  "POST /api/playlist-service/rooms/{slug}/recent-songs",
  "GET /api/playlist-service/rooms/{slug}/recent-songs",
  "GET /api/playlist-service/search",
  "GET /api/playlist-service/search/v2",
  "GET /api/playlist-service/song-data/{link}",
  "GET /api/playlist-service/song-data/{providerSongId}/{musicProvider}",
  "GET /api/playlist-service/song-data/{providerSongId}/{musicProvider}/providers",
  "GET /api/playlist-service/song-data/{providerSongId}/{musicProvider}/service",
  "GET /api/playlist-service/song-data/stream/{country}/{id}",
  "GET /api/playlist-service/song-data/preview/{country}/{id}",
  "POST /api/playlist-service/song-data/migrate-links",
  "POST /api/playlist-service/api/v1/track-import",
  "POST /api/playlist-service/api/v1/playlists/{crateUuid}/tracks",
  "GET /api/playlist-service/api/v1/songs",
  "GET /api/playlist-service/api/v1/songs/{songId}",
  "POST /api/playlist-service/cyanite/webhook",
];

/**
 * Operations whose area has not registered its service yet (the providers area). Shrinks to empty; the test
 * fails when an operation is missing that is not listed here, and when one listed here is served already.
 */
const NOT_YET_SERVED: string[] = [];

/** A concrete path for a template: each {variable} becomes a sample value its field rules accept. */
function concrete(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    /uuid|Id$|crateId/i.test(name) && !/ShortId|providerSongId/.test(name)
      ? "3f0e9b7e-8a3c-4f4e-9d55-0123456789ab"
      : "sample1",
  );
}

describe("tt.playlist.v1 completeness", () => {
  it("implements every RPC of the protos (the host starts it)", async () => {
    await expectEveryRpcImplemented(playlistServiceDefinition, { services: PLAYLIST_SERVICES, bus: "memory" });
  });

  it("the copied rows are the specification's (when the specification is at hand)", () => {
    expectSpecificationRows("/api/playlist-service", PLAYLIST_OPERATIONS);
  });

  it("routes every documented operation through the gateway's route table", () => {
    const table = buildRouteTable([{ services: [...PLAYLIST_SERVICES] }]);
    // Variables stay where the specification has them (renamed to snake_case at most).
    expectEveryOperationRouted(table, PLAYLIST_OPERATIONS, { concrete, notYetServed: NOT_YET_SERVED });
  });

  it("sends the special crates' literal paths to their own RPCs", () => {
    const table = buildRouteTable([{ services: [...PLAYLIST_SERVICES] }]);
    const name = (verb: string, path: string) => table.match(verb, `/api/playlist-service${path}`).value.method.name;
    expect(name("GET", "/crate/special/queue")).toBe("GetQueue");
    expect(name("GET", "/crate/special/likes/songs")).toBe("ListLikesSongs");
    expect(name("POST", "/crate/special/queue/songs/clear")).toBe("ClearQueueSongs");
    expect(name("GET", "/crate/user")).toBe("ListMyCrates");
    expect(name("GET", "/crate/service/all-crates")).toBe("ListAllCrates");
    expect(name("GET", "/albums/service/all-songs")).toBe("ListAllSongs");
  });
});
