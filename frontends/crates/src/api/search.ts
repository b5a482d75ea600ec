import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { PAGE_SIZE } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";

/** One provider's results (spec 002 §2: one result list per provider). */
export interface ProviderResults {
  provider: string;
  songs: Song[];
  /** Set when this provider failed; the other lists still answer. */
  error: string;
}

/** Search every provider for a term, 20 a list (002 §9); an empty term is not searched (002 §5). */
export function useSongSearch(term: string) {
  const client = useClient(SearchService);
  return useQuery({
    queryKey: ["search", term],
    enabled: term.trim() !== "",
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<ProviderResults[]> => {
      const { results } = await client.search({ q: term, limit: PAGE_SIZE.search }, { signal });
      return results.map((list) => ({ provider: list.musicProvider, songs: list.songs, error: list.error }));
    },
  });
}

/** The demo catalogue changes only when a fresh install seeds it: asked again after ten minutes. */
const START_HERE_STALE_MS = 10 * 60 * 1000;

export const START_HERE_KEY = ["start-here"] as const;

/**
 * The catalogue's seeded demo songs (GET /api/v1/songs?demo=true, newest first), for the "Start here" shelf; none
 * in production, where nothing seeds them.
 */
export function useStartHereSongs() {
  const client = useClient(CatalogueService);
  return useQuery({
    queryKey: START_HERE_KEY,
    staleTime: START_HERE_STALE_MS,
    queryFn: async ({ signal }): Promise<Song[]> =>
      (await client.listSongs({ demo: true, limit: PAGE_SIZE.search }, { signal })).songs,
  });
}
