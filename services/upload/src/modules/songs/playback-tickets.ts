// Playback tickets: what a native HLS player (Safari, iOS: no Media Source Extensions, so no way to add the
// Authorization header) carries in the URL instead of the listener's access token. A ticket names the song it
// opens (in the MAC, not the text), the listener, the listener's session and an expiry, and is signed with the key
// URLs' HMAC secret (its own domain prefix). It is refused once expired, once its session is revoked (logout,
// ban, password change: the kit's revocations), for another song, when altered, and when sent with another
// user's access token. Text: "<listener>.<session>.<expires>.<mac>", all URL-safe.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface PlaybackTicket {
  listener: string;
  sessionId: string;
  /** Unix seconds. */
  expires: number;
}

export type TicketCheck =
  { ok: true; ticket: PlaybackTicket } | { ok: false; why: "malformed" | "mismatch" | "expired" };

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

function mac(secret: Buffer, songId: number, t: PlaybackTicket): string {
  return createHmac("sha256", secret)
    .update(`hls-ticket:${songId}:${t.listener}:${t.sessionId}:${t.expires}`)
    .digest("base64url");
}

export function issueTicket(secret: Buffer, songId: number, t: PlaybackTicket): string {
  if (!SAFE.test(t.listener) || !SAFE.test(t.sessionId)) {
    throw new Error("a playback ticket's listener and session must be URL-safe ids");
  }
  return `${t.listener}.${t.sessionId}.${t.expires}.${mac(secret, songId, t)}`;
}

export function checkTicket(
  secret: Buffer,
  songId: number,
  text: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): TicketCheck {
  const parts = text.split(".");
  if (parts.length !== 4 || !SAFE.test(parts[0]!) || !SAFE.test(parts[1]!) || !/^\d{1,12}$/.test(parts[2]!)) {
    return { ok: false, why: "malformed" };
  }
  const ticket: PlaybackTicket = { listener: parts[0]!, sessionId: parts[1]!, expires: Number(parts[2]) };
  const expected = Buffer.from(mac(secret, songId, ticket));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: "mismatch" };
  if (ticket.expires < nowSeconds) return { ok: false, why: "expired" };
  return { ok: true, ticket };
}
