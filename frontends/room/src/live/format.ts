/** m:ss (h:mm:ss past an hour) of a number of seconds. */
export function formatSeconds(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The first artwork URL of a crate song's thumbnails (provider → URL). */
export function artworkOf(thumbnails: Readonly<Record<string, string>> | undefined): string | undefined {
  return Object.values(thumbnails ?? {}).find((url) => /^(https?:)?\/\//.test(url) || url.startsWith("/"));
}
