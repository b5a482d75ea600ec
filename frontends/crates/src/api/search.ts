import { useQuery } from "@tanstack/react-query";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";

/** One provider's results (spec 002 §2: one result list per provider). */
export interface ProviderResults {
  provider: string;
  songs: Song[];
}

/** Search every provider for a term; an empty term is not searched (002 §5). */
export function useSongSearch(term: string) {
  return useQuery({
    queryKey: ["search", term],
    enabled: term.trim() !== "",
    queryFn: async (): Promise<ProviderResults[]> => [],
  });
}
