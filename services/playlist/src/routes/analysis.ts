// AnalysisService (002 §7, §8, §9): similar songs for up to 8 songs of a crate from the music-analysis
// provider, and its webhook (the body's HMAC-SHA512 signature checked with the configured secret).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import type { Song as SongMessage } from "@tt/proto/tt/playlist/v1/song_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { songMessage } from "../modules/catalogue/catalogue.ts";
import { readableCrate, songPage } from "../modules/crates/crate-store.ts";
import { catalogueSongOf, trackMessage } from "../modules/song-data/provider-songs.ts";
import { keepSuggestions, SIMILAR_SOURCE_SONGS } from "../music/similar.ts";

type Impl = ServiceImpl<typeof AnalysisService>;

export const INVALID_SIGNATURE = "invalid signature";
/** Crate songs looked at for ones with a Spotify id (the first ones). */
const SCAN = 100;

/** What the webhook's signature covers. */
export interface WebhookFields {
  version: string;
  resource?: { type: string; id: string } | undefined;
  event?: { type: string; status: string } | undefined;
}

/**
 * The string the webhook's signature covers (docs/decisions/0166-the-music-analysis-webhook-is-signed-in-the-body.md).
 */
export function webhookSigningString(req: WebhookFields): string {
  return [
    req.version,
    req.resource?.type ?? "",
    req.resource?.id ?? "",
    req.event?.type ?? "",
    req.event?.status ?? "",
  ].join(".");
}

export function signWebhook(secret: string, req: WebhookFields): string {
  return createHmac("sha512", secret).update(webhookSigningString(req)).digest("hex");
}

const thumbnailOf = (song: SongMessage) => Object.values(song.thumbnails)[0];

export function analysisRoutes(svc: PlaylistServiceContext): Impl {
  const providers = svc.music.providers;
  return {
    async getSimilarSongs(req, ctx) {
      const em = callEm(ctx);
      const me = callIdentity(ctx).subject;
      const crate = await readableCrate(em, req.crateUuid, me);
      if (crate.userUuid !== me) throw new ConnectError("crate belongs to another user", Code.PermissionDenied);
      const analysis = providers.analysis;
      if (!analysis) return { songs: [] };
      const limit = req.limit === 0 ? 5 : req.limit;
      const crateSongs = await songPage(em, crate.id, SCAN, 0);
      const sources = crateSongs.filter((s) => s.musicProviders.spotify !== undefined).slice(0, SIMILAR_SOURCE_SONGS);
      const exclude = crateSongs.map((s) => ({
        trackName: s.trackName,
        artistName: s.artistName,
        duration: s.duration,
      }));
      const out = [];
      for (const source of sources) {
        const result = await analysis
          .similarTracks(source.musicProviders.spotify!, limit * 2)
          .catch((error: unknown) => {
            svc.logger.warn({ err: error }, "similar tracks failed");
            return { kind: "error" as const, code: "unavailable", message: "" };
          });
        if (result.kind !== "similar") {
          out.push({ songId: source.songId, suggestions: [], analysisPending: result.kind === "enqueued" });
          continue;
        }
        const candidates: SongMessage[] = [];
        for (const id of result.spotifyTrackIds) {
          const known = await catalogueSongOf(em, "spotify", id);
          if (known) candidates.push(songMessage(known));
          else if (providers.spotify) {
            const track = await providers.spotify.getTrack(id).catch(() => undefined);
            if (track) candidates.push(trackMessage(track));
          }
        }
        const kept = keepSuggestions(
          candidates.map((song) => ({
            song,
            trackName: song.trackName,
            artistName: song.artistName,
            duration: song.duration,
            thumbnail: thumbnailOf(song),
          })),
          exclude,
        ).slice(0, limit);
        for (const k of kept) exclude.push({ trackName: k.trackName, artistName: k.artistName, duration: k.duration });
        out.push({ songId: source.songId, suggestions: kept.map((k) => k.song), analysisPending: false });
      }
      return { songs: out };
    },

    async cyaniteWebhook(req) {
      const secret = providers.analysisWebhookSecret;
      if (secret === undefined) throw new ConnectError(INVALID_SIGNATURE, Code.Unauthenticated);
      const expected = Buffer.from(signWebhook(secret, req), "hex");
      const given = Buffer.from(req.signature.toLowerCase(), "hex");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ConnectError(INVALID_SIGNATURE, Code.Unauthenticated);
      }
      // The analysis of a track finished: the next similar-songs call finds it analysed.
      svc.logger.info(
        { resource: req.resource?.id, type: req.resource?.type, event: req.event?.type, status: req.event?.status },
        "music analysis webhook",
      );
      return {};
    },
  };
}
