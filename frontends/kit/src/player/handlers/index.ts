// The play handlers of the outside providers, each fetched only when its provider is configured for the
// deployment (the runtime configuration's "players"): a page of a deployment without Spotify never loads the
// Spotify handler, let alone its SDK. The URL group (upload, catalogue, Audius, public SoundCloud) is the
// player's own and always there.
import { HANGOUT_PRIORITY, PROVIDER_PRIORITY } from "../constants.ts";
import type { PlayHandler } from "../types.ts";
import type { AppleHandlerOptions } from "./apple.ts";
import type { SpotifyHandlerOptions } from "./spotify.ts";
import type { YouTubeHandlerOptions } from "./youtube.ts";

/** The outside players a deployment can configure (its /remotes.json "players"). */
export const OUTSIDE_PLAYERS = ["youtube", "spotify", "apple"] as const;
export type OutsidePlayer = (typeof OUTSIDE_PLAYERS)[number];

export interface PlayHandlerConfig {
  /** The configured players; the others are never loaded. */
  players: readonly string[];
  youtube?: YouTubeHandlerOptions;
  /** Required for Spotify to play (its token); without it a Spotify song fails with "No Spotify token". */
  spotify?: SpotifyHandlerOptions;
  /**
   * By default the developer token comes from the runtime configuration (/remotes.json "appleMusic"); without
   * one an Apple song fails with "key:appleDeveloperToken".
   */
  apple?: AppleHandlerOptions;
}

const noToken = async () => undefined;

/** The handlers of the configured outside players, each module fetched on demand. */
export async function loadPlayHandlers(config: PlayHandlerConfig): Promise<PlayHandler[]> {
  const wanted = new Set(config.players);
  const loads: Promise<PlayHandler>[] = [];
  if (wanted.has("youtube")) {
    loads.push(import("./youtube.ts").then((m) => m.createYouTubePlayHandler(config.youtube)));
  }
  if (wanted.has("spotify")) {
    loads.push(import("./spotify.ts").then((m) => m.createSpotifyPlayHandler(config.spotify ?? { getToken: noToken })));
  }
  if (wanted.has("apple")) {
    loads.push(import("./apple.ts").then((m) => m.createApplePlayHandler(config.apple ?? {})));
  }
  return Promise.all(loads);
}

/** Spec 002 §9: the hangout brand plays by its own list, every other deployment by the default one. */
export function priorityForBrand(brand: string | undefined): readonly string[] {
  return brand === "hangout" ? HANGOUT_PRIORITY : PROVIDER_PRIORITY;
}
