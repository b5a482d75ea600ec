import { useEffect, useRef, type DragEvent } from "react";
import type { CrateSong } from "../api/crates.ts";
import { formatDuration } from "../lib/format.ts";

export const SONG_ROW_HEIGHT = 56;

export interface SongRowLabels {
  moveUp: string;
  moveDown: string;
  remove: string;
  dayUnit: string;
}

export interface SongRowProps {
  song: CrateSong;
  index: number;
  count: number;
  labels: SongRowLabels;
  dragging: boolean;
  dropTarget: boolean;
  /** Whether the viewer may reorder (their own crate); another user's crate is read-only. */
  editable: boolean;
  /** Put the focus back on this row's up or down button (it was just moved with it; moving re-inserts the row). */
  focus?: "up" | "down" | undefined;
  onMove: (from: number, to: number) => void;
  onRemove?: (song: CrateSong) => void;
  onDragStart: (index: number) => void;
  onDragOver: (index: number) => void;
  /** `dragged` is the crate song uuid the drag carries (empty when the browser gives none). */
  onDrop: (index: number, dragged: string) => void;
  onDragEnd: () => void;
}

/** The first artwork a song has, whichever provider gave it. */
export function artworkOf(thumbnails: Record<string, string> | undefined): string | undefined {
  return Object.values(thumbnails ?? {}).find((url) => url !== "");
}

/** One song of a crate: drag it (mouse) or use its arrow buttons (keyboard) to move it. */
export function SongRow({
  song,
  index,
  count,
  labels,
  dragging,
  dropTarget,
  editable,
  focus,
  onMove,
  onRemove,
  onDragStart,
  onDragOver,
  onDrop,
  onDragEnd,
}: SongRowProps) {
  const art = artworkOf(song.thumbnails);
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focus) return;
    // At the top or bottom its own button is disabled: the other one keeps the keyboard in the row.
    const wanted = focus === "up" ? up.current : down.current;
    const other = focus === "up" ? down.current : up.current;
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [focus, index]);
  const over = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    onDragOver(index);
  };
  return (
    <div
      className="tt-song"
      draggable={editable}
      data-testid="crate-song"
      data-dragging={dragging}
      data-drop-target={dropTarget}
      onDragStart={(event) => {
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", song.crateSongUuid);
        onDragStart(index);
      }}
      onDragOver={over}
      onDrop={(event) => {
        event.preventDefault();
        onDrop(index, event.dataTransfer?.getData?.("text/plain") ?? "");
      }}
      onDragEnd={onDragEnd}
    >
      <span className="tt-song-pos">{index + 1}</span>
      {art ? <img className="tt-song-art" src={art} alt="" loading="lazy" /> : <span className="tt-song-art" />}
      <span className="tt-song-text">
        <strong>{song.trackName}</strong>
        <span className="tt-muted">{song.artistName}</span>
      </span>
      <span className="tt-song-duration">{formatDuration(song.duration, labels.dayUnit)}</span>
      <span className="tt-song-actions" hidden={!editable}>
        <button
          type="button"
          className="tt-button tt-button--quiet tt-icon-button"
          ref={up}
          aria-label={labels.moveUp}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="tt-button tt-button--quiet tt-icon-button"
          ref={down}
          aria-label={labels.moveDown}
          disabled={index >= count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          ↓
        </button>
        {onRemove && song.crateSongUuid ? (
          <button
            type="button"
            className="tt-button tt-button--quiet tt-icon-button"
            aria-label={labels.remove}
            onClick={() => onRemove(song)}
          >
            ✕
          </button>
        ) : null}
      </span>
    </div>
  );
}
