// Six-digit codes for e-mail verification and phone sign-in. Only a salted hash is stored: a database
// read does not reveal a live code. Six digits are weak against an offline search, so what protects them is
// their short life and the attempt limit.
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

export const CODE_PATTERN = /^\d{6}$/;

export function newCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

export function hashCode(code: string): string {
  const salt = randomBytes(16).toString("base64url");
  return `${salt}.${digest(salt, code)}`;
}

export function codeMatches(stored: string | null | undefined, code: string): boolean {
  if (!stored || !CODE_PATTERN.test(code)) return false;
  const [salt, expected] = stored.split(".");
  if (!salt || !expected) return false;
  const a = Buffer.from(digest(salt, code), "base64url");
  const b = Buffer.from(expected, "base64url");
  return a.length === b.length && timingSafeEqual(a, b);
}

function digest(salt: string, code: string): string {
  return createHash("sha256").update(`${salt}:${code}`).digest("base64url");
}
