// The server-side rules for credentials (specification 000 §5 names only "email and password required" and
// "new password differs"; the rest are ours and are written down in docs/decisions/0014-credential-rules.md and
// docs/decisions/0016-change-password.md).
import { Code, ConnectError } from "@connectrpc/connect";
import { isCommonPassword } from "./common-passwords.ts";

export const PASSWORD_MIN_LENGTH = 8;
// Only a guard against hashing megabytes per request; long passphrases are welcome.
export const PASSWORD_MAX_LENGTH = 1024;
export const NICKNAME_MAX_LENGTH = 64;
// RFC 5321: a path (and so an address) is at most 254 characters in practice.
const EMAIL_MAX_LENGTH = 254;
// Deliberately loose: one @, something on each side, a dot in the domain, no whitespace. The only real
// check of an address is a mail that arrives.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const MISSING_CREDENTIALS = "email or password missing in request";
export const EMAIL_ALREADY_REGISTERED = "this email is already registered";
export const INVALID_EMAIL = "email must be a valid email address";
export const PASSWORD_TOO_SHORT = `password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
export const PASSWORD_TOO_LONG = `password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
export const PASSWORD_TOO_COMMON = "this password is too common; choose another";
export const PASSWORD_ONE_CHARACTER = "this password is one character repeated; choose another";
export const PASSWORD_IS_ACCOUNT_NAME = "this password is your e-mail address or nickname; choose another";
export const NICKNAME_TOO_LONG = `nickname must be at most ${NICKNAME_MAX_LENGTH} characters long`;

/** Addresses are compared case-insensitively: trimmed and lower-cased before storing or looking up. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Returns the normalized address or throws 400. */
export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(normalized)) {
    throw new ConnectError(INVALID_EMAIL, Code.InvalidArgument);
  }
  return normalized;
}

/**
 * Throws 400 unless `password` may be set as a new password (ASVS 5.0 V6.2): 8 to 1024 characters (code
 * points, not UTF-16 units), not one of the most common passwords, not one character repeated, not the
 * account's own address or nickname. No composition rules. Every way of setting a password goes through here.
 */
export function checkNewPassword(password: string, account: { email?: string; nickname?: string } = {}): void {
  const characters = [...password];
  if (characters.length < PASSWORD_MIN_LENGTH) throw new ConnectError(PASSWORD_TOO_SHORT, Code.InvalidArgument);
  if (characters.length > PASSWORD_MAX_LENGTH) throw new ConnectError(PASSWORD_TOO_LONG, Code.InvalidArgument);
  if (characters.every((c) => c === characters[0])) {
    throw new ConnectError(PASSWORD_ONE_CHARACTER, Code.InvalidArgument);
  }
  if (isCommonPassword(password)) throw new ConnectError(PASSWORD_TOO_COMMON, Code.InvalidArgument);
  const lower = password.toLowerCase();
  const email = account.email?.trim().toLowerCase();
  const names = [email, email?.split("@")[0], account.nickname?.trim().toLowerCase()];
  if (names.some((name) => name !== undefined && name !== "" && lower === name)) {
    throw new ConnectError(PASSWORD_IS_ACCOUNT_NAME, Code.InvalidArgument);
  }
}

/** The nickname to store: the given one trimmed, else the part of the address before the @. */
export function nicknameFor(nickname: string, email: string): string {
  const given = nickname.trim();
  if (given !== "") {
    if ([...given].length > NICKNAME_MAX_LENGTH) throw new ConnectError(NICKNAME_TOO_LONG, Code.InvalidArgument);
    return given;
  }
  return [...(email.split("@")[0] ?? email)].slice(0, NICKNAME_MAX_LENGTH).join("");
}
