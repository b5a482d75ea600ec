import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { SongSchema, type Song } from "@tt/proto/tt/playlist/v1/song_pb";

export interface TestCatalogue {
  routes: (router: ConnectRouter) => void;
  /** The catalogue's songs, newest first (as ListSongs orders them). */
  songs: Song[];
  /** Every ListSongs request's demo filter, in order (undefined: unset). */
  demoFilters: (boolean | undefined)[];
}

/** A demo song as the upload service seeds it (public, labelled, owned by the demo account). */
export function demoCatalogueSong(title: string, index: number, init: MessageInitShape<typeof SongSchema> = {}): Song {
  return create(SongSchema, {
    songId: `00000000-0000-4000-8000-0000000d${String(index).padStart(4, "0")}`,
    trackName: `Demo: ${title}`,
    artistName: "turntable demo",
    albumName: "Demo catalogue (synthesised)",
    duration: 30 + index,
    demo: true,
    available: true,
    musicProviders: { uploadService: String(100 + index) },
    ...init,
  });
}

/**
 * The catalogue's GET /api/v1/songs in memory (the filters the crates screens use: demo, limit and offset), served
 * through Connect's router transport like the crate service's fake.
 */
export function createTestCatalogue(songs: Song[] = []): TestCatalogue {
  const demoFilters: (boolean | undefined)[] = [];
  const catalogue: TestCatalogue = {
    songs,
    demoFilters,
    routes(router) {
      router.service(CatalogueService, {
        listSongs(request) {
          demoFilters.push(request.demo);
          const limit = request.limit || 20;
          if (limit > 100) throw new ConnectError("limit must be 1–100", Code.InvalidArgument);
          const matching = catalogue.songs.filter(
            (song) => song.available && (request.demo === undefined || song.demo === request.demo),
          );
          const page = matching.slice(request.offset, request.offset + limit);
          return { songs: page, total: matching.length, limit, offset: request.offset };
        },
      });
    },
  };
  return catalogue;
}
