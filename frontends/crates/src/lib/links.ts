// Spec 002 §5: a link is recognised only if its host contains one of these names, each a music provider
// (tt.common.v1.MusicProvider wire value).
const HOSTS: ReadonlyArray<readonly [string, string]> = [
  ["apple", "apple"],
  ["audius", "audius"],
  ["napster", "napster"],
  ["soundcloud", "soundCloudPublic"],
  ["spotify", "spotify"],
  ["youtube", "youtube"],
  ["youtu.be", "youtube"],
  ["pandora", "pandora"],
  ["deezer", "deezer"],
  ["tidal", "tidal"],
  ["amazon", "amazonMusic"],
  ["yandex", "yandex"],
  ["spinrilla", "spinrilla"],
];

/** The provider a link belongs to (by its host, §5), or undefined when it is not a link or not recognised. */
export function providerOfLink(link: string): string | undefined {
  let host: string;
  try {
    const url = new URL(link.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    host = url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return HOSTS.find(([name]) => host.includes(name))?.[1];
}
