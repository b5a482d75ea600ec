import { useAppTranslation } from "@tt/web-kit";
import { useFormat } from "@tt/web-kit/ui";
import { Download, Users } from "lucide-react";
import { useMemo } from "react";
import { Avatar } from "../Avatar.tsx";
import { LIVE_NAMESPACE, liveTranslations } from "../locales.ts";
import { openPersonCard } from "../people/person-card.ts";
import { memoOnStage, type StageParts } from "../stage-parts.ts";
import { sampleCrowd } from "./crowd.ts";
import { useCrowdGrid } from "./use-phone.ts";

export interface CrowdProps {
  stage: StageParts<"dancefloor" | "votes" | "play" | "listeners">;
  nameOf(uuid: string): string;
  avatarOf(uuid: string): string | undefined;
  /** The viewer's friends and the DJs they follow, drawn nearest the stage (when known). */
  nearStage?: ReadonlySet<string> | undefined;
  /** The room's no-dancefloor users (spec 001 §7), not drawn (when known). */
  hidden?: ReadonlySet<string> | undefined;
  /** How many to draw at most; by default one per cell of the screen's grid. */
  cap?: number;
}

/**
 * The dance floor: the listeners at their stable spots, the known ones nearest the stage; a like makes a listener
 * dance for the rest of the song, a grab shows a badge; the listeners not drawn and the guests counted in words.
 * Every avatar is a button that opens the person's card.
 */
function CrowdView({ stage, nameOf, avatarOf, nearStage, hidden, cap }: CrowdProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  const grid = useCrowdGrid();
  const { spots, more } = useMemo(
    () => sampleCrowd(stage.dancefloor, { cap, grid, nearStage, hidden }),
    [stage.dancefloor, cap, grid, nearStage, hidden],
  );
  const votes = stage.votes;
  const playing = stage.play?.djUuid;
  const users = stage.listeners?.users ?? 0;
  const guests = stage.listeners?.guests ?? 0;
  return (
    <div className="tt-crowd" data-playing={playing ? "true" : undefined}>
      {spots.length === 0 ? (
        <p className="tt-crowd__nobody tt-muted">{t("nobody")}</p>
      ) : (
        <ul className="tt-crowd__floor" aria-label={t("dancefloor")}>
          {spots.map((spot, index) => {
            const name = nameOf(spot.user);
            const dancing = votes?.byUser[spot.user] === "like";
            const grabbed = votes?.grabbedBy[spot.user] ?? false;
            return (
              <li
                key={spot.user}
                className="tt-crowd__spot"
                data-user={spot.user}
                data-dancing={dancing ? "true" : undefined}
                data-near={spot.near ? "true" : undefined}
                style={{ left: `${spot.x}%`, top: `${spot.y}%`, zIndex: index + 1 }}
              >
                <button type="button" className="tt-crowd__person" onClick={() => openPersonCard(spot.user)}>
                  <Avatar uuid={spot.user} name={name} imageUrl={avatarOf(spot.user)} size="md" />
                </button>
                {grabbed && (
                  <span className="tt-crowd__grab" title={t("crowd.grabbed", { name })}>
                    <Download aria-hidden="true" />
                    <span className="tt-visually-hidden">{t("crowd.grabbed", { name })}</span>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p className="tt-crowd__count tt-muted">
        <Users aria-hidden="true" className="tt-live-inline-icon" />
        <span data-testid="live-listeners">{t("listenerCount", { users: format.number(users), count: guests })}</span>
        {more > 0 && <span data-testid="crowd-more">{t("crowd.more", { count: more })}</span>}
      </p>
    </div>
  );
}

/** Redrawn on who is on the floor, their votes and grabs, the DJ and the counts (not when the booth changes). */
export const Crowd = memoOnStage(["dancefloor", "votes", "play", "listeners"], CrowdView);
