// The music-analysis GraphQL endpoint (Cyanite-like, spec 002 §7, §8), called with a bearer credential:
// similar tracks of a Spotify track (edges of node ids, or an error code and message); the error code
// `trackNotAnalyzed` enqueues the track for analysis (the webhook tells us when it is done).
import { ProviderError, requestJson } from "@tt/providers";
import { arr, rec, str } from "./track.ts";

export const SIMILAR_TRACKS_QUERY = `query SimilarTracks($spotifyTrackId: ID!, $first: Int) {
  spotifyTrack(id: $spotifyTrackId) {
    __typename
    ... on Error { message }
    ... on SpotifyTrack {
      similarTracks(target: { spotify: {} }, first: $first) {
        __typename
        ... on SimilarTracksError { code message }
        ... on SimilarTracksConnection { edges { node { id } } }
      }
    }
  }
}`;

export const ENQUEUE_MUTATION = `mutation SpotifyTrackEnqueue($input: SpotifyTrackEnqueueInput!) {
  spotifyTrackEnqueue(input: $input) {
    __typename
    ... on SpotifyTrackEnqueueSuccess { enqueuedSpotifyTrack { id } }
    ... on Error { message }
  }
}`;

export type SimilarTracksResult =
  | { kind: "similar"; spotifyTrackIds: string[] }
  /** Not analysed yet: an analysis was enqueued (§8); ask again after the webhook. */
  | { kind: "enqueued" }
  | { kind: "error"; code: string; message: string };

export interface MusicAnalysis {
  similarTracks(spotifyTrackId: string, first: number): Promise<SimilarTracksResult>;
  enqueue(spotifyTrackId: string): Promise<void>;
}

export interface HttpMusicAnalysisOptions {
  /** https://api.cyanite.ai/graphql */
  url: string;
  accessToken: string;
  timeoutMs: number;
}

export function createHttpMusicAnalysis(options: HttpMusicAnalysisOptions): MusicAnalysis {
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const body = rec(
      await requestJson({
        provider: "music-analysis",
        method: "POST",
        url: options.url,
        headers: { authorization: `Bearer ${options.accessToken}` },
        json: { query, variables },
        timeoutMs: options.timeoutMs,
      }),
    );
    const errors = arr(body.errors);
    if (errors.length > 0) {
      throw new ProviderError("music-analysis", "rejected", str(rec(errors[0]).message) ?? "GraphQL error", 200);
    }
    return rec(body.data);
  };
  const api: MusicAnalysis = {
    async similarTracks(spotifyTrackId, first) {
      const track = rec((await graphql(SIMILAR_TRACKS_QUERY, { spotifyTrackId, first })).spotifyTrack);
      if (track.__typename !== "SpotifyTrack") {
        return { kind: "error", code: str(track.__typename) ?? "Error", message: str(track.message) ?? "" };
      }
      const similar = rec(track.similarTracks);
      if (similar.__typename === "SimilarTracksError" || str(similar.code) !== undefined) {
        const code = str(similar.code) ?? "unknown";
        if (code === "trackNotAnalyzed") {
          await api.enqueue(spotifyTrackId);
          return { kind: "enqueued" };
        }
        return { kind: "error", code, message: str(similar.message) ?? "" };
      }
      return {
        kind: "similar",
        spotifyTrackIds: arr(similar.edges)
          .map((e) => str(rec(rec(e).node).id))
          .filter((id): id is string => id !== undefined),
      };
    },
    async enqueue(spotifyTrackId) {
      const result = rec((await graphql(ENQUEUE_MUTATION, { input: { spotifyTrackId } })).spotifyTrackEnqueue);
      if (result.__typename !== "SpotifyTrackEnqueueSuccess") {
        throw new ProviderError("music-analysis", "rejected", str(result.message) ?? "enqueue refused");
      }
    },
  };
  return api;
}
