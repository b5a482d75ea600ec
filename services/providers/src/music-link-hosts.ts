// Specification 002 §5: a link (in chat, in a song-data lookup) is a music link only when its host contains one of
// these provider names, in the spec's order. The playlist service resolves such links; the social service's chat
// turns them into song cards.
export const MUSIC_LINK_HOSTS = [
  "apple",
  "audius",
  "napster",
  "soundcloud",
  "spotify",
  "youtube",
  "youtu.be",
  "pandora",
  "deezer",
  "tidal",
  "amazon",
  "yandex",
  "spinrilla",
] as const;

/** Whether a host name contains one of §5's provider names (case-insensitive). */
export function isMusicLinkHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return MUSIC_LINK_HOSTS.some((name) => host.includes(name));
}
