import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation } from "@tt/web-kit";
import { memo, useMemo } from "react";
import { ErrorMessage } from "../lib/ui.tsx";
import { liveKeys, QUEUE_PAGE_SIZE, useCrateClient } from "./api.ts";
import { formatSeconds } from "./format.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";
import { StartHereShelf } from "./StartHere.tsx";

/**
 * The listener's queue beside the booth (the playlist service's queue crate): the DJ plays its top song, which
 * then goes to the back. Reorder and remove; on a failure the queue is fetched again (002 §4). Redrawn on its own
 * changes, not on the stage's. Under it, on a fresh install, the demo songs to queue in one click.
 */
export const QueuePanel = memo(function QueuePanel({ refreshKey }: { refreshKey: string }) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const crates = useCrateClient();
  const queryClient = useQueryClient();
  const queue = useQuery({
    queryKey: [...liveKeys.queue, refreshKey],
    queryFn: () => crates.listQueueSongs({ limit: QUEUE_PAGE_SIZE, offset: 0 }),
  });
  const refetch = () => queryClient.invalidateQueries({ queryKey: liveKeys.queue });
  const move = useMutation({
    mutationFn: (input: { crateSongUuid: string; newPosition: number }) => crates.moveQueueSong(input),
    onSettled: refetch,
  });
  const remove = useMutation({
    mutationFn: (crateSongUuid: string) => crates.removeQueueSong({ crateSongUuid }),
    onSettled: refetch,
  });
  const songs = useMemo(() => queue.data?.songs ?? [], [queue.data]);
  const queued = useMemo(() => new Set(songs.map((song) => song.songId)), [songs]);
  const busy = move.isPending || remove.isPending;
  return (
    <section className="tt-live-queue" aria-labelledby="live-queue">
      <h2 id="live-queue">{t("queue")}</h2>
      <ErrorMessage error={queue.error ?? move.error ?? remove.error} />
      {queue.isSuccess && songs.length === 0 && <p className="tt-muted">{t("queueEmpty")}</p>}
      <ol className="tt-live-queue-list" aria-label={t("queue")}>
        {songs.map((song, index) => {
          const name = `${song.trackName} – ${song.artistName}`;
          return (
            <li key={song.crateSongUuid}>
              <span>{name}</span> <span className="tt-muted">{formatSeconds(song.duration)}</span>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                aria-label={t("moveUp", { name })}
                disabled={busy || index === 0}
                onClick={() => move.mutate({ crateSongUuid: song.crateSongUuid, newPosition: index - 1 })}
              >
                ↑
              </button>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                aria-label={t("moveDown", { name })}
                disabled={busy || index === songs.length - 1}
                onClick={() => move.mutate({ crateSongUuid: song.crateSongUuid, newPosition: index + 1 })}
              >
                ↓
              </button>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                aria-label={t("remove", { name })}
                disabled={busy}
                onClick={() => remove.mutate(song.crateSongUuid)}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ol>
      {queue.isSuccess && <StartHereShelf queued={queued} onAdded={refetch} />}
    </section>
  );
});
