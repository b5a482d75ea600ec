import { Code } from "@connectrpc/connect";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorCode, useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { SortableList } from "@tt/web-kit/sortable";
import {
  buttonClass,
  Button,
  ConfirmDialog,
  EmptyState,
  ErrorMessage,
  IconButton,
  Menu,
  MenuItem,
  MenuSeparator,
  Skeleton,
  toast,
  useFormat,
} from "@tt/web-kit/ui";
import {
  ArrowDown,
  ArrowDownToLine,
  ArrowUp,
  ArrowUpToLine,
  Clock3,
  Copy,
  Ellipsis,
  Eraser,
  Music,
  Pencil,
  Search,
  Shuffle,
  Trash2,
} from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
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
import { dateOf, isSpecial, useCrateName, useSongCount, type Special } from "../lib/names.ts";
import { Link, navigate } from "../lib/router.tsx";
import { artworkOf, CrateArt } from "./art.tsx";
import { ExportMenu } from "./ExportMenu.tsx";
import { FormDialog } from "./FormDialog.tsx";
import { ImportProgress } from "./ImportProgress.tsx";
import { SONG_ROW_HEIGHT, SongRow } from "./SongRow.tsx";

const SimilarSongs = lazy(() => import("./SimilarSongs.tsx").then((m) => ({ default: m.SimilarSongs })));

export type CrateScreenProps = { special: Special; crateUuid?: undefined } | { crateUuid: string; special?: undefined };

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

/** The song list's height: what the window leaves below the crate's header, within sensible bounds. */
function useListHeight(): number {
  const measure = () => Math.round(Math.min(900, Math.max(360, window.innerHeight - 180)));
  const [height, setHeight] = useState(measure);
  useEffect(() => {
    const resize = () => setHeight(measure());
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, []);
  return height;
}

const RenameForm = lazy(() => import("./crate-forms.tsx").then((m) => ({ default: m.RenameForm })));

function CrateSkeleton() {
  return (
    <div className="tt-crate" aria-hidden="true">
      <div className="tt-crate-head">
        <Skeleton width="var(--tt-art-lg)" height="var(--tt-art-lg)" radius="var(--tt-radius)" />
        <div className="tt-crate-head__text">
          <Skeleton width="5rem" height="0.8rem" />
          <Skeleton width="min(22rem, 70%)" height="2.25rem" />
          <Skeleton width="8rem" height="0.9rem" />
        </div>
      </div>
      <div className="tt-song-skeletons">
        {Array.from({ length: 8 }, (_, index) => (
          <div key={index} className="tt-song tt-song--skeleton">
            <Skeleton width="2.5rem" height="2.5rem" radius="4px" />
            <span className="tt-song__text">
              <Skeleton width={`${40 + ((index * 17) % 35)}%`} height="0.95rem" />
              <Skeleton width={`${20 + ((index * 11) % 20)}%`} height="0.8rem" />
            </span>
            <Skeleton width="2.5rem" height="0.9rem" />
          </div>
        ))}
      </div>
    </div>
  );
}

/** One crate (or the queue, or the likes crate): its songs, reorder, remove, shuffle, copy, rename, delete, export. */
export function CrateScreen({ special, crateUuid }: CrateScreenProps) {
  const { t } = useCratesText();
  const toText = useErrorText();
  const format = useFormat();
  const crateName = useCrateName();
  const songCount = useSongCount();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const listHeight = useListHeight();
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
  const [deleting, setDeleting] = useState(false);
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
  const name = crateName(crate, special);
  const failed = useCallback((error: unknown) => toast({ title: toText(error), tone: "error" }), [toText]);

  const moveSong = useCallback(
    (from: number, to: number) => {
      const song = songs[from];
      if (!song) return;
      move.mutate(
        { song, from, to },
        {
          onSuccess: () =>
            toast({ title: t("crate.moved", { name: song.trackName, position: to + 1 }), tone: "success" }),
          onError: failed,
        },
      );
    },
    [songs, move, t, failed],
  );
  const getKey = useCallback((song: CrateSong, index: number) => song.crateSongUuid || `${song.songId}-${index}`, []);
  const getLabel = useCallback((song: CrateSong) => song.trackName, []);

  if (query.isPending) return <CrateSkeleton />;
  if (query.isError) {
    const code = errorCode(query.error);
    return (
      <div className="tt-stack">
        <ErrorMessage>
          {code === Code.NotFound || code === Code.InvalidArgument ? t("crate.notFound") : toText(query.error)}
        </ErrorMessage>
        <div className="tt-row">
          <Link to="/" className={buttonClass("secondary")}>
            {t("crate.back")}
          </Link>
          <Button variant="ghost" onClick={() => void query.refetch()}>
            {t("retry")}
          </Button>
        </div>
      </div>
    );
  }

  const isBuiltIn = Boolean(special || crate?.special);
  const isOwner = crate?.userUuid === userUuid || Boolean(special);
  const created = dateOf(crate?.createdAt);
  const kind = special ?? (isSpecial(crate?.special) ? crate.special : undefined);

  const removeSong = (song: CrateSong) =>
    remove.mutate(song, {
      onSuccess: () => toast({ title: t("crate.removed", { name: song.trackName, crate: name }), tone: "success" }),
      onError: failed,
    });

  return (
    <article className="tt-crate" aria-labelledby="crate-title">
      <header className="tt-crate-head">
        <CrateArt special={kind} thumbnails={crate?.thumbnails ?? []} size="lg" />
        <div className="tt-crate-head__text">
          <p className="tt-crate-head__kind">{t(kind ? `kind.${kind}` : "kind.crate")}</p>
          <h1 id="crate-title" className="tt-crate-head__title">
            {name}
          </h1>
          {crate?.description ? <p className="tt-crate-head__description">{crate.description}</p> : null}
          <p className="tt-crate-head__meta">
            <span data-testid="crate-count">{songCount(total)}</span>
            {created && !isBuiltIn ? <span>{t("crate.created", { date: format.date(created) })}</span> : null}
          </p>
          {crate?.importStatus ? <ImportProgress crate={crate} /> : null}
        </div>
      </header>

      <div className="tt-crate-actions">
        {special !== "queue" && crate ? (
          <Button
            icon={<Copy aria-hidden="true" />}
            busy={copy.isPending}
            disabled={songs.length === 0}
            onClick={() =>
              copy.mutate(crate.crateUuid, {
                onSuccess: () => toast({ title: t("crate.copied"), tone: "success" }),
                onError: failed,
              })
            }
          >
            {t("crate.copyToQueue")}
          </Button>
        ) : null}
        {isOwner ? (
          <Button
            variant="secondary"
            icon={<Shuffle aria-hidden="true" />}
            busy={shuffle.isPending}
            disabled={songs.length < 2}
            onClick={() =>
              shuffle.mutate(undefined, {
                onSuccess: () => toast({ title: t("crate.shuffled", { name }), tone: "success" }),
                onError: failed,
              })
            }
          >
            {t("crate.shuffle")}
          </Button>
        ) : null}
        {special ? (
          <ConfirmDialog
            trigger={
              <Button variant="secondary" icon={<Eraser aria-hidden="true" />} disabled={songs.length === 0}>
                {t("crate.clear")}
              </Button>
            }
            title={t("crate.clearTitle", { name })}
            description={t("crate.clearBody", { name, count: total })}
            confirmLabel={t("crate.clearConfirm")}
            tone="danger"
            successMessage={t("crate.cleared", { name })}
            onConfirm={() => clearQueue.mutateAsync()}
          />
        ) : null}
        {crate && songs.length > 0 ? <ExportMenu crateUuid={crate.crateUuid} /> : null}
        {!isBuiltIn && isOwner && crate ? (
          <>
            <Menu trigger={<IconButton label={t("crate.more", { name })} icon={<Ellipsis aria-hidden="true" />} />}>
              <MenuItem icon={<Pencil aria-hidden="true" />} onSelect={() => setRenaming(true)}>
                {t("crate.rename")}
              </MenuItem>
              <MenuSeparator />
              <MenuItem icon={<Trash2 aria-hidden="true" />} danger onSelect={() => setDeleting(true)}>
                {t("crate.delete")}
              </MenuItem>
            </Menu>
            <FormDialog
              open={renaming}
              onOpenChange={setRenaming}
              title={t("crate.renameTitle")}
              submitLabel={t("crate.save")}
              cancelLabel={t("crate.cancel")}
              render={(props) => <RenameForm crate={crate} {...props} />}
            />
            <ConfirmDialog
              open={deleting}
              onOpenChange={setDeleting}
              title={t("crate.deleteTitle", { name })}
              description={t("crate.deleteBody")}
              confirmLabel={t("crate.delete")}
              tone="danger"
              successMessage={t("crate.deleted", { name })}
              onConfirm={() => deleteCrate.mutateAsync(crate.crateUuid)}
            />
          </>
        ) : null}
      </div>

      {songs.length === 0 ? (
        <EmptyState
          icon={<Music />}
          title={special === "queue" ? t("crate.emptyQueueTitle") : t("crate.emptyTitle")}
          action={
            <Link to="/search" className={buttonClass("primary")}>
              <Search aria-hidden="true" />
              {t("crate.searchAction")}
            </Link>
          }
        >
          {special === "queue" ? t("crate.emptyQueueBody") : t("crate.emptyBody")}
        </EmptyState>
      ) : (
        <div className="tt-crate-songs">
          {isOwner ? <p className="tt-crate-songs__hint">{t("crate.dragHint")}</p> : null}
          <div className="tt-song-head" aria-hidden="true" data-sortable={isOwner || undefined}>
            <span className="tt-song-head__pos">#</span>
            <span className="tt-song-head__title">{t("crate.columnTitle")}</span>
            <Clock3 className="tt-song-head__duration" />
          </div>
          <SortableList
            items={songs}
            rowHeight={SONG_ROW_HEIGHT}
            height={listHeight}
            total={total}
            label={t("crate.songsLabel", { name })}
            getKey={getKey}
            getLabel={getLabel}
            onEndReached={loadMore}
            disabled={!isOwner}
            onMove={moveSong}
            renderRow={(song, index, row) => (
              <SongRow
                testId="crate-song"
                title={song.trackName}
                artist={song.artistName}
                art={artworkOf(song.thumbnails)}
                duration={format.duration(song.duration)}
                explicit={song.explicit}
                explicitLabel={t("crate.explicit")}
                unavailable={song.available ? undefined : t("crate.unavailable")}
                leading={
                  <span className="tt-song__lead">
                    {row.handle}
                    <span className="tt-song__pos">{index + 1}</span>
                  </span>
                }
                actions={
                  isOwner && song.crateSongUuid ? (
                    <Menu
                      trigger={
                        <IconButton
                          size="sm"
                          label={t("crate.songActions", { name: song.trackName })}
                          icon={<Ellipsis aria-hidden="true" />}
                        />
                      }
                    >
                      <MenuItem
                        icon={<ArrowUpToLine aria-hidden="true" />}
                        disabled={index === 0}
                        onSelect={() => row.move(0)}
                      >
                        {t("crate.moveTop")}
                      </MenuItem>
                      <MenuItem
                        icon={<ArrowUp aria-hidden="true" />}
                        disabled={index === 0}
                        onSelect={() => row.move(index - 1)}
                      >
                        {t("crate.moveUp")}
                      </MenuItem>
                      <MenuItem
                        icon={<ArrowDown aria-hidden="true" />}
                        disabled={index >= songs.length - 1}
                        onSelect={() => row.move(index + 1)}
                      >
                        {t("crate.moveDown")}
                      </MenuItem>
                      <MenuItem
                        icon={<ArrowDownToLine aria-hidden="true" />}
                        disabled={index >= songs.length - 1}
                        onSelect={() => row.move(songs.length - 1)}
                      >
                        {t("crate.moveBottom")}
                      </MenuItem>
                      <MenuSeparator />
                      <MenuItem icon={<Trash2 aria-hidden="true" />} danger onSelect={() => removeSong(song)}>
                        {t("crate.remove", { crate: name })}
                      </MenuItem>
                    </Menu>
                  ) : null
                }
              />
            )}
          />
          {hasNextPage ? (
            <div className="tt-more">
              <span className="tt-muted">
                {t("crate.count", { loaded: format.number(songs.length), total: format.number(total) })}
              </span>
              <Button variant="secondary" size="sm" busy={isFetchingNextPage} onClick={loadMore}>
                {t("crate.loadMore")}
              </Button>
            </div>
          ) : null}
        </div>
      )}
      {crate && songs.length > 0 ? (
        <Suspense fallback={null}>
          <SimilarSongs crateUuid={crate.crateUuid} crateName={name} target={target} />
        </Suspense>
      ) : null}
    </article>
  );
}
