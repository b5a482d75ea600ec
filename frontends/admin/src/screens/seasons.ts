import { useQuery } from "@tanstack/react-query";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";

/** The most recent seasons (up to 100), to pick one by name instead of typing its id. */
export function useSeasons() {
  const points = useClient(PointsService);
  const seasons = useQuery({
    queryKey: ["adminList", "seasons", "choices"],
    queryFn: async () => (await points.adminListSeasons({ query: { limit: 100, sort: ["seasonStart,DESC"] } })).data,
    staleTime: 60_000,
  });
  return useMemo(() => {
    const list = seasons.data ?? [];
    return {
      options: list.map((season) => ({ value: season.id, label: season.seasonName })),
      nameOf: (id: string) => list.find((season) => season.id === id)?.seasonName,
    };
  }, [seasons.data]);
}
