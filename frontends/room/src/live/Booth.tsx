import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { useAppTranslation } from "@tt/web-kit";
import { Avatar } from "./Avatar.tsx";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

export interface BoothProps {
  stage: Stage;
  me: string | undefined;
  canDj: boolean;
  isModerator: boolean;
  busy: boolean;
  onTake(): void;
  onLeave(): void;
  onRemove(user: string): void;
  /** A user's name (their nickname, "You", or the uuid). */
  nameOf(uuid: string): string;
  /** A user's avatar image, undefined for their initials. */
  avatarOf?(uuid: string): string | undefined;
}

/** The DJ seats in order (the first plays), take a seat / leave the seat, a moderator's remove. */
export function Booth({
  stage,
  me,
  canDj,
  isModerator,
  busy,
  onTake,
  onLeave,
  onRemove,
  nameOf,
  avatarOf = () => undefined,
}: BoothProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const seats = stage.seats;
  const total = Math.max(stage.room?.numberOfDjs ?? seats.length, seats.length);
  const seated = me !== undefined && seats.some((seat) => seat.userUuid === me);
  const free = seats.length < total;
  const playing = stage.play?.djUuid;
  return (
    <section className="tt-live-booth" aria-labelledby="live-booth">
      <h2 id="live-booth">{t("booth")}</h2>
      <ol className="tt-live-seats" aria-label={t("booth")}>
        {Array.from({ length: total }, (_, index) => {
          const seat = seats[index];
          if (!seat) {
            return (
              <li key={`free-${index}`} className="tt-live-seat tt-live-seat--free">
                {t("emptySeat")}
              </li>
            );
          }
          const name = nameOf(seat.userUuid);
          return (
            <li
              key={seat.userUuid}
              className="tt-live-seat"
              data-user={seat.userUuid}
              aria-current={playing === seat.userUuid ? "true" : undefined}
            >
              <Avatar uuid={seat.userUuid} imageUrl={avatarOf(seat.userUuid)} />
              <span className="tt-live-seat-name">{name}</span>
              {playing === seat.userUuid && <span className="tt-live-badge">{t("playing")}</span>}
              {seat.awaySince && <span className="tt-live-badge tt-muted">{t("away")}</span>}
              {isModerator && seat.userUuid !== me && (
                <button
                  type="button"
                  className="tt-button tt-button--quiet"
                  disabled={busy}
                  onClick={() => onRemove(seat.userUuid)}
                >
                  {t("removeFromSeat", { name })}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      {me === undefined ? (
        <p className="tt-muted">{t("signInToDj")}</p>
      ) : seated ? (
        <button type="button" className="tt-button" disabled={busy} onClick={onLeave}>
          {t("leaveSeat")}
        </button>
      ) : canDj ? (
        <button type="button" className="tt-button" disabled={busy || !free} onClick={onTake}>
          {t("takeSeat")}
        </button>
      ) : (
        <p className="tt-muted">{t("cannotDj")}</p>
      )}
    </section>
  );
}
