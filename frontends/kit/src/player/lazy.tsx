import { lazy, Suspense } from "react";
import type * as PlayerModule from "./index.ts";
import type { PlayerProps } from "./Player.tsx";

// The player's code (component, controller, handlers, media cache) is its own chunk, fetched when a screen first
// shows a player, so the shell's first page load carries none of it (≤ 150 KB gzip); hls.js is a further chunk,
// fetched on the first HLS play.
const LoadedPlayer = lazy(() => import("./Player.tsx").then((module) => ({ default: module.Player })));

/** The player every remote shares (see ./Player.tsx), loaded on first use. */
export function Player(props: PlayerProps) {
  return (
    <Suspense fallback={<div className="tt-player" data-status="loading" />}>
      <LoadedPlayer {...props} />
    </Suspense>
  );
}

/** The whole player module (headless controller, handlers, quality store, media cache), loaded on demand. */
export function loadPlayer(): Promise<typeof PlayerModule> {
  return import("./index.ts");
}
