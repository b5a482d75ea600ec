// YouTube Data API v3 (spec 002 §7): GET /youtube/v3/videos?part=contentDetails&id=… for durations, the ISO
// 8601 duration converted to seconds. The API key is the app's (YOUTUBE_API_KEY).
import { requestJson } from "@tt/providers";
import { arr, rec, str, urlOf } from "./track.ts";

export interface YouTubeVideos {
  /** Duration in seconds per video id; ids YouTube does not know are left out. At most 50 ids per call. */
  durations(ids: string[]): Promise<Map<string, number>>;
}

export interface HttpYouTubeOptions {
  /** https://www.googleapis.com */
  apiBaseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** PT1H2M3S → 3723; P1DT1S → 86401; anything unreadable → 0. */
export function isoDurationSeconds(iso: string): number {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso);
  if (!match || iso === "P" || iso === "PT") return 0;
  const [, d, h, m, s] = match;
  return Math.round(Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0));
}

export function createHttpYouTube(options: HttpYouTubeOptions): YouTubeVideos {
  return {
    async durations(ids) {
      const out = new Map<string, number>();
      for (let i = 0; i < ids.length; i += 50) {
        const body = await requestJson({
          provider: "youtube",
          method: "GET",
          url: urlOf(options.apiBaseUrl, "/youtube/v3/videos", {
            part: "contentDetails",
            id: ids.slice(i, i + 50).join(","),
            key: options.apiKey,
          }),
          timeoutMs: options.timeoutMs,
        });
        for (const item of arr(rec(body).items)) {
          const id = str(rec(item).id);
          const duration = str(rec(rec(item).contentDetails).duration);
          if (id !== undefined && duration !== undefined) out.set(id, isoDurationSeconds(duration));
        }
      }
      return out;
    },
  };
}
