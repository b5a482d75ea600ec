import type { Crate } from "@tt/proto/tt/playlist/v1/crate_pb";
import { useAppTranslation } from "@tt/web-kit";
import { Button, Menu, MenuItem, MenuLabel, Switch, useFormat, useNames } from "@tt/web-kit/ui";
import { Check, ChevronDown, FolderPlus, ListMusic, Music, SkipForward, ThumbsDown, ThumbsUp } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Avatar } from "./Avatar.tsx";
import { artworkOf } from "./format.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";
import { memoOnStage, type StageParts } from "./stage-parts.ts";

export interface NowPlayingProps {
  stage: StageParts<"play" | "votes" | "voteSkip">;
  me: string | undefined;
  isModerator: boolean;
  /** Seconds into the current song now, by the room's clock (asked twice a second by the progress bar only). */
  positionNow(): number;
  crates: readonly Crate[];
  busy: boolean;
  onVote(kind: "like" | "dislike"): void;
  onGrab(crateUuid: string): void;
  onSkip(): void;
  onModeratorSkip(): void;
  onVoteSkip(enabled: boolean): void;
  nameOf(uuid: string): string;
  avatarOf?(uuid: string): string | undefined;
  /** The listener's own controls beside the votes (listen in sync, volume). */
  children?: ReactNode;
}

/** A crate's name as a person reads it: the built-in crates by their word ("Queue", "Likes"), others as named. */
function useCrateName() {
  const names = useNames();
  return (crate: string) => (crate === "default" || crate === "tt-stars" ? names("crate", crate) : crate);
}

/** Title, artist, artwork and progress of the current song, the votes and the vote-skip meter. */
function NowPlayingView({
  stage,
  me,
  isModerator,
  positionNow,
  crates,
  busy,
  onVote,
  onGrab,
  onSkip,
  onModeratorSkip,
  onVoteSkip,
  nameOf,
  avatarOf = () => undefined,
  children,
}: NowPlayingProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  const crateName = useCrateName();
  const play = stage.play;
  const skip = stage.voteSkip;
  // Below the rule's room size no count of dislikes skips: the meter says how many there are, not "0 of 1".
  const meterText = skip?.active
    ? t("voteSkipMeter", { dislikes: skip.dislikes, threshold: skip.threshold })
    : t("voteSkipWaiting", { count: skip?.dislikes ?? 0 });
  const voteSkipSwitch = isModerator && (
    <Switch label={t("voteSkipSwitch")} checked={skip?.enabled ?? false} disabled={busy} onCheckedChange={onVoteSkip} />
  );
  const song = play?.song;
  const votes = stage.votes;
  const mine = me ? votes?.byUser[me] : undefined;
  const grabbed = me ? (votes?.grabbedBy[me] ?? false) : false;
  const ownPlay = me !== undefined && play?.djUuid === me;
  const canVote = me !== undefined && !ownPlay;
  const duration = play?.duration || song?.duration || 0;
  const artwork = artworkOf(song?.thumbnails);
  const likes = votes?.likes ?? 0;
  const dislikes = votes?.dislikes ?? 0;
  const dj = play ? nameOf(play.djUuid) : "";
  const threshold = Math.max(1, skip?.threshold ?? 1);
  // One section whether a song plays or not, the listener's controls (and the player in them) always in the same
  // place: the player is never remounted between songs.
  return (
    <section
      className={`tt-live-now${song ? "" : " tt-live-now--silent"}`}
      aria-labelledby="live-now"
      data-play={song ? play?.playId : undefined}
    >
      <h2 id="live-now" className="tt-eyebrow">
        {t("nowPlaying")}
      </h2>
      {!song || !play ? (
        <div className="tt-live-song">
          <span className="tt-live-artwork tt-live-artwork--empty" aria-hidden="true">
            <Music />
          </span>
          <p className="tt-muted" data-testid="live-silent">
            {t("silent")}
          </p>
        </div>
      ) : (
        <div className="tt-live-now__playing">
          <div className="tt-live-song">
            {artwork ? (
              <img className="tt-live-artwork" src={artwork} alt="" width={96} height={96} />
            ) : (
              <span className="tt-live-artwork tt-live-artwork--empty" aria-hidden="true">
                <Music />
              </span>
            )}
            <div className="tt-live-song__text">
              <p className="tt-live-title" data-testid="live-title">
                {song.trackName}
              </p>
              <p className="tt-live-artist">{t("by", { artist: song.artistName })}</p>
              <p className="tt-live-dj">
                <Avatar uuid={play.djUuid} name={dj} imageUrl={avatarOf(play.djUuid)} size="xs" decorative />
                {t("djBy", { name: dj })}
              </p>
            </div>
          </div>
          <Progress positionNow={positionNow} duration={duration} />
          <div className="tt-live-votes" role="group" aria-label={t("votes")}>
            <Button
              variant="secondary"
              className="tt-live-vote tt-live-vote--like"
              icon={<ThumbsUp aria-hidden="true" />}
              aria-pressed={mine === "like"}
              aria-label={`${t("like")} · ${t("likes", { count: likes })}`}
              disabled={!canVote || busy}
              onClick={() => onVote("like")}
            >
              {t("like")} <span className="tt-live-vote__count">{format.number(likes)}</span>
            </Button>
            <Button
              variant="secondary"
              className="tt-live-vote tt-live-vote--dislike"
              icon={<ThumbsDown aria-hidden="true" />}
              aria-pressed={mine === "dislike"}
              aria-label={`${t("dislike")} · ${t("dislikes", { count: dislikes })}`}
              disabled={!canVote || busy}
              onClick={() => onVote("dislike")}
            >
              {t("dislike")} <span className="tt-live-vote__count">{format.number(dislikes)}</span>
            </Button>
            {me !== undefined &&
              (grabbed ? (
                <Button
                  variant="secondary"
                  className="tt-live-vote"
                  icon={<Check aria-hidden="true" />}
                  aria-pressed
                  disabled
                >
                  {t("grabbed")}
                </Button>
              ) : (
                <Menu
                  label={t("grabInto")}
                  align="start"
                  trigger={
                    <Button
                      variant="secondary"
                      className="tt-live-vote"
                      icon={<FolderPlus aria-hidden="true" />}
                      aria-pressed={false}
                      disabled={busy}
                    >
                      {t("grab")}
                      <ChevronDown aria-hidden="true" className="tt-live-vote__chevron" />
                    </Button>
                  }
                >
                  <MenuLabel>{t("grabInto")}</MenuLabel>
                  <MenuItem icon={<ListMusic aria-hidden="true" />} onSelect={() => onGrab("")}>
                    {t("queueCrate")}
                  </MenuItem>
                  {crates
                    // The built-in "default" crate is the queue, offered above.
                    .filter((item) => item.crateName !== "default")
                    .map((item) => (
                      <MenuItem
                        key={item.crateUuid}
                        icon={<FolderPlus aria-hidden="true" />}
                        onSelect={() => onGrab(item.crateUuid)}
                      >
                        {crateName(item.crateName)}
                      </MenuItem>
                    ))}
                </Menu>
              ))}
            <span className="tt-muted tt-live-grabs">{t("grabs", { count: votes?.grabs ?? 0 })}</span>
          </div>
        </div>
      )}
      {children}
      {song && skip?.enabled ? (
        <div className="tt-live-voteskip">
          <div className="tt-live-voteskip__head">
            <h3 className="tt-live-voteskip__title">{t("voteSkip")}</h3>
            <span className="tt-muted">{meterText}</span>
          </div>
          <div
            className="tt-live-meter"
            role="meter"
            aria-label={t("voteSkip")}
            aria-valuemin={0}
            aria-valuemax={threshold}
            aria-valuenow={skip.active ? Math.min(skip.dislikes, threshold) : 0}
            aria-valuetext={meterText}
            data-testid="live-voteskip"
          >
            <span
              style={{
                transform: `translateX(${skip.active ? Math.min(1, skip.dislikes / threshold) * 100 - 100 : -100}%)`,
              }}
            />
          </div>
          <p className="tt-muted tt-live-hint" data-testid="live-voteskip-rule">
            {skip.active
              ? t("voteSkipRule", { count: skip.threshold })
              : t("voteSkipStarts", { count: skip.minListeners || 3 })}
          </p>
          {voteSkipSwitch}
        </div>
      ) : (
        <div className="tt-live-voteskip">
          {song ? <p className="tt-muted tt-live-hint">{t("voteSkipOff")}</p> : null}
          {voteSkipSwitch}
        </div>
      )}
      {song && (ownPlay || isModerator) && (
        <div className="tt-live-skips">
          {ownPlay && (
            <Button
              variant="secondary"
              size="sm"
              icon={<SkipForward aria-hidden="true" />}
              disabled={busy}
              onClick={onSkip}
            >
              {t("skip")}
            </Button>
          )}
          {isModerator && !ownPlay && (
            <Button
              variant="ghost"
              size="sm"
              icon={<SkipForward aria-hidden="true" />}
              disabled={busy}
              onClick={onModeratorSkip}
            >
              {t("moderatorSkip")}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

/** Redrawn when the play, its votes or the vote-skip meter change (not when listeners come and go). */
export const NowPlaying = memoOnStage(["play", "votes", "voteSkip"], NowPlayingView);

/** Re-renders every `ms`. */
function useTick(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The song's progress, redrawn twice a second on its own (the rest of the room redraws on the stage's changes). */
function Progress({ positionNow, duration }: { positionNow: () => number; duration: number }) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  useTick(500);
  const at = Math.min(Math.max(positionNow(), 0), duration || 0);
  return (
    <div className="tt-live-progress">
      <div
        className="tt-live-progress__track"
        role="progressbar"
        aria-label={t("progress")}
        aria-valuemin={0}
        aria-valuemax={Math.round(duration || 1)}
        aria-valuenow={Math.round(at)}
        aria-valuetext={t("elapsedOf", { elapsed: format.duration(at), duration: format.duration(duration) })}
      >
        <span
          className="tt-live-progress__fill"
          style={{ transform: `translateX(${duration ? (at / duration) * 100 - 100 : -100}%)` }}
        />
      </div>
      <p className="tt-live-progress__times" data-testid="live-elapsed">
        <span>{format.duration(at)}</span>
        <span>{format.duration(duration)}</span>
      </p>
    </div>
  );
}
