// Apple Music through MusicKit JS (spec 002 §3: an id-based provider). Needs the deployment's developer token
// (a missing one is the configuration error "key:appleDeveloperToken", spec 002 §8) and, for full songs, the
// listener's Music User Token (without it MusicKit plays the 30-second preview).
import { PlaybackError } from "../errors.ts";
import { loadRuntimeConfig, REMOTES_CONFIG_PATH, type RuntimeConfig } from "../../remote-config.ts";
import type { ActivePlayback, PlayHandler } from "../types.ts";
import { documentScriptHost, loadScript, type ScriptHost } from "./script.ts";

export const MUSICKIT_JS = "https://js-cdn.music.apple.com/musickit/v3/musickit.js";

/** The part of a MusicKit instance the handler uses. */
export interface MusicKitInstance {
  musicUserToken?: string;
  currentPlaybackTime: number;
  setQueue(options: { song: string; startPlaying?: boolean }): Promise<unknown>;
  seekToTime(seconds: number): Promise<unknown>;
  play(): Promise<unknown>;
  stop(): void | Promise<unknown>;
}

export interface MusicKitApi {
  configure(options: { developerToken: string; app: { name: string; build: string } }): Promise<MusicKitInstance>;
}

declare global {
  interface Window {
    MusicKit?: MusicKitApi;
  }
}

export interface AppleHandlerOptions {
  /** The deployment's developer token; by default the runtime configuration's (runtimeDeveloperToken). */
  getDeveloperToken?(): Promise<string | undefined>;
  /** The listener's Music User Token, when they connected Apple Music. */
  getUserToken?(): Promise<string | undefined>;
  scripts?: ScriptHost;
}

/** A token that expires sooner than this is fetched again (the server re-mints an hour, or half its life, ahead). */
const TOKEN_REFRESH_MARGIN_MS = 10 * 60_000;

/**
 * The deployment's developer token from the runtime configuration (/remotes.json "appleMusic", issue 14), fetched
 * again when the one the page has expires within ten minutes; undefined when the deployment configured none.
 */
export async function runtimeDeveloperToken(
  load: (url: string, fresh: boolean) => Promise<RuntimeConfig> = loadRuntimeConfig,
  now: () => number = Date.now,
): Promise<string | undefined> {
  let config = await load(REMOTES_CONFIG_PATH, false);
  const expiresAt = config.appleMusic?.expiresAt ? Date.parse(config.appleMusic.expiresAt) : undefined;
  if (expiresAt !== undefined && expiresAt - now() < TOKEN_REFRESH_MARGIN_MS)
    config = await load(REMOTES_CONFIG_PATH, true);
  return config.appleMusic?.developerToken;
}

function loadMusicKit(scripts: ScriptHost): Promise<MusicKitApi> {
  if (window.MusicKit) return Promise.resolve(window.MusicKit);
  const ready = new Promise<void>((resolve) => {
    if (typeof document === "undefined") return resolve();
    document.addEventListener("musickitloaded", () => resolve(), { once: true });
  });
  return loadScript(MUSICKIT_JS, scripts, ready).then(() => {
    if (!window.MusicKit) throw new Error("MusicKit JS did not load");
    return window.MusicKit;
  });
}

export function createApplePlayHandler(options: AppleHandlerOptions): PlayHandler {
  const scripts = options.scripts ?? documentScriptHost;
  let instance: Promise<MusicKitInstance> | undefined;
  let configuredWith: string | undefined;
  const configure = async () => {
    const developerToken = await (options.getDeveloperToken ? options.getDeveloperToken() : runtimeDeveloperToken());
    if (!developerToken) throw new PlaybackError("missingConfig", "appleDeveloperToken");
    // The server re-mints the token before it expires: MusicKit is configured again with the new one.
    if (developerToken !== configuredWith) instance = undefined;
    if (!instance) {
      configuredWith = developerToken;
      const configuring = loadMusicKit(scripts).then((MusicKit) =>
        MusicKit.configure({ developerToken, app: { name: "Turntable", build: "1" } }),
      );
      instance = configuring;
      configuring.catch(() => {
        if (instance === configuring) instance = configuredWith = undefined;
      });
    }
    return instance;
  };

  return {
    group: "apple",
    providers: ["apple"],
    async play(request) {
      const id = String(request.song.musicProviders?.["apple"] ?? "").trim();
      if (!id) throw new PlaybackError("missingId", "apple");
      const music = await configure();
      const userToken = await options.getUserToken?.();
      if (userToken) music.musicUserToken = userToken;
      try {
        await music.setQueue({ song: id, startPlaying: request.autoplay });
        if (request.startAt > 0) await music.seekToTime(request.startAt);
      } catch (error) {
        throw new PlaybackError("mediaFailed", "apple", { cause: error });
      }
      const playback: ActivePlayback = {
        source: id,
        stop() {
          void Promise.resolve(music.stop()).catch(() => undefined);
        },
        position: () => music.currentPlaybackTime,
        seek: (seconds) => void music.seekToTime(seconds).catch(() => undefined),
      };
      return playback;
    },
  };
}
