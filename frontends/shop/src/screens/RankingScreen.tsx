import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useState } from "react";
import { LEADERBOARD_TAKE, useCurrentSeason, useLeaderboard, useMyRanking } from "../api/merch.ts";
import { en, es, SHOP_NAMESPACE } from "../i18n.ts";

/** The current season, your ranking in it, and its leaderboard paged with take and skip. */
export function RankingScreen() {
  const { t } = useAppTranslation(SHOP_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const season = useCurrentSeason();
  const mine = useMyRanking();
  const [skip, setSkip] = useState(0);
  const board = useLeaderboard(skip);
  if (season.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (season.isError) return <p role="alert">{errorText(season.error)}</p>;
  if (!season.data) return <p className="tt-muted">{t("ranking.noSeason")}</p>;
  const total = board.data?.total ?? 0;
  return (
    <div className="tt-shop-screen">
      <h2>{t("ranking.season", { name: season.data.seasonName })}</h2>
      <h3>{t("ranking.mine")}</h3>
      {mine.data?.hasCurrentRankingStatus && mine.data.rankingStatus ? (
        <p data-testid="my-rank">
          {t("ranking.myRank", { rank: mine.data.rankingStatus.rank, count: mine.data.rankingStatus.balance })}
        </p>
      ) : (
        <p className="tt-muted">{t("ranking.noRank")}</p>
      )}
      <h3>{t("ranking.leaderboard")}</h3>
      {board.isError ? (
        <p role="alert">{errorText(board.error)}</p>
      ) : (board.data?.rankings.length ?? 0) === 0 ? (
        <p className="tt-muted">{t("ranking.empty")}</p>
      ) : (
        <ol className="tt-shop-leaderboard" start={skip + 1} aria-label={t("ranking.leaderboard")}>
          {board.data!.rankings.map((r) => (
            <li key={r.id}>
              <span>#{r.rank}</span> <span>{r.userUuid.slice(0, 8)}</span>{" "}
              <span className="tt-muted">{t("ranking.points", { count: r.balance })}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="tt-shop-pager">
        <button
          type="button"
          className="tt-button"
          disabled={skip === 0}
          onClick={() => setSkip(Math.max(0, skip - LEADERBOARD_TAKE))}
        >
          {t("ranking.previous")}
        </button>
        <button
          type="button"
          className="tt-button"
          disabled={skip + LEADERBOARD_TAKE >= total}
          onClick={() => setSkip(skip + LEADERBOARD_TAKE)}
        >
          {t("ranking.next")}
        </button>
      </div>
    </div>
  );
}
