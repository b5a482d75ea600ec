import { Code } from "@connectrpc/connect";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorCode, useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { lazy, Suspense, useCallback, useMemo, useState, type FormEvent } from "react";
import { crateKeys, useCrateClient, type CrateSong, type CrateTarget } from "../api/crates.ts";
import {
  songsOf,
  useClearQueue,
  useCopyIntoQueue,
  useCrateSongs,
  useMoveSong,
  useRemoveSong,
  useShuffle,
} from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { navigate, Link } from "../lib/router.tsx";
import { VirtualList } from "../lib/VirtualList.tsx";
import { ImportProgress } from "./ImportProgress.tsx";
import { SONG_ROW_HEIGHT, SongRow } from "./SongRow.tsx";

const SimilarSongs = lazy(() => import("./SimilarSongs.tsx").then((m) => ({ default: m.SimilarSongs })));
const ExportButtons = lazy(() => import("./ExportButtons.tsx").then((m) => ({ default: m.ExportButtons })));

const LIST_HEIGHT = 560;

export type CrateScreenProps =
  { special: "queue" | "likes"; crateUuid?: undefined } | { crateUuid: string; special?: undefined };

function RenameForm({
  name,
  description,
  onDone,
  crateUuid,
}: {
  name: string;
  description: string;
  crateUuid: string;
  onDone: () => void;
}) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const [value, setValue] = useState(name);
  const [about, setAbout] = useState(description);
  const track = useTrackCrateAction();
  const rename = useMutation({
    mutationFn: (crateName: string) => client.updateCrate({ crateUuid, crateName, description: about.trim() }),
    onSuccess: async () => {
      track({ crateUuid }, "rename");
      await queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) rename.mutate(value.trim());
  };
  return (
    <form className="tt-crate-toolbar" onSubmit={submit}>
      <label className="tt-field">
        <span>{t("crate.renameLabel")}</span>
        <input value={value} maxLength={100} required onChange={(event) => setValue(event.target.value)} />
      </label>
      <label className="tt-field">
        <span>{t("crate.descriptionLabel")}</span>
        <input value={about} maxLength={1000} onChange={(event) => setAbout(event.target.value)} />
      </label>
      <button type="submit" className="tt-button" disabled={rename.isPending}>
        {t("crate.save")}
      </button>
      <button type="button" className="tt-button tt-button--quiet" onClick={onDone}>
        {t("crate.cancel")}
      </button>
      {rename.isError ? (
        <p className="tt-error" role="alert">
          {toText(rename.error)}
        </p>
      ) : null}
    </form>
  );
}

/** One crate (or the queue, or the likes crate): its songs, reorder, remove, shuffle, copy, rename, delete. */
export function CrateScreen({ special, crateUuid }: CrateScreenProps) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const target = useMemo<CrateTarget>(
    () => (special ? { special } : { crateUuid: crateUuid ?? "" }),
    [special, crateUuid],
  );
  const query = useCrateSongs(target);
  const move = useMoveSong(target);
  const remove = useRemoveSong(target);
  const shuffle = useShuffle(target);
  const clearQueue = useClearQueue(special ?? "queue");
  const copy = useCopyIntoQueue();
  const [renaming, setRenaming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [focusAfterMove, setFocusAfterMove] = useState<{ uuid: string; button: "up" | "down" } | null>(null);
  const track = useTrackCrateAction();
  const deleteCrate = useMutation({
    mutationFn: (uuid: string) => client.deleteCrate({ crateUuid: uuid }),
    onSuccess: async (_result, uuid) => {
      track({ crateUuid: uuid }, "delete");
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
      navigate("/");
    },
  });

  const songs = useMemo(() => songsOf(query.data), [query.data]);
  const crate = query.data?.pages[0]?.crate;
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const focusIndex = focusAfterMove ? songs.findIndex((song) => song.crateSongUuid === focusAfterMove.uuid) : undefined;

  const moveSong = (from: number, to: number) => {
    const song = songs[from];
    if (!song || to < 0 || to >= songs.length || from === to) return;
    setAnnouncement(t("crate.moved", { name: song.trackName, position: to + 1 }));
    move.mutate({ song, from, to });
  };

  if (query.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (query.isError) {
    const code = errorCode(query.error);
    return (
      <div className="tt-error" role="alert">
        <p>{code === Code.NotFound || code === Code.InvalidArgument ? t("crate.notFound") : toText(query.error)}</p>
        <Link to="/" className="tt-button tt-button--quiet">
          {t("crate.back")}
        </Link>
        <button type="button" className="tt-button" onClick={() => void query.refetch()}>
          {t("retry")}
        </button>
      </div>
    );
  }

  const isSpecial = Boolean(special || crate?.special);
  const name = special
    ? t(`special.${special}`)
    : crate?.special
      ? t(`special.${crate.special}`)
      : (crate?.crateName ?? "");
  const isOwner = crate?.userUuid === userUuid || Boolean(special);
  const mutationError = [move, remove, shuffle, clearQueue, copy, deleteCrate].find((m) => m.isError)?.error;

  return (
    <article className="tt-crate" aria-labelledby="crate-title">
      <h1 id="crate-title" className="tt-page-title">
        {name}
      </h1>
      {crate?.description ? <p className="tt-muted">{crate.description}</p> : null}
      <p className="tt-muted" data-testid="crate-count">
        {t("list.songs", { count: total })}
      </p>
      {crate?.importStatus ? <ImportProgress crate={crate} /> : null}

      {renaming && crate ? (
        <RenameForm
          crateUuid={crate.crateUuid}
          name={crate.crateName}
          description={crate.description}
          onDone={() => setRenaming(false)}
        />
      ) : (
        <div className="tt-crate-toolbar" role="toolbar" aria-label={name}>
          {isOwner ? (
            <button
              type="button"
              className="tt-button"
              disabled={shuffle.isPending || songs.length < 2}
              onClick={() => shuffle.mutate()}
            >
              {t("crate.shuffle")}
            </button>
          ) : null}
          {special ? (
            <button
              type="button"
              className="tt-button tt-button--quiet"
              disabled={clearQueue.isPending || songs.length === 0}
              onClick={() => clearQueue.mutate()}
            >
              {t("crate.clear")}
            </button>
          ) : null}
          {special !== "queue" && crate ? (
            <button
              type="button"
              className="tt-button"
              disabled={copy.isPending || songs.length === 0}
              onClick={() => copy.mutate(crate.crateUuid, { onSuccess: () => setAnnouncement(t("crate.copied")) })}
            >
              {copy.isPending ? t("crate.copying") : t("crate.copyToQueue")}
            </button>
          ) : null}
          {!isSpecial && isOwner && crate ? (
            <>
              <button type="button" className="tt-button tt-button--quiet" onClick={() => setRenaming(true)}>
                {t("crate.rename")}
              </button>
              {confirmingDelete ? (
                <span role="group" aria-label={t("crate.delete")}>
                  <span>{t("crate.deleteConfirm", { name })} </span>
                  <button
                    type="button"
                    className="tt-button"
                    disabled={deleteCrate.isPending}
                    onClick={() => deleteCrate.mutate(crate.crateUuid)}
                  >
                    {t("crate.delete")}
                  </button>
                  <button
                    type="button"
                    className="tt-button tt-button--quiet"
                    onClick={() => setConfirmingDelete(false)}
                  >
                    {t("crate.cancel")}
                  </button>
                </span>
              ) : (
                <button type="button" className="tt-button tt-button--quiet" onClick={() => setConfirmingDelete(true)}>
                  {t("crate.delete")}
                </button>
              )}
            </>
          ) : null}
          {crate && songs.length > 0 ? (
            <Suspense fallback={null}>
              <ExportButtons crateUuid={crate.crateUuid} />
            </Suspense>
          ) : null}
        </div>
      )}

      {mutationError ? (
        <p className="tt-error" role="alert">
          {toText(mutationError)}
        </p>
      ) : null}
      <p className="tt-visually-hidden" role="status">
        {announcement}
      </p>

      {songs.length === 0 ? (
        <p className="tt-card tt-empty">{t("crate.empty")}</p>
      ) : (
        <>
          {isOwner ? <p className="tt-muted">{t("crate.dragHint")}</p> : null}
          <VirtualList
            items={songs}
            rowHeight={SONG_ROW_HEIGHT}
            height={LIST_HEIGHT}
            total={total}
            label={t("crate.songsLabel", { name })}
            getKey={(song: CrateSong, index) => song.crateSongUuid || `${song.songId}-${index}`}
            onEndReached={loadMore}
            keepInView={focusIndex}
            renderRow={(song, index) => (
              <SongRow
                song={song}
                index={index}
                count={songs.length}
                labels={{
                  moveUp: t("crate.moveUp", { name: song.trackName }),
                  moveDown: t("crate.moveDown", { name: song.trackName }),
                  remove: t("crate.remove", { name: song.trackName }),
                  dayUnit: t("dayUnit"),
                }}
                dragging={dragFrom === index}
                dropTarget={dropAt === index && dragFrom !== index}
                editable={isOwner}
                focus={focusAfterMove?.uuid === song.crateSongUuid ? focusAfterMove.button : undefined}
                onMove={(from, to) => {
                  setFocusAfterMove({ uuid: song.crateSongUuid, button: to < from ? "up" : "down" });
                  moveSong(from, to);
                }}
                {...(isOwner ? { onRemove: (item: CrateSong) => remove.mutate(item) } : {})}
                onDragStart={(index) => {
                  setFocusAfterMove(null);
                  setDragFrom(index);
                }}
                onDragOver={setDropAt}
                onDrop={(to, dragged) => {
                  // The dragged song by the uuid the drag carries: a fast drop can arrive before the re-render
                  // that would put dragFrom in this closure.
                  const byUuid = dragged ? songs.findIndex((item) => item.crateSongUuid === dragged) : -1;
                  const from = byUuid >= 0 ? byUuid : dragFrom;
                  if (from !== null && isOwner) moveSong(from, to);
                  setDragFrom(null);
                  setDropAt(null);
                }}
                onDragEnd={() => {
                  setDragFrom(null);
                  setDropAt(null);
                }}
              />
            )}
          />
          {hasNextPage ? (
            <p>
              <span className="tt-muted">{t("crate.count", { loaded: songs.length, total })} </span>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                disabled={isFetchingNextPage}
                onClick={loadMore}
              >
                {t("crate.loadMore")}
              </button>
            </p>
          ) : null}
        </>
      )}
      {crate && songs.length > 0 ? (
        <Suspense fallback={null}>
          <SimilarSongs crateUuid={crate.crateUuid} target={target} />
        </Suspense>
      ) : null}
    </article>
  );
}
