import type { Crate } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { useAppTranslation } from "@tt/web-kit";
import { useState } from "react";
import { artworkOf, formatSeconds } from "./format.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

export interface NowPlayingProps {
  stage: Stage;
  me: string | undefined;
  isModerator: boolean;
  /** Seconds into the current song, by the room's clock. */
  position: number;
  crates: readonly Crate[];
  busy: boolean;
  onVote(kind: "like" | "dislike"): void;
  onGrab(crateUuid: string): void;
  onSkip(): void;
  onModeratorSkip(): void;
  onVoteSkip(enabled: boolean): void;
  nameOf(uuid: string): string;
}

/** Title, artist, artwork and progress of the current song, the votes and the vote-skip meter. */
export function NowPlaying({
  stage,
  me,
  isModerator,
  position,
  crates,
  busy,
  onVote,
  onGrab,
  onSkip,
  onModeratorSkip,
  onVoteSkip,
  nameOf,
}: NowPlayingProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const [crate, setCrate] = useState("");
  const play = stage.play;
  if (!play?.song) {
    return (
      <section className="tt-live-now" aria-labelledby="live-now">
        <h2 id="live-now">{t("nowPlaying")}</h2>
        <p className="tt-muted" data-testid="live-silent">
          {t("silent")}
        </p>
      </section>
    );
  }
  const song = play.song;
  const votes = stage.votes;
  const mine = me ? votes?.byUser[me] : undefined;
  const grabbed = me ? (votes?.grabbedBy[me] ?? false) : false;
  const ownPlay = me !== undefined && play.djUuid === me;
  const canVote = me !== undefined && !ownPlay;
  const duration = play.duration || song.duration;
  const at = Math.min(Math.max(position, 0), duration || 0);
  const artwork = artworkOf(song.thumbnails);
  const skip = stage.voteSkip;
  return (
    <section className="tt-live-now" aria-labelledby="live-now" data-play={play.playId}>
      <h2 id="live-now">{t("nowPlaying")}</h2>
      <div className="tt-live-song">
        {artwork && <img className="tt-live-artwork" src={artwork} alt="" width={96} height={96} />}
        <div>
          <p className="tt-live-title" data-testid="live-title">
            {song.trackName}
          </p>
          <p className="tt-live-artist">{t("by", { artist: song.artistName })}</p>
          <p className="tt-muted">{t("djBy", { name: nameOf(play.djUuid) })}</p>
        </div>
      </div>
      <progress className="tt-live-progress" aria-label={t("progress")} max={duration || 1} value={at} />
      <p className="tt-muted" data-testid="live-elapsed">
        {t("elapsed", { elapsed: formatSeconds(at), duration: formatSeconds(duration) })}
      </p>
      <div className="tt-live-votes" role="group" aria-label={t("votes")}>
        <button
          type="button"
          className="tt-button"
          aria-pressed={mine === "like"}
          disabled={!canVote || busy}
          onClick={() => onVote("like")}
        >
          {t("like")} · {t("likes", { count: votes?.likes ?? 0 })}
        </button>
        <button
          type="button"
          className="tt-button"
          aria-pressed={mine === "dislike"}
          disabled={!canVote || busy}
          onClick={() => onVote("dislike")}
        >
          {t("dislike")} · {t("dislikes", { count: votes?.dislikes ?? 0 })}
        </button>
        {me !== undefined && (
          <span className="tt-live-grab">
            <label>
              {t("grabTo")}{" "}
              <select value={crate} onChange={(event) => setCrate(event.target.value)}>
                <option value="">{t("queueCrate")}</option>
                {crates.map((item) => (
                  <option key={item.crateUuid} value={item.crateUuid}>
                    {item.crateName}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="tt-button" disabled={busy || grabbed} onClick={() => onGrab(crate)}>
              {grabbed ? t("grabbed") : t("grab")}
            </button>
          </span>
        )}
        <span className="tt-muted">{t("grabs", { count: votes?.grabs ?? 0 })}</span>
      </div>
      <div className="tt-live-voteskip">
        <h3>{t("voteSkip")}</h3>
        {skip?.enabled ? (
          <>
            <meter
              aria-label={t("voteSkip")}
              min={0}
              max={Math.max(1, skip.threshold)}
              value={skip.dislikes}
              data-testid="live-voteskip"
            />
            <p>{t("voteSkipMeter", { dislikes: skip.dislikes, threshold: skip.threshold })}</p>
            <p className="tt-muted">{t("voteSkipRule")}</p>
          </>
        ) : (
          <p className="tt-muted">{t("voteSkipOff")}</p>
        )}
        {isModerator && (
          <button
            type="button"
            className="tt-button tt-button--quiet"
            disabled={busy}
            onClick={() => onVoteSkip(!skip?.enabled)}
          >
            {skip?.enabled ? t("voteSkipDisable") : t("voteSkipEnable")}
          </button>
        )}
      </div>
      {ownPlay && (
        <button type="button" className="tt-button" disabled={busy} onClick={onSkip}>
          {t("skip")}
        </button>
      )}
      {isModerator && !ownPlay && (
        <button type="button" className="tt-button tt-button--quiet" disabled={busy} onClick={onModeratorSkip}>
          {t("moderatorSkip")}
        </button>
      )}
    </section>
  );
}
