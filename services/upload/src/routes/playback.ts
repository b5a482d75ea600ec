// Who may fetch a song's playlists and key: a caller with its own access token (hls.js adds it), or a native HLS
// player holding a playback ticket of the listener's session
// (docs/decisions/0201-native-hls-plays-through-a-playback-ticket-in.md).
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { callIdentity, kIdentity } from "@tt/kit";
import { checkTicket, issueTicket } from "../modules/songs/playback-tickets.ts";
import { masterPlaylistUrl } from "../modules/songs/song-keys.ts";
import type { Song } from "../modules/songs/song.entity.ts";
import type { UploadContext } from "./context.ts";

export interface PlaybackCaller {
  /** The listener's uuid (the token's subject, or the ticket's). */
  listener: string;
  /** The ticket the request came with, carried on to the next URL; undefined for a caller with a token. */
  ticket?: string;
}

const refused = (message: string) => new ConnectError(message, Code.Unauthenticated);

/**
 * The caller of a playlist or key request for song `songId`: with a ticket, the ticket's listener once the ticket
 * is valid for this song, unexpired, its session not revoked, and (when a token comes along) issued to the
 * token's subject; without one, the token's identity (401 without a token).
 */
export function playbackCaller(
  svc: UploadContext,
  ctx: HandlerContext,
  songId: bigint,
  ticket: string,
): PlaybackCaller {
  if (!ticket) return { listener: callIdentity(ctx).subject };
  const check = checkTicket(svc.secrets.keyUrl, Number(songId), ticket);
  if (!check.ok) {
    throw refused(check.why === "expired" ? "the playback ticket has expired" : "the playback ticket is not valid");
  }
  if (svc.revocations.isRevoked(check.ticket.sessionId)) throw refused("the playback ticket's session has ended");
  const who = ctx.values.get(kIdentity);
  if (who && who.subject !== check.ticket.listener) throw refused("the playback ticket was not issued to this caller");
  return { listener: check.ticket.listener, ticket };
}

/**
 * The master playlist URL with a ticket for the caller's session, valid for the song's length plus the grace
 * (at most HLS_KEY_URL_TTL_SECONDS); "" for a caller that is no listener (a service) or whose ids are not URL-safe.
 */
export function nativePlaylistUrl(svc: UploadContext, ctx: HandlerContext, song: Song): string {
  const ticket = playbackTicket(svc, ctx, song);
  return ticket ? `${masterPlaylistUrl(song.id)}?ticket=${ticket}` : "";
}

/**
 * A playback ticket of the caller's session for the song (its length plus the grace, at most
 * HLS_KEY_URL_TTL_SECONDS); "" for a service caller or ids that are not URL-safe. Issue it only to a caller
 * allowed to play the song: the ticket's holder is not asked again.
 */
export function playbackTicket(svc: UploadContext, ctx: HandlerContext, song: Song): string {
  const who = callIdentity(ctx);
  if (who.tokenType === "service") return "";
  const ttl = Math.min(
    Math.ceil(song.duration) + svc.config.HLS_NATIVE_TICKET_GRACE_SECONDS,
    svc.config.HLS_KEY_URL_TTL_SECONDS,
  );
  try {
    const ticket = issueTicket(svc.secrets.keyUrl, song.id, {
      listener: who.subject,
      sessionId: who.sessionId,
      expires: Math.floor(Date.now() / 1000) + ttl,
    });
    return ticket;
  } catch {
    return "";
  }
}
