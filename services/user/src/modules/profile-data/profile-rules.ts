// What the profile-data calls accept. The proto comments document each limit; the messages are ours.
import { Code, ConnectError } from "@connectrpc/connect";
import { isUuid } from "@tt/kit";
import { NICKNAME_MAX_LENGTH } from "../../account-rules.ts";

export const PROFILE_NOT_FOUND = "user profile not found";
export const IMAGE_NOT_FOUND = "image not found";
export const UNAUTHORIZED_TO_DELETE = "unauthorized to delete";

export const BADGES = ["VERIFIED", "PLATINUM", "DOUBLE_PLATINUM", "JQBX", "STAFF"] as const;
export const CAPABILITIES = ["uploadMusic", "promoteRoom"] as const;
/** Roles that see other users' e-mails and may delete anyone's picture. */
export const STAFF_ROLES: ReadonlySet<string> = new Set([
  "globalModerator",
  "admin",
  "moderator",
  "staff",
  "superUser",
]);
export const IMAGE_KINDS = ["profilePicture", "coverPicture"] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const MUSIC_PROVIDERS = ["apple", "audius", "soundcloud", "spotify", "youtube", "sevenDigital"] as const;
export const AUDIO_QUALITIES = ["low", "medium", "high"] as const;
export const LANGUAGES = ["en", "es"] as const;

/** The same limit as at sign-up (and the column's). */
export const NICKNAME_MAX = NICKNAME_MAX_LENGTH;
export const BIO_MAX = 500;
export const SOCIAL_MAX = 200;
export const AVATAR_ID_MAX = 128;
export const MAX_PROFILE_BATCH = 150;
export const MAX_PAGE = 1000;

const COLOR_PATTERN = /^#[0-9a-f]{6}$/i;
// Avatar slugs of the merch service: lower-case words joined by - or _.
const AVATAR_ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const bad = (message: string) => new ConnectError(message, Code.InvalidArgument);

export { isUuid };

/** A uuid naming a user, lower-cased; anything else names no user, so 404 rather than a PostgreSQL cast error. */
export function userIdOr404(id: string): string {
  if (!isUuid(id)) throw new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);
  return id.toLowerCase();
}

export function checkNickname(value: string): string {
  const nickname = value.trim();
  const length = [...nickname].length;
  if (length < 1 || length > NICKNAME_MAX) throw bad(`nickname must be 1 to ${NICKNAME_MAX} characters long`);
  return nickname;
}

/** Null clears the colour; stored lower-cased. */
export function checkColor(value: string): string | null {
  const color = value.trim();
  if (color === "") return null;
  if (!COLOR_PATTERN.test(color)) throw bad("color must be a hex colour like #1a2b3c");
  return color.toLowerCase();
}

export function checkBio(value: string): string | null {
  if ([...value].length > BIO_MAX) throw bad(`bio must be at most ${BIO_MAX} characters long`);
  return value === "" ? null : value;
}

export function checkAvatarId(value: string): string | null {
  const avatarId = value.trim();
  if (avatarId === "") return null;
  if (avatarId.length > AVATAR_ID_MAX || !AVATAR_ID_PATTERN.test(avatarId)) {
    throw bad("avatarId must be an avatar slug (lower-case letters, digits, - and _)");
  }
  return avatarId;
}

export function checkBadges(badges: readonly string[]): string[] {
  for (const badge of badges) {
    if (!(BADGES as readonly string[]).includes(badge)) {
      throw bad(`unknown badge ${JSON.stringify(badge)}; badges are ${BADGES.join(", ")}`);
    }
  }
  return [...new Set(badges)];
}

export function checkImageKind(kind: string): ImageKind {
  if (!(IMAGE_KINDS as readonly string[]).includes(kind)) {
    throw bad(`kind must be one of ${IMAGE_KINDS.join(", ")}`);
  }
  return kind as ImageKind;
}

export function checkSocial(field: string, value: string): string {
  const trimmed = value.trim();
  if ([...trimmed].length > SOCIAL_MAX) throw bad(`${field} must be at most ${SOCIAL_MAX} characters long`);
  if (field === "website" && trimmed !== "") {
    let url: URL | undefined;
    try {
      url = new URL(trimmed);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw bad("website must be an http or https URL");
    }
  }
  return trimmed;
}

export interface CheckedUserData {
  musicProviders: string[];
  allowExplicitAudio: boolean;
  audioQuality: string;
  language: string;
}

/** Empty audio quality and language mean the defaults: proto3 cannot tell them from absent. */
export function checkUserData(input: {
  musicProviders: readonly string[];
  allowExplicitAudio: boolean;
  audioQuality: string;
  language: string;
}): CheckedUserData {
  for (const provider of input.musicProviders) {
    if (!(MUSIC_PROVIDERS as readonly string[]).includes(provider)) {
      throw bad(`unknown music provider ${JSON.stringify(provider)}; providers are ${MUSIC_PROVIDERS.join(", ")}`);
    }
  }
  const audioQuality = input.audioQuality === "" ? "medium" : input.audioQuality;
  if (!(AUDIO_QUALITIES as readonly string[]).includes(audioQuality)) {
    throw bad(`audioQuality must be one of ${AUDIO_QUALITIES.join(", ")}`);
  }
  const language = input.language === "" ? "en" : input.language;
  if (!(LANGUAGES as readonly string[]).includes(language)) {
    throw bad(`language must be one of ${LANGUAGES.join(", ")}`);
  }
  return {
    // Set keeps the first occurrence's position.
    musicProviders: [...new Set(input.musicProviders)],
    allowExplicitAudio: input.allowExplicitAudio,
    audioQuality,
    language,
  };
}

/** take/skip of the service lists: take 0 means `whenZero` (all, or a default page). */
export function checkPage(
  take: number,
  skip: number,
  whenZero: number | undefined,
): { limit?: number; offset: number } {
  if (take < 0 || take > MAX_PAGE) throw bad(`take must be 0 to ${MAX_PAGE}`);
  if (skip < 0) throw bad("skip must not be negative");
  return { limit: take === 0 ? whenZero : take, offset: skip };
}
