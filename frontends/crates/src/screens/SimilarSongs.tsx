import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { Button, buttonClass, EmptyState, ErrorMessage, PageHead, Skeleton, toast, useFormat } from "@tt/web-kit/ui";
import { Check, Plus, Sparkles } from "lucide-react";
import { useState } from "react";
import { crateKeys, crateOps, songInputOf, useCrateClient, type CrateTarget } from "../api/crates.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { Link } from "../lib/router.tsx";
import { artworkOf } from "./art.tsx";
import { SongRow } from "./SongRow.tsx";

const keyOf = (song: Song) => `${song.songId}-${song.trackName}-${song.artistName}`;

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
export function SimilarSongs({
  crateUuid,
  crateName,
  target,
}: {
  crateUuid: string;
  /** The crate's name as shown, for the outcome of an addition. */
  crateName: string;
  target: CrateTarget;
}) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const format = useFormat();
  const client = useClient(AnalysisService);
  const userUuid = useSession().user?.uuid ?? "";
  const [asked, setAsked] = useState(false);
  const crates = useCrateClient();
  const queryClient = useQueryClient();
  const track = useTrackCrateAction();
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const add = useMutation({
    mutationFn: (song: Song) => crateOps(crates, target).add([songInputOf(song)]),
    onSuccess: (_result, song) => {
      track(target, "add", { from: "similar", songId: song.songId });
      setAdded((keys) => new Set(keys).add(keyOf(song)));
      toast({ title: t("search.added", { name: song.trackName, crate: crateName }), tone: "success" });
      void queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
    },
    onError: (error) => toast({ title: toText(error), tone: "error" }),
  });
  const similar = useQuery({
    queryKey: [...crateKeys.all(userUuid), "similar", crateUuid],
    enabled: asked,
    queryFn: async () => similarSuggestions((await client.getSimilarSongs({ crateUuid })).songs),
  });
  let body;
  if (!asked) body = null;
  else if (similar.isPending)
    body = (
      <div className="tt-song-skeletons" aria-hidden="true">
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="tt-song tt-song--skeleton">
            <Skeleton width="2.5rem" height="2.5rem" radius="4px" />
            <span className="tt-song__text">
              <Skeleton width="45%" height="0.95rem" />
              <Skeleton width="25%" height="0.8rem" />
            </span>
          </div>
        ))}
      </div>
    );
  else if (similar.isError) body = <ErrorMessage>{toText(similar.error)}</ErrorMessage>;
  else if (similar.data.length === 0)
    body = (
      <EmptyState
        headingLevel={3}
        icon={<Sparkles />}
        title={t("similar.emptyTitle")}
        action={
          <Link to="/search" className={buttonClass("secondary")}>
            {t("crate.searchAction")}
          </Link>
        }
      >
        {t("similar.emptyBody")}
      </EmptyState>
    );
  else
    body = (
      <ul className="tt-song-list" aria-label={t("similar.label")}>
        {similar.data.map((song) => {
          const key = keyOf(song);
          return (
            <li key={key}>
              <SongRow
                title={song.trackName}
                artist={song.artistName}
                art={artworkOf(song.thumbnails)}
                duration={format.duration(song.duration)}
                explicit={song.explicit}
                explicitLabel={t("crate.explicit")}
                actions={
                  <Button
                    variant="secondary"
                    size="sm"
                    icon={added.has(key) ? <Check aria-hidden="true" /> : <Plus aria-hidden="true" />}
                    aria-label={t("similar.add", { name: song.trackName })}
                    disabled={add.isPending || added.has(key)}
                    onClick={() => add.mutate(song)}
                  >
                    {t("similar.addShort")}
                  </Button>
                }
              />
            </li>
          );
        })}
      </ul>
    );
  return (
    <section className="tt-similar" aria-labelledby="similar-title">
      <PageHead
        level={2}
        titleId="similar-title"
        title={t("similar.title")}
        intro={t("similar.intro")}
        className="tt-similar__head"
      >
        {!asked ? (
          <Button variant="secondary" icon={<Sparkles aria-hidden="true" />} onClick={() => setAsked(true)}>
            {t("similar.show")}
          </Button>
        ) : null}
      </PageHead>
      {body}
    </section>
  );
}
