import { useErrorText } from "@tt/web-kit";
import { Avatar, Button, Card, EmptyState, ErrorMessage, Skeleton, useFormat } from "@tt/web-kit/ui";
import { ChevronLeft, ChevronRight, Headphones, Trophy } from "lucide-react";
import { useState } from "react";
import { LEADERBOARD_TAKE, useLeaderboard, useMyRanking, useProfiles } from "../api/merch.ts";
import { ShellLink, useShopT } from "./shared.tsx";

/** The current season, your ranking in it, and its leaderboard paged with take and skip. */
export function RankingScreen() {
  const { t } = useShopT();
  const errorText = useErrorText();
  const format = useFormat();
  const mine = useMyRanking();
  const [skip, setSkip] = useState(0);
  const board = useLeaderboard(skip);
  const rows = board.data?.rankings ?? [];
  const profiles = useProfiles(rows.map((r) => r.userUuid));
  if (mine.isPending) {
    return (
      <div className="tt-shop-screen" aria-busy="true">
        <Skeleton width="14rem" height="1.75rem" />
        <Skeleton height="5rem" radius="var(--tt-radius-lg)" />
        <Skeleton height="16rem" radius="var(--tt-radius-lg)" />
      </div>
    );
  }
  if (mine.isError) return <ErrorMessage>{errorText(mine.error)}</ErrorMessage>;
  const season = mine.data.season;
  if (!season) {
    return (
      <EmptyState
        icon={<Trophy />}
        title={t("ranking.noSeason")}
        action={
          <ShellLink to="/room" className="tt-button">
            <Headphones aria-hidden="true" />
            {t("ranking.toRooms")}
          </ShellLink>
        }
      >
        {t("ranking.noSeasonBody")}
      </EmptyState>
    );
  }
  const total = board.data?.total ?? 0;
  const status = mine.data.hasCurrentRankingStatus ? mine.data.rankingStatus : undefined;
  const nameOf = (uuid: string) => profiles.data?.get(uuid)?.nickname || t("ranking.unknown");
  return (
    <div className="tt-shop-screen">
      <header className="tt-shop-season">
        <Trophy aria-hidden="true" className="tt-shop-season__icon" />
        <div>
          <h2>{t("ranking.season", { name: season.seasonName })}</h2>
          {season.seasonStart && (
            <p className="tt-muted">{t("ranking.since", { date: format.date(season.seasonStart) })}</p>
          )}
        </div>
      </header>
      <Card className="tt-shop-rank">
        <h3 className="tt-eyebrow">{t("ranking.mine")}</h3>
        {status ? (
          <p data-testid="my-rank" className="tt-shop-rank__value">
            {t("ranking.myRank", {
              rank: format.number(status.rank),
              count: status.balance,
              points: format.number(status.balance),
            })}
          </p>
        ) : (
          <p className="tt-muted">{t("ranking.noRank")}</p>
        )}
      </Card>
      <section className="tt-shop-section" aria-labelledby="leaderboard-title">
        <h3 id="leaderboard-title" className="tt-shop-section__title">
          {t("ranking.leaderboard")}
        </h3>
        {board.isError ? (
          <ErrorMessage>{errorText(board.error)}</ErrorMessage>
        ) : board.isPending ? (
          <Skeleton height="16rem" radius="var(--tt-radius-lg)" />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<Trophy />}
            title={t("ranking.empty")}
            headingLevel={4}
            action={
              <ShellLink to="/room" className="tt-button tt-button--secondary">
                {t("ranking.toRooms")}
              </ShellLink>
            }
          >
            {t("ranking.emptyBody")}
          </EmptyState>
        ) : (
          <ol className="tt-list" start={skip + 1} aria-label={t("ranking.leaderboard")}>
            {rows.map((r) => (
              <li
                key={r.id}
                className={`tt-list__row${r.userUuid === status?.userUuid ? " tt-shop-leaderboard__me" : ""}`}
              >
                <span className={`tt-shop-leaderboard__rank tt-shop-leaderboard__rank--${Math.min(r.rank, 4)}`}>
                  #{r.rank}
                </span>
                <Avatar id={r.userUuid} name={nameOf(r.userUuid)} size="sm" decorative />
                {profiles.isPending ? (
                  <Skeleton width="8rem" />
                ) : (
                  <span className="tt-shop-leaderboard__name">{nameOf(r.userUuid)}</span>
                )}
                <span className="tt-shop-leaderboard__points">
                  {t("ranking.points", { count: r.balance, points: format.number(r.balance) })}
                </span>
              </li>
            ))}
          </ol>
        )}
        <div className="tt-shop-pager">
          <Button
            variant="secondary"
            size="sm"
            icon={<ChevronLeft aria-hidden="true" />}
            disabled={skip === 0}
            onClick={() => setSkip(Math.max(0, skip - LEADERBOARD_TAKE))}
          >
            {t("ranking.previous")}
          </Button>
          <span className="tt-muted">
            {total > 0 &&
              t("ranking.range", {
                from: format.number(skip + 1),
                to: format.number(Math.min(total, skip + LEADERBOARD_TAKE)),
                total: format.number(total),
              })}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={skip + LEADERBOARD_TAKE >= total}
            onClick={() => setSkip(skip + LEADERBOARD_TAKE)}
          >
            {t("ranking.next")}
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </section>
    </div>
  );
}
