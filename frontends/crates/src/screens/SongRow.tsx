import { Badge } from "@tt/web-kit/ui";
import type { ReactNode } from "react";
import { SongArt } from "./art.tsx";

/** A crate row's height in pixels (the virtual list places rows by it). */
export const SONG_ROW_HEIGHT = 64;

export interface SongRowProps {
  title: string;
  artist: string;
  art: string | undefined;
  /** The duration as words ("3:21"). */
  duration: string;
  explicit?: boolean | undefined;
  /** Set when the song can no longer be played: a badge saying so. */
  unavailable?: string | undefined;
  explicitLabel: string;
  /** Before the artwork: the drag handle and the position in a crate. */
  leading?: ReactNode;
  /** After the duration: a menu or a button. */
  actions?: ReactNode;
  testId?: string;
}

/** One song as every list of the app shows it: artwork, title, artist, duration, then its actions. */
export function SongRow({
  title,
  artist,
  art,
  duration,
  explicit,
  unavailable,
  explicitLabel,
  leading,
  actions,
  testId,
}: SongRowProps) {
  return (
    <div className="tt-song" data-testid={testId} data-unavailable={unavailable ? true : undefined}>
      {leading}
      <SongArt src={art} />
      <span className="tt-song__text">
        <strong className="tt-song__title">{title}</strong>
        <span className="tt-song__artist">
          {explicit ? (
            <span className="tt-song__explicit" title={explicitLabel}>
              <span aria-hidden="true">E</span>
              <span className="tt-visually-hidden">{explicitLabel}</span>
            </span>
          ) : null}
          {artist}
        </span>
      </span>
      {unavailable ? <Badge tone="warning">{unavailable}</Badge> : null}
      <span className="tt-song__duration">{duration}</span>
      {actions ? <span className="tt-song__actions">{actions}</span> : null}
    </div>
  );
}
