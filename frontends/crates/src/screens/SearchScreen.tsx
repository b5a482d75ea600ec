import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Button, EmptyState, ErrorMessage, Input, Select, Skeleton, useNames } from "@tt/web-kit/ui";
import { Search, SearchX } from "lucide-react";
import { useId, useState } from "react";
import type { CrateTarget } from "../api/crates.ts";
import { useSongSearch, type ProviderResults } from "../api/search.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useAppLocation, useReplaceSearch } from "../lib/router.tsx";
import { useDebounced } from "../lib/use-debounced.ts";
import { ResultRow, useAddSong, useCrateChoices, type CrateChoice } from "./SongResult.tsx";
import { StartHereShelf } from "./StartHere.tsx";

const ALL = "all";

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

function ProviderList({
  results,
  crates,
  onAdd,
  pending,
}: {
  results: ProviderResults;
  crates: CrateChoice[];
  onAdd: (song: Song, target: CrateTarget, crateName: string) => void;
  pending: boolean;
}) {
  const { t } = useCratesText();
  const name = useNames();
  const providerName = name("provider", results.provider);
  return (
    <section className="tt-search-provider" aria-label={t("search.provider", { provider: providerName })}>
      <h2 className="tt-section-title">
        {providerName}
        {results.songs.length > 0 ? <span className="tt-section-title__count">{results.songs.length}</span> : null}
      </h2>
      {results.error ? (
        <ErrorMessage>{results.error}</ErrorMessage>
      ) : results.songs.length === 0 ? (
        <p className="tt-muted">{t("search.providerEmpty")}</p>
      ) : (
        <ul className="tt-song-list">
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

function ResultSkeletons() {
  return (
    <div className="tt-song-skeletons" aria-hidden="true">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="tt-song tt-song--skeleton">
          <Skeleton width="2.5rem" height="2.5rem" radius="4px" />
          <span className="tt-song__text">
            <Skeleton width={`${35 + ((index * 13) % 30)}%`} height="0.95rem" />
            <Skeleton width="20%" height="0.8rem" />
          </span>
          <Skeleton width="2.5rem" height="0.9rem" />
        </div>
      ))}
    </div>
  );
}

/** Song search (002 §2): one result list per provider, 300 ms after the last keystroke; add to a crate or the queue. */
export function SearchScreen() {
  const { t } = useCratesText();
  const toText = useErrorText();
  const name = useNames();
  const { search } = useAppLocation();
  const replaceSearch = useReplaceSearch();
  const [term, setTerm] = useState(() => search.get("q") ?? "");
  const [provider, setProvider] = useState(ALL);
  const settled = useDebounced(term.trim());
  const results = useSongSearch(settled);
  const crates = useCrateChoices();
  const add = useAddSong("search");
  const inputId = useId();

  const change = (value: string) => {
    setTerm(value);
    replaceSearch(value ? { q: value } : {});
  };
  const onAdd = (song: Song, target: CrateTarget, crateName: string) => add.mutate({ target, song, crateName });

  let body;
  if (settled === "") {
    // Nothing typed yet: how to search, and on a fresh install the demo songs to start with.
    body = (
      <div className="tt-stack">
        <EmptyState icon={<Search />} title={t("search.hintTitle")}>
          {t("search.hint")}
        </EmptyState>
        <StartHereShelf />
      </div>
    );
  } else if (results.isPending) {
    body = <ResultSkeletons />;
  } else if (results.isError) {
    body = (
      <div className="tt-stack">
        <ErrorMessage>{toText(results.error)}</ErrorMessage>
        <div>
          <Button variant="secondary" onClick={() => void results.refetch()}>
            {t("retry")}
          </Button>
        </div>
      </div>
    );
  } else if (results.data.every((list) => list.songs.length === 0)) {
    // Nothing anywhere: say so once, and why a provider could not answer.
    body = (
      <div className="tt-stack">
        <EmptyState
          icon={<SearchX />}
          title={t("search.emptyTitle")}
          action={
            <Button variant="secondary" onClick={() => change("")}>
              {t("search.clear")}
            </Button>
          }
        >
          {t("search.empty", { term: settled })}
        </EmptyState>
        {results.data
          .filter((list) => list.error)
          .map((list) => (
            <ErrorMessage key={list.provider}>{list.error}</ErrorMessage>
          ))}
      </div>
    );
  } else {
    // A provider chosen for an earlier search that this one's answer lacks shows them all again.
    const chosen = results.data.some((list) => list.provider === provider) ? provider : ALL;
    const shown = chosen === ALL ? results.data : results.data.filter((list) => list.provider === chosen);
    body = (
      <>
        <div className="tt-search-filter">
          <label htmlFor={`${inputId}-provider`} className="tt-search-filter__label">
            {t("search.providerPicker")}
          </label>
          <Select
            id={`${inputId}-provider`}
            value={chosen}
            onValueChange={setProvider}
            options={[
              { value: ALL, label: t("search.allProviders") },
              ...results.data.map((list) => ({ value: list.provider, label: name("provider", list.provider) })),
            ]}
          />
        </div>
        <div className="tt-search-results" aria-busy={results.isFetching}>
          {shown.map((list) => (
            <ProviderList key={list.provider} results={list} crates={crates} pending={add.isPending} onAdd={onAdd} />
          ))}
        </div>
      </>
    );
  }

  return (
    <div className="tt-search-screen">
      <h1 className="tt-page-title">{t("search.title")}</h1>
      <form role="search" className="tt-search-field tt-search-box" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={inputId} className="tt-visually-hidden">
          {t("search.label")}
        </label>
        <Search className="tt-search-field__icon tt-search-box__icon" aria-hidden="true" />
        <Input
          id={inputId}
          type="search"
          value={term}
          maxLength={200}
          placeholder={t("search.placeholder")}
          autoComplete="off"
          onChange={(event) => change(event.target.value)}
        />
      </form>
      {body}
    </div>
  );
}
