// SearchService (002 §2, §5, §9): one result list per provider. The platform's catalogue is always searched
// (the development default: uploaded and imported songs, no credentials needed); each outside provider only
// when configured. An empty term is not searched; explicit=false leaves explicit songs out; /search/v2 merges
// the catalogue and SoundCloud lists (first five catalogue results, then alternating).
import { ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, escapeLike, kIdentity } from "@tt/kit";
import { ProviderError, toConnectProviderError } from "@tt/providers";
import type { ProviderResults, SearchRequest, SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import type { Song as SongMessage } from "@tt/proto/tt/playlist/v1/song_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { songMessage } from "../modules/catalogue/catalogue.ts";
import { SongProviderId } from "../modules/catalogue/song-provider-id.entity.ts";
import { Song } from "../modules/catalogue/song.entity.ts";
import { labelOf, trackMessage } from "../modules/song-data/provider-songs.ts";
import type { MusicProviders } from "../providers/index.ts";
import type { ProviderSearchPage, ProviderTrack } from "../providers/track.ts";
import { mergeCatalogueAndSoundCloud } from "../music/search-merge.ts";

/** 002 §9: search page size 20. */
export const SEARCH_PAGE = 20;
export const CATALOGUE_LIST = "catalogue";

type Impl = ServiceImpl<typeof SearchService>;

/** The catalogue's songs whose track or artist name contains the term (any case), newest first. */
export async function searchCatalogue(
  em: EntityManager,
  term: string,
  includeExplicit: boolean,
  offset: number,
  limit: number,
): Promise<{ songs: Song[]; more: boolean }> {
  const like = `%${escapeLike(term.toLowerCase())}%`;
  const songs = await em.find(
    Song,
    {
      available: true,
      public: true,
      ...(includeExplicit ? {} : { explicit: false }),
      $or: [{ trackKey: { $like: like } }, { artistKey: { $like: like } }],
    },
    { orderBy: { createdAt: "desc", id: "asc" }, limit: limit + 1, offset },
  );
  return { songs: songs.slice(0, limit), more: songs.length > limit };
}

/** Provider results as wire songs, each the catalogue's song when the catalogue already has it. */
async function asSongs(em: EntityManager, tracks: ProviderTrack[]): Promise<SongMessage[]> {
  if (tracks.length === 0) return [];
  const rows = await em.find(
    SongProviderId,
    { $or: tracks.map((t) => ({ provider: t.provider, providerId: t.providerId })) },
    { populate: ["song"] },
  );
  const known = new Map(rows.map((r) => [`${r.provider}\u0000${r.providerId}`, r.song as Song]));
  return tracks.map((t) => {
    const song = known.get(`${t.provider}\u0000${t.providerId}`);
    return song ? songMessage(song) : trackMessage(t);
  });
}

interface OutsideSearch {
  provider: string;
  run: () => Promise<ProviderSearchPage>;
}

function outsideSearches(
  providers: MusicProviders,
  term: string,
  country: string,
  offset: number,
  limit: number,
): OutsideSearch[] {
  const list: OutsideSearch[] = [];
  if (providers.spotify) list.push({ provider: "spotify", run: () => providers.spotify!.search(term, offset, limit) });
  if (providers.apple) list.push({ provider: "apple", run: () => providers.apple!.search(term, offset, country) });
  if (providers.soundcloud)
    list.push({ provider: "soundCloudPublic", run: () => providers.soundcloud!.search(term, offset, limit) });
  if (providers.audius) list.push({ provider: "audius", run: () => providers.audius!.search(term, offset, limit) });
  if (providers.sevenDigital)
    list.push({ provider: "sevenDigital", run: () => providers.sevenDigital!.search({ term, country, offset }) });
  return list;
}

/** Orders the lists by the user's preferred providers (their musicProviders), the catalogue first. */
export function orderByPreference(lists: ProviderResults[], preferred: readonly string[]): ProviderResults[] {
  const rank = (provider: string) => {
    if (provider === CATALOGUE_LIST) return -1;
    const alias = provider === "soundCloudPublic" ? "soundcloud" : provider;
    const at = preferred.findIndex((p) => p === provider || p === alias);
    return at === -1 ? preferred.length : at;
  };
  return [...lists].sort((a, b) => rank(a.musicProvider) - rank(b.musicProvider));
}

export function searchRoutes(svc: PlaylistServiceContext): Impl {
  const providers = svc.music.providers;

  async function search(req: SearchRequest, ctx: HandlerContext, merged: boolean) {
    const term = req.q.trim();
    const limit = req.limit === 0 ? SEARCH_PAGE : req.limit;
    const offset = req.offset;
    const country = (req.country || "US").toUpperCase();
    // 002 §5: an empty term is not searched.
    if (term === "") return { results: [] };
    const identity = ctx.values.get(kIdentity);
    const preferences = await svc.music.preferences(identity, ctx.signal);
    const includeExplicit = req.explicit !== false && preferences.allowExplicitAudio !== false;

    const em = callEm(ctx);
    const catalogue = await searchCatalogue(em, term, includeExplicit, offset, limit);
    const searches = outsideSearches(providers, term, country, offset, limit);
    if (providers.soundcloud && identity?.tokenType === "user") {
      // The user's own SoundCloud tracks (login needed), filtered by name in any case (002 §5).
      const user = svc.music.soundCloudUserToken(identity.subject, ctx.signal);
      searches.push({
        provider: "soundcloud",
        run: async () => ({ tracks: offset === 0 ? await providers.soundcloud!.myTracks(user, term, limit) : [] }),
      });
    }
    const outside = await Promise.all(
      searches.map(async ({ provider, run }) => {
        try {
          const page = await run();
          const tracks = page.tracks.filter((t) => includeExplicit || !t.explicit).slice(0, limit);
          return { provider, page: { ...page, tracks }, error: "" };
        } catch (error) {
          // A user who linked no SoundCloud account has no private list.
          if (
            provider === "soundcloud" &&
            error instanceof ConnectError &&
            /not connected|not reachable/.test(error.rawMessage)
          ) {
            return undefined;
          }
          svc.logger.warn({ err: error, provider }, "provider search failed");
          if (provider === "soundcloud" && error instanceof ProviderError && error.kind === "rejected") {
            // A private SoundCloud error asks the user to authorise again (002 §8).
            return {
              provider,
              page: { tracks: [] },
              error: "SoundCloud refused the connection: connect SoundCloud again",
            };
          }
          const mapped = toConnectProviderError(error, labelOf(provider), {
            unavailable: `${labelOf(provider)} is not available`,
          });
          return {
            provider,
            page: { tracks: [] },
            error: mapped instanceof ConnectError ? mapped.rawMessage : `${labelOf(provider)} is not available`,
          };
        }
      }),
    );
    let results: ProviderResults[] = [
      {
        $typeName: "tt.playlist.v1.ProviderResults",
        musicProvider: CATALOGUE_LIST,
        songs: catalogue.songs.map(songMessage),
        nextOffset: catalogue.more ? offset + limit : 0,
        error: "",
      },
    ];
    for (const { provider, page, error } of outside.filter((o) => o !== undefined)) {
      results.push({
        $typeName: "tt.playlist.v1.ProviderResults",
        musicProvider: provider,
        songs: await asSongs(em, page.tracks),
        nextOffset: page.nextOffset ?? 0,
        error,
      });
    }
    if (merged) {
      const soundcloud = results.find((r) => r.musicProvider === "soundCloudPublic");
      if (soundcloud) {
        const head = results[0]!;
        head.songs = mergeCatalogueAndSoundCloud(head.songs, soundcloud.songs);
        results = results.filter((r) => r !== soundcloud);
      }
    }
    return { results: orderByPreference(results, preferences.musicProviders) };
  }

  return {
    search: (req, ctx) => search(req, ctx, false),
    searchV2: (req, ctx) => search({ ...req, $typeName: "tt.playlist.v1.SearchRequest" }, ctx, true),
  };
}
