import type { RankingStatus, Season } from "@tt/proto/tt/merch/v1/merch_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { adminPage, localInputOf, timestampOfInput, useFormat } from "./format.ts";

/** Seasons and, below them, the rankings of every season. */
export default function SeasonsScreen() {
  const points = useClient(PointsService);
  const { t, date } = useFormat();
  const seasons = useMemo<ResourceDescription<Season>>(
    () => ({
      key: "seasons",
      title: t("section_seasons"),
      rowKey: (s) => s.id,
      rowName: (s) => s.seasonName,
      defaultSort: { field: "seasonStart", dir: "DESC" },
      columns: [
        { field: "seasonName", label: t("col_name"), sortable: true, render: (s) => s.seasonName },
        { field: "seasonStart", label: t("col_seasonStart"), sortable: true, render: (s) => date(s.seasonStart) },
      ],
      filters: [{ id: "name", field: "seasonName", op: "$contL", label: t("col_name") }],
      listActions: [
        {
          id: "create",
          label: t("action_createSeason"),
          question: t("confirm_createSeason"),
          fields: [
            { name: "seasonName", label: t("col_name"), required: true },
            { name: "seasonStart", label: t("col_seasonStart"), type: "datetime", required: true },
          ],
          run: (v) => {
            const seasonStart = timestampOfInput(v.seasonStart);
            return points.createSeason({ seasonName: v.seasonName ?? "", ...(seasonStart ? { seasonStart } : {}) });
          },
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          question: (s) => t("confirm_edit", { name: s.seasonName }),
          fields: (s) => [
            { name: "seasonName", label: t("col_name"), required: true, initial: s.seasonName },
            {
              name: "seasonStart",
              label: t("col_seasonStart"),
              type: "datetime",
              required: true,
              initial: localInputOf(s.seasonStart),
            },
          ],
          run: (s, v) => {
            const seasonStart = timestampOfInput(v.seasonStart);
            return points.updateSeason({
              id: s.id,
              seasonName: v.seasonName ?? "",
              ...(seasonStart ? { seasonStart } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (s) => t("confirm_delete", { name: s.seasonName }),
          run: (s) => points.adminDeleteSeason({ id: s.id }),
        },
      ],
      list: async (query) => adminPage(await points.adminListSeasons({ query })),
    }),
    [t, date, points],
  );
  const rankings = useMemo<ResourceDescription<RankingStatus>>(
    () => ({
      key: "rankings",
      title: t("section_rankings"),
      rowKey: (r) => r.id,
      rowName: (r) => r.userUuid,
      defaultSort: { field: "balance", dir: "DESC" },
      columns: [
        { field: "userUuid", label: t("col_user"), render: (r) => r.userUuid },
        { field: "seasonId", label: t("col_season"), render: (r) => r.seasonId },
        { field: "balance", label: t("col_balance"), sortable: true, render: (r) => r.balance },
        { field: "rank", label: t("col_rank"), render: (r) => r.rank },
      ],
      filters: [
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user") },
        { id: "season", field: "seasonId", op: "$eq", label: t("col_season") },
      ],
      list: async (query) => adminPage(await points.adminListRankingStatuses({ query })),
    }),
    [t, points],
  );
  return (
    <>
      <ResourceList description={seasons} />
      <h2 className="tt-admin-subtitle">{t("section_rankings")}</h2>
      <ResourceList description={rankings} />
    </>
  );
}
