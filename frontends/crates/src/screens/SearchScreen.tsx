import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { useState } from "react";
import { crateKeys, crateOps, songInputOf, useCrateClient, type CrateTarget } from "../api/crates.ts";
import { useMyCrates } from "../api/hooks.ts";
import { useSongSearch, type ProviderResults } from "../api/search.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { formatDuration } from "../lib/format.ts";
import { useAppLocation, useReplaceSearch } from "../lib/router.tsx";
import { useDebounced } from "../lib/use-debounced.ts";
import { artworkOf } from "./SongRow.tsx";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";

function useAddSong() {
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  return useMutation({
    mutationFn: ({ target, song }: { target: CrateTarget; song: Song; crateName: string }) =>
      crateOps(client, target).add([songInputOf(song)]),
    onSuccess: (_result, { target, song }) => {
      track(target, "add", { from: "search", songId: song.songId });
      void queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
    },
  });
}

function ResultRow({
  song,
  crates,
  onAdd,
  pending,
}: {
  song: Song;
  crates: { crateUuid: string; name: string }[];
  onAdd: (target: CrateTarget, crateName: string) => void;
  pending: boolean;
}) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const [crateUuid, setCrateUuid] = useState("");
  const chosen = crates.find((crate) => crate.crateUuid === crateUuid) ?? crates[0];
  const art = artworkOf(song.thumbnails);
  return (
    <li data-testid="search-result">
      {art ? <img className="tt-song-art" src={art} alt="" loading="lazy" /> : <span className="tt-song-art" />}
      <span className="tt-song-text">
        <strong>
          {song.trackName}
          {song.explicit ? <span className="tt-explicit">{t("search.explicit")}</span> : null}
        </strong>
        <span className="tt-muted">{song.artistName}</span>
      </span>
      <span className="tt-song-duration">{formatDuration(song.duration, t("dayUnit"))}</span>
      <span className="tt-add-to">
        {crates.length > 0 ? (
          <>
            <select
              aria-label={t("search.addToLabel", { name: song.trackName })}
              value={chosen?.crateUuid ?? ""}
              onChange={(event) => setCrateUuid(event.target.value)}
            >
              {crates.map((crate) => (
                <option key={crate.crateUuid} value={crate.crateUuid}>
                  {crate.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="tt-button tt-button--quiet"
              disabled={pending || !chosen}
              onClick={() => chosen && onAdd({ crateUuid: chosen.crateUuid }, chosen.name)}
            >
              {t("search.addTo")}
            </button>
          </>
        ) : null}
        <button
          type="button"
          className="tt-button"
          aria-label={t("search.addToQueueLabel", { name: song.trackName })}
          disabled={pending}
          onClick={() => onAdd({ special: "queue" }, t("special.queue"))}
        >
          {t("search.addToQueue")}
        </button>
      </span>
    </li>
  );
}

function ProviderList({
  results,
  crates,
  onAdd,
  pending,
}: {
  results: ProviderResults;
  crates: { crateUuid: string; name: string }[];
  onAdd: (song: Song, target: CrateTarget, crateName: string) => void;
  pending: boolean;
}) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const providerName = t(`providers.${results.provider}`, { defaultValue: results.provider });
  const heading = t("search.provider", { provider: providerName });
  return (
    <section aria-label={heading}>
      <h2>{providerName}</h2>
      {results.error ? (
        <p className="tt-error">{results.error}</p>
      ) : results.songs.length === 0 ? (
        <p className="tt-muted">{t("search.empty")}</p>
      ) : (
        <ul>
          {results.songs.map((song, index) => (
            <ResultRow
              key={`${song.songId}-${index}`}
              song={song}
              crates={crates}
              pending={pending}
              onAdd={(target, crateName) => onAdd(song, target, crateName)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Song search (002 §2): one result list per provider, 300 ms after the last keystroke; add to a crate or the queue. */
export function SearchScreen() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const { search } = useAppLocation();
  const replaceSearch = useReplaceSearch();
  const [term, setTerm] = useState(() => search.get("q") ?? "");
  const settled = useDebounced(term.trim());
  const results = useSongSearch(settled);
  const crateList = useMyCrates();
  const add = useAddSong();
  const [added, setAdded] = useState("");
  // The user's ordinary crates (the queue has its own button; starring is the room's).
  const crates = (crateList.data?.pages.flatMap((page) => page.crates) ?? [])
    .filter((crate) => !crate.special)
    .map((crate) => ({ crateUuid: crate.crateUuid, name: crate.crateName }));

  const onAdd = (song: Song, target: CrateTarget, crateName: string) => {
    setAdded("");
    add.mutate(
      { target, song, crateName },
      { onSuccess: () => setAdded(t("search.added", { name: song.trackName, crate: crateName })) },
    );
  };

  return (
    <div>
      <h1 className="tt-page-title">{t("search.title")}</h1>
      <form role="search" onSubmit={(event) => event.preventDefault()}>
        <label className="tt-field">
          <span>{t("search.label")}</span>
          <input
            type="search"
            value={term}
            maxLength={200}
            placeholder={t("search.placeholder")}
            onChange={(event) => {
              setTerm(event.target.value);
              replaceSearch(event.target.value ? { q: event.target.value } : {});
            }}
          />
        </label>
      </form>
      <p className="tt-muted" role="status">
        {added}
      </p>
      {add.isError ? (
        <p className="tt-error" role="alert">
          {toText(add.error)}
        </p>
      ) : null}
      {settled === "" ? (
        <p className="tt-muted">{t("search.hint")}</p>
      ) : results.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : results.isError ? (
        <div className="tt-error" role="alert">
          <p>{toText(results.error)}</p>
          <button type="button" className="tt-button" onClick={() => void results.refetch()}>
            {t("retry")}
          </button>
        </div>
      ) : results.data.length === 0 ? (
        <p className="tt-muted">{t("search.empty")}</p>
      ) : (
        <div className="tt-search-results" aria-busy={results.isFetching}>
          {results.data.map((list) => (
            <ProviderList key={list.provider} results={list} crates={crates} pending={add.isPending} onAdd={onAdd} />
          ))}
        </div>
      )}
    </div>
  );
}
