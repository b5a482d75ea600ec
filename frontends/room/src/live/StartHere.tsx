import { useMutation, useQuery } from "@tanstack/react-query";
import { useAppTranslation } from "@tt/web-kit";
import { Button } from "@tt/web-kit/ui";
import { ListPlus } from "lucide-react";
import { useId } from "react";
import { ErrorMessage } from "../lib/ui.tsx";
import { liveKeys, START_HERE_SIZE, START_HERE_STALE_MS, useCatalogueClient, useCrateClient } from "./api.ts";
import { formatSeconds } from "./format.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

/**
 * "Start here" under the queue (issue 26): on a fresh install, the demo catalogue's songs, each queued in one click,
 * so a DJ can play something without searching. A song already in the queue says so instead. Nothing at all when the
 * catalogue has no demo songs (production) or could not be asked: the shelf is an invitation, not a list to fix.
 */
export function StartHereShelf({ queued, onAdded }: { queued: ReadonlySet<string>; onAdded: () => unknown }) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const catalogue = useCatalogueClient();
  const crates = useCrateClient();
  const titleId = useId();
  const demo = useQuery({
    queryKey: liveKeys.startHere,
    staleTime: START_HERE_STALE_MS,
    queryFn: async ({ signal }) =>
      (await catalogue.listSongs({ demo: true, limit: START_HERE_SIZE }, { signal })).songs,
  });
  const add = useMutation({
    mutationFn: (songId: string) => crates.addQueueSongs({ songs: [{ songId }] }),
    onSettled: onAdded,
  });
  const songs = demo.data ?? [];
  if (songs.length === 0) return null;
  return (
    <section className="tt-live-start-here" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("startHere.title")}</h3>
      <p className="tt-muted">{t("startHere.intro")}</p>
      <ErrorMessage error={add.error} />
      <ul className="tt-live-start-here-list">
        {songs.map((song) => {
          const name = `${song.trackName} – ${song.artistName}`;
          const inQueue = queued.has(song.songId);
          return (
            <li key={song.songId}>
              <span>{name}</span> <span className="tt-muted">{formatSeconds(song.duration)}</span>
              <Button
                variant={inQueue ? "ghost" : "secondary"}
                size="sm"
                icon={inQueue ? undefined : <ListPlus aria-hidden="true" />}
                aria-label={t(inQueue ? "startHere.queuedLabel" : "startHere.addLabel", { name })}
                disabled={inQueue || add.isPending}
                busy={add.isPending && add.variables === song.songId}
                onClick={() => add.mutate(song.songId)}
              >
                {t(inQueue ? "startHere.queued" : "startHere.add")}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
