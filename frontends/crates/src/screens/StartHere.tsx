import { useAppTranslation } from "@tt/web-kit";
import { useId } from "react";
import { useStartHereSongs } from "../api/search.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { ResultRow, useAddSong, useCrateChoices } from "./SongResult.tsx";

/**
 * "Start here" (issue 26): on a fresh install, the demo catalogue's songs, each with the search's actions (to the
 * queue in one click, or to a crate). Nothing at all when the catalogue has no demo songs (production) or could
 * not be asked: the shelf is an invitation, never an empty state or an error of its own.
 */
export function StartHereShelf() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const songs = useStartHereSongs();
  const crates = useCrateChoices();
  const add = useAddSong("start-here");
  const titleId = useId();
  if (!songs.data || songs.data.length === 0) return null;
  return (
    <section className="tt-start-here" aria-labelledby={titleId}>
      <h2 id={titleId} className="tt-section-title">
        {t("startHere.title")}
      </h2>
      <p className="tt-muted">{t("startHere.intro")}</p>
      <ul className="tt-song-list">
        {songs.data.map((song) => (
          <ResultRow
            key={song.songId}
            song={song}
            crates={crates}
            pending={add.isPending}
            onAdd={(target, crateName) => add.mutate({ target, song, crateName })}
          />
        ))}
      </ul>
    </section>
  );
}
