// Signed, short-lived key URLs bound to one listener, and the transcoder reports' signature.
import { createHmac, timingSafeEqual } from "node:crypto";

export function keyToken(secret: Buffer, songId: number, listener: string, expires: number): string {
  return createHmac("sha256", secret).update(`hls-key:${songId}:${listener}:${expires}`).digest("base64url");
}

/**
 * The signature of a non-public song's segment URLs (issue 23): one rendition of one packaging until `expires`
 * (unix seconds), given only in a variant playlist served to a caller allowed to play the song.
 */
export function segmentToken(secret: Buffer, uuid: string, version: string, quality: string, expires: number): string {
  return createHmac("sha256", secret)
    .update(`hls-segment:${uuid}:${version}:${quality}:${expires}`)
    .digest("base64url");
}

export function checkSegmentToken(
  secret: Buffer,
  r: { uuid: string; version: string; quality: string; expires: number; sig: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const expected = Buffer.from(segmentToken(secret, r.uuid, r.version, r.quality, r.expires));
  const given = Buffer.from(r.sig);
  return given.length === expected.length && timingSafeEqual(given, expected) && r.expires >= nowSeconds;
}

export type KeyTokenCheck = "ok" | "expired" | "mismatch";

export function checkKeyToken(
  secret: Buffer,
  songId: number,
  listener: string,
  expires: number,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): KeyTokenCheck {
  const expected = Buffer.from(keyToken(secret, songId, listener, expires));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "mismatch";
  return expires < nowSeconds ? "expired" : "ok";
}

/** Hex HMAC-SHA256 over "<songUuid>.<status>.<progress>.<timestamp>" (POST /upload/transcoder_sns). */
export function callbackSignature(
  secret: Buffer,
  r: { songUuid: string; status: string; progress: number; timestamp: bigint | number },
): string {
  return createHmac("sha256", secret).update(`${r.songUuid}.${r.status}.${r.progress}.${r.timestamp}`).digest("hex");
}

export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
