import { useAppTranslation } from "@tt/web-kit";
import { Badge, Button, useFormat } from "@tt/web-kit/ui";
import type { ReactNode } from "react";
import { AudioLines, Headphones, LogOut, Moon, Plus } from "lucide-react";
import { Avatar } from "./Avatar.tsx";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";
import { ModerationMenu } from "./ModerationMenu.tsx";
import { openPersonCard } from "./people/person-card.ts";
import { memoOnStage, type StageParts } from "./stage-parts.ts";

export interface BoothProps {
  stage: StageParts<"seats" | "room" | "play">;
  me: string | undefined;
  canDj: boolean;
  isModerator: boolean;
  busy: boolean;
  onTake(): void;
  onLeave(): void;
  onRemove(user: string): void;
  /** A user's name (their nickname, "You", or a stand-in while unknown). */
  nameOf(uuid: string): string;
  /** A user's avatar image, undefined for their generated one. */
  avatarOf?(uuid: string): string | undefined;
  /** The viewer may not DJ here for now (the room's djDisabled): until when (ms), null without an end. */
  djDisabledUntil?: number | null | undefined;
  /** Without decks (a CHAT_ONLY room has no stage: the seats only). */
  compact?: boolean;
}

/**
 * The DJ seats in order (the first plays), each behind its deck: the DJs as their avatars (a button that opens their
 * card), the playing one lit; the first free seat invites the viewer to take it or says why they cannot; leave the
 * seat; a moderator's menu on each DJ.
 */
function BoothView({
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
  djDisabledUntil,
  compact = false,
}: BoothProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  const seats = stage.seats;
  const total = Math.max(stage.room?.numberOfDjs ?? seats.length, seats.length);
  const seated = me !== undefined && seats.some((seat) => seat.userUuid === me);
  const free = seats.length < total;
  const playing = stage.play?.djUuid;
  const room = stage.room?.uuid ?? "";
  // What the first free seat says: the invitation to take it, or why the viewer cannot (spec 001 §3).
  const reason =
    me === undefined
      ? t("signInToDj")
      : djDisabledUntil !== undefined
        ? djDisabledUntil === null
          ? t("djDisabled")
          : t("djDisabledUntil", { until: format.dateTime(djDisabledUntil) })
        : !canDj
          ? stage.room?.djType === "INVITE_ONLY"
            ? t("inviteOnly")
            : t("cannotDj")
          : undefined;
  const invitation: ReactNode = seated ? null : reason !== undefined ? (
    <p className="tt-muted tt-live-hint">{reason}</p>
  ) : free ? (
    <Button size="sm" icon={<Headphones aria-hidden="true" />} disabled={busy} onClick={onTake}>
      {t("takeSeat")}
    </Button>
  ) : (
    <p className="tt-muted tt-live-hint">{t("boothFull")}</p>
  );
  const firstFree = seats.length;
  const deck = compact ? null : <span className="tt-live-seat__deck" data-deck="" aria-hidden="true" />;
  return (
    <section className={`tt-live-booth${compact ? " tt-live-booth--compact" : ""}`} aria-labelledby="live-booth">
      <div className="tt-live-section-head">
        <h2 id="live-booth" className="tt-eyebrow">
          {t("booth")}
        </h2>
        {seated ? (
          <Button variant="secondary" size="sm" icon={<LogOut aria-hidden="true" />} disabled={busy} onClick={onLeave}>
            {t("leaveSeat")}
          </Button>
        ) : (
          !free && invitation
        )}
      </div>
      <ol className="tt-live-seats" aria-label={t("booth")}>
        {Array.from({ length: total }, (_, index) => {
          const seat = seats[index];
          if (!seat) {
            return (
              <li key={`free-${index}`} className="tt-live-seat tt-live-seat--free">
                <span className="tt-live-seat__empty" aria-hidden="true">
                  <Plus />
                </span>
                <span className="tt-live-seat__name">{t("emptySeat")}</span>
                {index === firstFree && <span className="tt-live-seat__invite">{invitation}</span>}
                {deck}
              </li>
            );
          }
          const name = nameOf(seat.userUuid);
          const isPlaying = playing === seat.userUuid;
          return (
            <li
              key={seat.userUuid}
              className="tt-live-seat"
              data-user={seat.userUuid}
              aria-current={isPlaying ? "true" : undefined}
            >
              <button
                type="button"
                className="tt-live-seat__avatar"
                aria-label={name}
                onClick={() => openPersonCard(seat.userUuid)}
              >
                <Avatar uuid={seat.userUuid} name={name} imageUrl={avatarOf(seat.userUuid)} size="lg" decorative />
                {isPlaying && (
                  <span className="tt-live-seat__playing" aria-hidden="true">
                    <AudioLines />
                  </span>
                )}
              </button>
              <span className="tt-live-seat__name">{name}</span>
              {isPlaying && (
                <Badge tone="accent" className="tt-live-badge">
                  {t("playing")}
                </Badge>
              )}
              {seat.awaySince && (
                <Badge className="tt-live-badge" icon={<Moon aria-hidden="true" />}>
                  {t("away")}
                </Badge>
              )}
              {isModerator && seat.userUuid !== me && (
                <span className="tt-live-seat__menu">
                  <ModerationMenu
                    room={room}
                    user={seat.userUuid}
                    name={name}
                    busy={busy}
                    onRemoveFromSeat={() => onRemove(seat.userUuid)}
                  />
                </span>
              )}
              {deck}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Redrawn when the seats, the room or the play change (not on a vote). */
export const Booth = memoOnStage(["seats", "room", "play"], BoothView);
