// Native HLS (Safari and iOS without Media Source Extensions) fetches the playlists and the key itself, without
// the Authorization header hls.js adds. For an upload the player opens the upload service's nativePlaylistUrl
// instead: the master playlist with a playback ticket bound to the listener's session (short-lived; refused for
// another user, after logout or once expired), which the service carries on to the variant and key URLs.

const MASTER = /\/api\/room-service\/songs\/([0-9]+)\/hls-playlist$/;

export interface NativeHlsOptions {
  /** The listener's access token now, if signed in. */
  token: () => string | undefined;
  /** Puts an upload-service path under the service's base URL (resolveUploadUrl). */
  resolve: (path: string) => Promise<string>;
  /** The live room the listener is in, if any (issue 23: asked with, so a room's listener gets a ticket). */
  room?: () => string | undefined;
  fetch?: typeof fetch;
}

/**
 * The URL a native player should open for `url` (an already resolved master playlist URL): the upload service's
 * ticketed nativePlaylistUrl for an upload's master playlist, else `url` itself (also when the service cannot
 * give one: the player then reports the failure it meets).
 */
export function createNativeHlsUrl(options: NativeHlsOptions): (url: string, provider: string) => Promise<string> {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return async (url, provider) => {
    let path: string;
    try {
      path = new URL(url, "http://localhost").pathname;
    } catch {
      return url;
    }
    const id = MASTER.exec(path)?.[1];
    const token = options.token();
    if (provider !== "uploadService" || !id || !token) return url;
    try {
      const room = options.room?.();
      const query = room ? `?room=${encodeURIComponent(room)}` : "";
      const res = await fetchImpl(await options.resolve(`/api/upload-service/songs/${id}/hls-playlist-url${query}`), {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (!res.ok) return url;
      const body = (await res.json()) as { nativePlaylistUrl?: string };
      return body.nativePlaylistUrl ? await options.resolve(body.nativePlaylistUrl) : url;
    } catch {
      return url;
    }
  };
}
