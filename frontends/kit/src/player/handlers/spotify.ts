// Spotify through its Web Playback SDK (spec 002 §3: an id-based provider): the SDK makes this page a Spotify
// Connect device, and the Web API starts the track on it. Needs the listener's Spotify token (Premium);
// without one: "No Spotify token" (spec 002 §8). On a 401 the token is refreshed and the call retried once.
import { PlaybackError } from "../errors.ts";
import type { ActivePlayback, PlayHandler } from "../types.ts";
import { documentScriptHost, loadScript, type ScriptHost } from "./script.ts";

export const SPOTIFY_SDK = "https://sdk.scdn.co/spotify-player.js";
export const SPOTIFY_API = "https://api.spotify.com";

/** The part of Spotify.Player the handler uses. */
export interface SpotifyPlayer {
  connect(): Promise<boolean>;
  disconnect(): void;
  pause(): Promise<void>;
  seek(positionMs: number): Promise<void>;
  getCurrentState(): Promise<{ position: number } | null>;
  addListener(event: string, callback: (payload: { device_id?: string; message?: string }) => void): boolean;
}

export interface SpotifySdk {
  Player: new (options: {
    name: string;
    getOAuthToken: (callback: (token: string) => void) => void;
    volume?: number;
  }) => SpotifyPlayer;
}

declare global {
  interface Window {
    Spotify?: SpotifySdk;
    onSpotifyWebPlaybackSDKReady?: () => void;
  }
}

export interface SpotifyHandlerOptions {
  /** The listener's Spotify access token (refresh: true after a 401); undefined when they have none. */
  getToken(options?: { refresh?: boolean }): Promise<string | undefined>;
  /** The device's name in the listener's Spotify apps. */
  deviceName?: string;
  fetch?: typeof globalThis.fetch;
  scripts?: ScriptHost;
}

function loadSpotify(scripts: ScriptHost): Promise<SpotifySdk> {
  if (window.Spotify?.Player) return Promise.resolve(window.Spotify);
  const ready = new Promise<void>((resolve) => {
    window.onSpotifyWebPlaybackSDKReady = () => resolve();
  });
  return loadScript(SPOTIFY_SDK, scripts, ready).then(() => {
    if (!window.Spotify?.Player) throw new Error("The Spotify Web Playback SDK did not load");
    return window.Spotify;
  });
}

export function createSpotifyPlayHandler(options: SpotifyHandlerOptions): PlayHandler {
  const scripts = options.scripts ?? documentScriptHost;
  const send = (...args: Parameters<typeof fetch>) => (options.fetch ?? globalThis.fetch)(...args);
  // One device per page, connected on the first Spotify play.
  let device: Promise<{ player: SpotifyPlayer; id: string }> | undefined;

  const connect = () => {
    device ??= loadSpotify(scripts).then(
      (Spotify) =>
        new Promise((resolve, reject) => {
          const player = new Spotify.Player({
            name: options.deviceName ?? "Turntable",
            getOAuthToken: (callback) => void options.getToken().then((token) => callback(token ?? "")),
          });
          player.addListener("ready", ({ device_id }) => resolve({ player, id: device_id ?? "" }));
          for (const failure of ["initialization_error", "authentication_error", "account_error"]) {
            player.addListener(failure, ({ message }) => reject(new Error(message ?? failure)));
          }
          void player.connect();
        }),
    );
    device.catch(() => (device = undefined));
    return device;
  };

  return {
    group: "spotify",
    providers: ["spotify"],
    async play(request) {
      const id = String(request.song.musicProviders?.["spotify"] ?? "").trim();
      if (!id) throw new PlaybackError("missingId", "spotify");
      let token = await options.getToken();
      if (!token) throw new PlaybackError("noSpotifyToken");
      const { player, id: deviceId } = await connect();
      const start = async (bearer: string) =>
        send(`${SPOTIFY_API}/v1/me/player/play?device_id=${encodeURIComponent(deviceId)}`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
          body: JSON.stringify({
            uris: [`spotify:track:${id}`],
            position_ms: Math.round(request.startAt * 1000),
          }),
        });
      let response = await start(token);
      if (response.status === 401) {
        token = await options.getToken({ refresh: true });
        if (!token) throw new PlaybackError("noSpotifyToken");
        response = await start(token);
      }
      if (!response.ok) throw new PlaybackError("mediaFailed", "spotify", { cause: response.status });
      if (!request.autoplay) await player.pause();
      let position = request.startAt;
      const playback: ActivePlayback = {
        source: id,
        stop() {
          void player.pause().catch(() => undefined);
        },
        position: () => {
          void player.getCurrentState().then((state) => {
            if (state) position = state.position / 1000;
          });
          return position;
        },
        seek: (seconds) => void player.seek(Math.round(seconds * 1000)),
      };
      return playback;
    },
  };
}
