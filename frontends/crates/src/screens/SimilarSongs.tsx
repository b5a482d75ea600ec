import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useState } from "react";
import { crateKeys, crateOps, songInputOf, useCrateClient, type CrateTarget } from "../api/crates.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { formatDuration } from "../lib/format.ts";
import { artworkOf } from "./SongRow.tsx";

/**
 * Spec 002 §9: suggestions for up to 8 songs, deduped by track and artist, kept only with a thumbnail and a
 * duration above 0. The service applies the rule; the screen applies it again across the songs' lists.
 */
export function similarSuggestions(lists: readonly { suggestions: readonly Song[] }[]): Song[] {
  const seen = new Set<string>();
  const kept: Song[] = [];
  for (const list of lists.slice(0, 8)) {
    for (const song of list.suggestions) {
      const key = `${song.trackName.trim().toLowerCase()}\u0000${song.artistName.trim().toLowerCase()}`;
      if (seen.has(key) || !artworkOf(song.thumbnails) || !(song.duration > 0)) continue;
      seen.add(key);
      kept.push(song);
    }
  }
  return kept;
}

/** Similar-song suggestions for a crate, asked for on demand (the analysis provider is slow and paid). */
export function SimilarSongs({ crateUuid, target }: { crateUuid: string; target: CrateTarget }) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useClient(AnalysisService);
  const userUuid = useSession().user?.uuid ?? "";
  const [asked, setAsked] = useState(false);
  const crates = useCrateClient();
  const queryClient = useQueryClient();
  const track = useTrackCrateAction();
  const add = useMutation({
    mutationFn: (song: Song) => crateOps(crates, target).add([songInputOf(song)]),
    onSuccess: (_result, song) => {
      track(target, "add", { from: "similar", songId: song.songId });
      void queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
    },
  });
  const similar = useQuery({
    queryKey: [...crateKeys.all(userUuid), "similar", crateUuid],
    enabled: asked,
    queryFn: async () => similarSuggestions((await client.getSimilarSongs({ crateUuid })).songs),
  });
  return (
    <section className="tt-similar" aria-labelledby="similar-title">
      <h2 id="similar-title">{t("similar.title")}</h2>
      {!asked ? (
        <button type="button" className="tt-button tt-button--quiet" onClick={() => setAsked(true)}>
          {t("similar.show")}
        </button>
      ) : similar.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : similar.isError ? (
        <p className="tt-error" role="alert">
          {toText(similar.error)}
        </p>
      ) : similar.data.length === 0 ? (
        <p className="tt-muted">{t("similar.empty")}</p>
      ) : (
        <ul className="tt-similar-list">
          {similar.data.map((song) => (
            <li key={`${song.songId}-${song.trackName}-${song.artistName}`}>
              <img className="tt-song-art" src={artworkOf(song.thumbnails)} alt="" loading="lazy" />
              <span className="tt-song-text">
                <strong>{song.trackName}</strong>
                <span className="tt-muted">{song.artistName}</span>
              </span>
              <span className="tt-song-duration">{formatDuration(song.duration, t("dayUnit"))}</span>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                disabled={add.isPending}
                onClick={() => add.mutate(song)}
              >
                {t("similar.add", { name: song.trackName })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {add.isError ? (
        <p className="tt-error" role="alert">
          {toText(add.error)}
        </p>
      ) : null}
    </section>
  );
}
