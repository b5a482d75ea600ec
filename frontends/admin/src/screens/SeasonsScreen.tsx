import type { RankingStatus, Season } from "@tt/proto/tt/merch/v1/merch_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { CalendarPlus, Pencil, Trash } from "lucide-react";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { UserRef } from "./refs.tsx";
import { adminPage, localInputOf, timestampOfInput, useAdminFormat } from "./format.ts";
import { useSeasons } from "./seasons.ts";

/** Seasons and, below them, the rankings of every season. */
export default function SeasonsScreen() {
  const points = useClient(PointsService);
  const { t, date, number } = useAdminFormat();
  const choices = useSeasons();
  const seasons = useMemo<ResourceDescription<Season>>(
    () => ({
      key: "seasons",
      title: t("section_seasons"),
      rowKey: (s) => s.id,
      rowName: (s) => s.seasonName,
      defaultSort: { field: "seasonStart", dir: "DESC" },
      emptyBody: t("emptyBody_seasons"),
      columns: [
        { field: "seasonName", label: t("col_name"), sortable: true, fixed: true, render: (s) => s.seasonName },
        {
          field: "seasonStart",
          label: t("col_seasonStart"),
          sortable: true,
          descFirst: true,
          render: (s) => date(s.seasonStart),
        },
      ],
      filters: [{ id: "name", field: "seasonName", op: "$contL", label: t("col_name") }],
      listActions: [
        {
          id: "create",
          label: t("action_createSeason"),
          icon: <CalendarPlus />,
          confirmLabel: t("create"),
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
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (s) => t("title_edit", { name: s.seasonName }),
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
          icon: <Trash />,
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
      emptyBody: t("emptyBody_rankings"),
      columns: [
        { field: "rank", label: t("col_rank"), align: "end", render: (r) => (r.rank ? number(r.rank) : t("none")) },
        { field: "userUuid", label: t("col_user"), fixed: true, render: (r) => <UserRef uuid={r.userUuid} /> },
        { field: "seasonId", label: t("col_season"), render: (r) => choices.nameOf(r.seasonId) ?? t("none") },
        {
          field: "balance",
          label: t("col_balance"),
          sortable: true,
          descFirst: true,
          align: "end",
          render: (r) => number(r.balance),
        },
      ],
      filters: [
        { id: "user", field: "userUuid", op: "$eq", label: t("col_user"), type: "user" },
        { id: "season", field: "seasonId", op: "$eq", label: t("col_season"), options: choices.options },
      ],
      list: async (query) => adminPage(await points.adminListRankingStatuses({ query })),
    }),
    [t, number, points, choices],
  );
  return (
    <div className="tt-admin-sections">
      <ResourceList description={seasons} />
      <ResourceList description={rankings} heading={t("section_rankings")} />
    </div>
  );
}
