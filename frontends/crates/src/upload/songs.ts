import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Client } from "@connectrpc/connect";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { UploadedSong } from "@tt/proto/tt/upload/v1/song_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { useSession, type PlayableSong } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";

export type { UploadedSong };
export type SongClient = Client<typeof SongService>;

/** The capability the upload service asks for (user service). */
export const UPLOAD_CAPABILITY = "uploadMusic";

/** Packaging progress is polled this often while a song is on its way to VERIFIED. */
export const SONG_POLL_INTERVAL_MS = 1000;

/** States in which nothing happens without the owner (MISSING_METADATA) or ever again (VERIFIED, the error). */
export const SETTLED_STATES: ReadonlySet<string> = new Set(["VERIFIED", "VERIFICATION_ERROR", "MISSING_METADATA"]);

export const uploadKeys = {
  all: (userUuid: string) => ["uploads", userUuid] as const,
  list: (userUuid: string) => ["uploads", userUuid, "list"] as const,
  song: (userUuid: string, songId: string) => ["uploads", userUuid, "song", songId] as const,
  capabilities: (userUuid: string) => ["uploads", userUuid, "capabilities"] as const,
};

export function useSongClient(): SongClient {
  return useClient(SongService);
}

function useUserUuid(): string {
  return useSession().user?.uuid ?? "";
}

/** Whether the signed-in user may upload (GET /users/capabilities). */
export function useCanUpload() {
  const profile = useClient(ProfileService);
  const userUuid = useUserUuid();
  return useQuery({
    queryKey: uploadKeys.capabilities(userUuid),
    queryFn: async () => (await profile.getCapabilities({})).capabilities.includes(UPLOAD_CAPABILITY),
  });
}

/** One song, polled while it is being checked or packaged. */
export function useUploadedSong(songId: string | null) {
  const client = useSongClient();
  const userUuid = useUserUuid();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: uploadKeys.song(userUuid, songId ?? ""),
    enabled: songId !== null,
    queryFn: async () => {
      const { song } = await client.getSong({ id: BigInt(songId ?? "0") });
      if (!song) throw new Error("no song in the answer");
      // A song that settled changes the list (its status, its preview button).
      if (SETTLED_STATES.has(song.status)) void queryClient.invalidateQueries({ queryKey: uploadKeys.list(userUuid) });
      return song;
    },
    refetchInterval: (query) =>
      query.state.data && SETTLED_STATES.has(query.state.data.status) ? false : SONG_POLL_INTERVAL_MS,
  });
}

/** A page of "your uploads" (the upload service allows 1–100, default 20). */
export const UPLOADS_PAGE_SIZE = 20;

/** The caller's uploads, newest first. */
export function useUploadedSongs() {
  const client = useSongClient();
  const userUuid = useUserUuid();
  return useInfiniteQuery({
    queryKey: uploadKeys.list(userUuid),
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const answer = await client.listSongs({ limit: UPLOADS_PAGE_SIZE, offset: pageParam });
      return { songs: answer.songs, total: answer.total, offset: pageParam };
    },
    getNextPageParam: (last) => {
      const next = last.offset + last.songs.length;
      return last.songs.length > 0 && next < last.total ? next : undefined;
    },
  });
}

/** What the kit's player needs of an uploaded song. */
export function playableOf(song: UploadedSong): PlayableSong {
  const streamUrls: Record<string, { http?: string; hls?: string }> = {};
  for (const [provider, urls] of Object.entries(song.streamUrls))
    streamUrls[provider] = { http: urls.http, hls: urls.hls };
  if (!streamUrls["uploadService"]?.hls && song.hlsPlaylistUrl)
    streamUrls["uploadService"] = { hls: song.hlsPlaylistUrl };
  return {
    musicProviders: { uploadService: song.songId.toString(), ...song.musicProviders },
    streamUrls,
    duration: song.duration,
    trackName: song.trackName,
    artistName: song.artistName,
  };
}
