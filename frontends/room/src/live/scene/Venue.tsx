import { useAppTranslation } from "@tt/web-kit";
import { useNames } from "@tt/web-kit/ui";
import {
  lazy,
  memo,
  Suspense,
  type AnimationEvent,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from "react";
import { LIVE_NAMESPACE, liveTranslations } from "../locales.ts";
import { designOf, FAMILY_OF, POSTER_WALL, type RoomDesign, type SceneArtProps, type SceneFamily } from "./designs.ts";
import "./scene.css";

// Each family's art is its own chunk, fetched when a room of that design opens (issue 25: the scene art is loaded per
// design); the venue's frame (stage, floor, poster) is drawn at once, the backdrop fills in when it arrives.
const ART: Record<SceneFamily, LazyExoticComponent<ComponentType<SceneArtProps>>> = {
  barn: lazy(() => import("./art/barn.tsx")),
  club: lazy(() => import("./art/club.tsx")),
  openAir: lazy(() => import("./art/open-air.tsx")),
  hall: lazy(() => import("./art/hall.tsx")),
  yacht: lazy(() => import("./art/yacht.tsx")),
};

export interface VenueProps {
  /** The room's design (a RoomDesign wire name; an unknown one is drawn as the default). */
  design: string | undefined;
  /** The room's poster image; shown on the scene's wall where it has one. */
  posterUrl?: string | undefined;
  /** The booth (the DJs behind their decks). */
  booth: ReactNode;
  /** The dance floor (not drawn in a chat-only room). */
  floor: ReactNode;
}

/** The scene's art, drawn again only when the design changes (not when the stage does). */
const Backdrop = memo(function Backdrop({ design }: { design: Exclude<RoomDesign, "CHAT_ONLY"> }) {
  const Art = ART[FAMILY_OF[design]];
  return (
    <Suspense fallback={null}>
      <Art design={design} />
    </Suspense>
  );
});

/**
 * Puts an animation of the scene on the beat as it starts (a like's bob, the playing DJ, the art's beams and bulbs):
 * started at the document timeline's origin, its steps of 125 ms (scene.css) fall in the same frames as every other's,
 * so the page draws the scene's motion eight times a second, not in every frame between one dancer's step and the
 * next's.
 */
function onBeat(event: AnimationEvent<HTMLElement>) {
  for (const animation of (event.target as Element).getAnimations()) {
    if (animation instanceof CSSAnimation && animation.animationName === event.animationName) animation.startTime = 0;
  }
}

/**
 * The room as a place (issue 25): the scene of its design with the stage (the booth) at the back, the dance floor in
 * front and the poster on the wall. CHAT_ONLY has no stage: only the booth's seats, the chat fills the room.
 */
export function Venue({ design: raw, posterUrl, booth, floor }: VenueProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const names = useNames();
  const design = designOf(raw);
  if (design === "CHAT_ONLY") {
    return (
      <section
        className="tt-venue tt-venue--chat-only"
        data-design={design}
        aria-label={t("venue.chatOnly")}
        onAnimationStart={onBeat}
      >
        {booth}
      </section>
    );
  }
  const wall = posterUrl ? POSTER_WALL[design] : undefined;
  return (
    <section
      className="tt-venue"
      data-design={design}
      aria-label={t("venue.label", { design: names("design", design) })}
      onAnimationStart={onBeat}
    >
      <div className="tt-venue__backdrop" aria-hidden="true">
        <Backdrop design={design} />
      </div>
      {wall && (
        <img
          className="tt-venue__poster"
          src={posterUrl}
          alt={t("venue.poster")}
          style={{ left: `${wall.left}%`, top: `${wall.top}%`, width: `${wall.width}%` }}
        />
      )}
      <div className="tt-venue__stage" data-testid="venue-stage">
        {booth}
      </div>
      <div className="tt-venue__floor">{floor}</div>
    </section>
  );
}
