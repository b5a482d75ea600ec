import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import { CRATE_IMPORT_REFETCH_INTERVAL, PAGE_SIZE, useSession } from "@tt/web-kit";
import { useMemo } from "react";
import {
  crateKeys,
  crateOps,
  moveItem,
  useCrateClient,
  type Crate,
  type CrateClient,
  type CrateSong,
  type CrateTarget,
  type SongPage,
} from "./crates.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";

export type SongPages = InfiniteData<SongPage, number>;

export const IN_PROGRESS = "IN_PROGRESS";

function useUserUuid(): string {
  return useSession().user?.uuid ?? "";
}

/** Songs of the loaded pages, in order. */
export function songsOf(data: InfiniteData<SongPage, unknown> | undefined): CrateSong[] {
  return data?.pages.flatMap((page) => page.songs) ?? [];
}

/** The same pages holding `songs` (same page lengths), positions renumbered from 0. */
function withSongs(data: SongPages, songs: CrateSong[], totalChange = 0): SongPages {
  let start = 0;
  const renumbered = songs.map((song, index) => ({ ...song, position: index }));
  const pages = data.pages.map((page, index) => {
    const length = index === data.pages.length - 1 ? renumbered.length - start : page.songs.length;
    const slice = renumbered.slice(start, start + Math.max(0, length));
    start += slice.length;
    const crate = page.crate && { ...page.crate, crateSongsNumber: page.crate.crateSongsNumber + totalChange };
    return { ...page, songs: slice, total: page.total + totalChange, crate };
  });
  return { ...data, pages };
}

/** The infinite-query data for a crate as one answer (the server's crate with its first page) shows it. */
export function pagesOfCrate(crate: Crate): SongPages {
  return {
    pages: [{ crate, songs: crate.songs, total: crate.crateSongsNumber, offset: 0 }],
    pageParams: [0],
  };
}

/**
 * A crate and its songs, 300 a page (002 §9): the first page is the crate's own read (which carries its first
 * songs), the next ones the songs list. While the crate is being imported it refreshes every 5 seconds (§4).
 */
export function useCrateSongs(target: CrateTarget) {
  const client = useCrateClient();
  const userUuid = useUserUuid();
  const ops = useMemo(() => crateOps(client, target), [client, target]);
  return useInfiniteQuery({
    queryKey: crateKeys.songs(userUuid, target),
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<SongPage> => {
      if (pageParam === 0) {
        const crate = await ops.get();
        if (!crate) throw new Error("no crate in the answer");
        return { crate, songs: crate.songs, total: crate.crateSongsNumber, offset: 0 };
      }
      return ops.listSongs(pageParam, PAGE_SIZE.crateSongs);
    },
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.songs.length, 0);
      return last.songs.length > 0 && loaded < last.total ? loaded : undefined;
    },
    refetchInterval: (query) => {
      const crate = query.state.data?.pages[0]?.crate;
      return importRefetchInterval(crate ? [crate] : []);
    },
  });
}

function useCrateMutationContext(target: CrateTarget) {
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useUserUuid();
  const key = crateKeys.songs(userUuid, target);
  const track = useTrackCrateAction();
  return { client, queryClient, userUuid, key, ops: crateOps(client, target), track };
}

/**
 * Moving a song (002 §4): the cached list shows the new order at once; if the server refuses, the cached list
 * is restored as it was.
 */
export function useMoveSong(target: CrateTarget) {
  const { queryClient, key, ops, track } = useCrateMutationContext(target);
  return useMutation({
    mutationFn: ({ song, to }: { song: CrateSong; from: number; to: number }) => ops.move(song.crateSongUuid, to),
    onSuccess: (_result, { from, to }) => track(target, "move", { from, to }),
    onMutate: async ({ from, to }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SongPages>(key);
      if (previous)
        queryClient.setQueryData<SongPages>(key, withSongs(previous, moveItem(songsOf(previous), from, to)));
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
  });
}

/** Removing a song: gone from the list at once, restored if the server refuses (002 §4). */
export function useRemoveSong(target: CrateTarget) {
  const { queryClient, key, ops, userUuid, track } = useCrateMutationContext(target);
  return useMutation({
    mutationFn: (song: CrateSong) => ops.remove(song.crateSongUuid),
    onMutate: async (song) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SongPages>(key);
      if (previous) {
        const rest = songsOf(previous).filter((item) => item.crateSongUuid !== song.crateSongUuid);
        queryClient.setQueryData<SongPages>(key, withSongs(previous, rest, -1));
      }
      return { previous };
    },
    onError: (_error, _song, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (_result, song) => {
      track(target, "remove", { songId: song.songId });
      void queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
    },
  });
}

export function useShuffle(target: CrateTarget) {
  const { queryClient, key, ops, track } = useCrateMutationContext(target);
  return useMutation({
    mutationFn: () => ops.shuffle(),
    onSuccess: (crate) => {
      track(target, "shuffle");
      if (crate) queryClient.setQueryData(key, pagesOfCrate(crate));
      else void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

const QUEUE: CrateTarget = { special: "queue" };

/**
 * Clears the queue as 002 §4 says: an empty queue is shown at once, then the crate the server answers with
 * replaces it. Returns the server's (empty) queue.
 */
export async function clearQueue(
  client: CrateClient,
  queryClient: QueryClient,
  userUuid: string,
  which: "queue" | "likes" = "queue",
): Promise<Crate> {
  const key = crateKeys.songs(userUuid, { special: which });
  await queryClient.cancelQueries({ queryKey: key });
  const shown = queryClient.getQueryData<SongPages>(key);
  const emptyCrate = shown?.pages[0]?.crate;
  queryClient.setQueryData<SongPages>(key, {
    pages: [
      {
        songs: [],
        total: 0,
        offset: 0,
        crate: emptyCrate ? { ...emptyCrate, songs: [], crateSongsNumber: 0, count: 0, currentPosition: 0 } : undefined,
      },
    ],
    pageParams: [0],
  });
  try {
    const { crate } = which === "queue" ? await client.clearQueueSongs({}) : await client.clearLikesSongs({});
    if (!crate) throw new Error("no crate in the answer");
    queryClient.setQueryData(key, pagesOfCrate(crate));
    return crate;
  } catch (error) {
    // The queue was not cleared: show the server's again.
    if (shown) queryClient.setQueryData(key, shown);
    void queryClient.invalidateQueries({ queryKey: key });
    throw error;
  }
}

/** Clears the queue or the likes crate (each has POST …/songs/clear), showing it empty at once. */
export function useClearQueue(which: "queue" | "likes" = "queue") {
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useUserUuid();
  const track = useTrackCrateAction();
  return useMutation({
    mutationFn: () => clearQueue(client, queryClient, userUuid, which),
    onSuccess: () => track({ special: which }, "clear"),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) }),
  });
}

/** Copying a crate into the queue (002 §4): clear the queue, copy from the source crate, refresh the queue. */
export function useCopyIntoQueue() {
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useUserUuid();
  const track = useTrackCrateAction();
  return useMutation({
    mutationFn: async (srcCrateId: string) => {
      const queue = await clearQueue(client, queryClient, userUuid);
      await client.copyCrate({ crateId: queue.crateUuid, srcCrateId });
    },
    onSuccess: (_result, srcCrateId) => track(QUEUE, "copy-crate", { from: srcCrateId }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: crateKeys.songs(userUuid, QUEUE) });
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
    },
  });
}

/** 002 §4: crate lists refresh every 5 seconds while any crate import is IN_PROGRESS, and not otherwise. */
export function importRefetchInterval(crates: readonly { importStatus: string }[]): number | false {
  return crates.some((crate) => crate.importStatus === IN_PROGRESS) ? CRATE_IMPORT_REFETCH_INTERVAL : false;
}

/** The caller's crates, 100 a page (002 §9), refreshed every 5 seconds while one is being imported (§4). */
export function useMyCrates() {
  const client = useCrateClient();
  const userUuid = useUserUuid();
  return useInfiniteQuery({
    queryKey: crateKeys.list(userUuid),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => client.listMyCrates({ limit: PAGE_SIZE.crates, offset: pageParam }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.crates.length, 0);
      return last.crates.length > 0 && loaded < last.total ? loaded : undefined;
    },
    refetchInterval: (query) => importRefetchInterval(query.state.data?.pages.flatMap((page) => page.crates) ?? []),
  });
}
