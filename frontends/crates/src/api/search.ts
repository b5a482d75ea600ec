import { keepPreviousData, useQuery } from "@tanstack/react-query";
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
