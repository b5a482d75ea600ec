// YouTube through its IFrame API (spec 002 §3: an id-based provider). The API script is fetched on the first
// YouTube play; the video plays in a small off-screen frame (sound only, as the room shows its own now-playing).
import { PlaybackError } from "../errors.ts";
import type { ActivePlayback, PlayHandler } from "../types.ts";
import { documentScriptHost, loadScript, type ScriptHost } from "./script.ts";

export const YOUTUBE_IFRAME_API = "https://www.youtube.com/iframe_api";

/** The part of YT.Player the handler uses. */
export interface YouTubePlayer {
  playVideo(): void;
  stopVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  getCurrentTime(): number;
  destroy(): void;
}

export interface YouTubeApi {
  Player: new (
    element: HTMLElement,
    options: {
      videoId: string;
      width?: number;
      height?: number;
      playerVars?: Record<string, number | string>;
      events?: {
        onReady?: (event: { target: YouTubePlayer }) => void;
        onError?: (event: { data: number }) => void;
      };
    },
  ) => YouTubePlayer;
}

declare global {
  interface Window {
    YT?: YouTubeApi;
    onYouTubeIframeAPIReady?: () => void;
  }
}

export interface YouTubeHandlerOptions {
  /** Where the frame goes; by default an off-screen element appended to the body. */
  container?: () => HTMLElement;
  scripts?: ScriptHost;
}

function loadYouTube(scripts: ScriptHost): Promise<YouTubeApi> {
  if (window.YT?.Player) return Promise.resolve(window.YT);
  const ready = new Promise<void>((resolve) => {
    const previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      resolve();
    };
  });
  return loadScript(YOUTUBE_IFRAME_API, scripts, ready).then(() => {
    if (!window.YT?.Player) throw new Error("The YouTube IFrame API did not load");
    return window.YT;
  });
}

function offscreenContainer(): HTMLElement {
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.style.position = "fixed";
  host.style.left = "-10000px";
  host.style.top = "0";
  document.body.appendChild(host);
  return host;
}

export function createYouTubePlayHandler(options: YouTubeHandlerOptions = {}): PlayHandler {
  const scripts = options.scripts ?? documentScriptHost;
  return {
    group: "youtube",
    providers: ["youtube"],
    async play(request) {
      const id = String(request.song.musicProviders?.["youtube"] ?? "").trim();
      if (!id) throw new PlaybackError("missingId", "youtube");
      const YT = await loadYouTube(scripts);
      const host = options.container?.() ?? offscreenContainer();
      const frame = document.createElement("div");
      host.appendChild(frame);
      let player: YouTubePlayer | undefined;
      let stopped = false;
      await new Promise<void>((resolve, reject) => {
        player = new YT.Player(frame, {
          videoId: id,
          width: 200,
          height: 200,
          playerVars: { autoplay: request.autoplay ? 1 : 0, controls: 0, start: Math.floor(request.startAt) },
          events: {
            onReady: ({ target }) => {
              if (request.startAt > 0) target.seekTo(request.startAt, true);
              if (request.autoplay && !stopped) target.playVideo();
              resolve();
            },
            // 2: bad id, 5: HTML5 error, 100: not found, 101/150: embedding refused.
            onError: ({ data }) => {
              const error = new PlaybackError("mediaFailed", "youtube", { cause: data });
              reject(error);
              request.onError(error);
            },
          },
        });
      });
      const playback: ActivePlayback = {
        source: id,
        stop() {
          stopped = true;
          player?.destroy();
          frame.remove();
          if (!options.container) host.remove();
        },
        position: () => player?.getCurrentTime() ?? Number.NaN,
        seek: (seconds) => player?.seekTo(seconds, true),
      };
      return playback;
    },
  };
}
