import { useAppTranslation } from "@tt/web-kit";
import { useFormat } from "./format.ts";

export interface FollowCountsProps {
  /** The person's fans (who follows them as a DJ); undefined while unknown, shown as a dash. */
  fans: number | undefined;
  /** The DJs the person follows; undefined while unknown. */
  following: number | undefined;
  /** "md" in a card, "lg" on a profile page. */
  size?: "md" | "lg";
  className?: string;
}

/**
 * A person's fans and following counts (DjFanService.CountDjFans), as one description list named "Fans and
 * following": the same block on the live room's person card and the profile page. Numbers in the reader's locale.
 */
export function FollowCounts({ fans, following, size = "md", className }: FollowCountsProps) {
  const { t } = useAppTranslation("common");
  const format = useFormat();
  const shown = (count: number | undefined) => (count === undefined ? "–" : format.number(count));
  return (
    <dl
      className={`tt-follow-counts tt-follow-counts--${size} ${className ?? ""}`.trim()}
      aria-label={t("ui.followCounts.label")}
    >
      <div>
        <dt>{t("ui.followCounts.fans")}</dt>
        <dd data-testid="fan-count">{shown(fans)}</dd>
      </div>
      <div>
        <dt>{t("ui.followCounts.following")}</dt>
        <dd data-testid="following-count">{shown(following)}</dd>
      </div>
    </dl>
  );
}
