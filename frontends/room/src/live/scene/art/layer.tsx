import type { ReactNode } from "react";

/**
 * One layer of a family's art: every layer has the same viewBox and crop, so layers stacked in the backdrop line up
 * as one picture. A moving part (a light beam, a string of bulbs) is a layer of its own whose <svg> element itself
 * moves: the compositor runs a transform or opacity animation of that box without the main thread, while an
 * animation of a shape inside an SVG is laid out again (SVG layout) and restyled in every frame the page draws.
 */
export function SceneLayer({
  className,
  scene,
  children,
}: {
  className?: string;
  scene?: string;
  children: ReactNode;
}) {
  return (
    <svg
      className={className ? `tt-scene-art ${className}` : "tt-scene-art"}
      viewBox="0 0 1000 600"
      preserveAspectRatio="xMidYMid slice"
      data-scene={scene}
    >
      {children}
    </svg>
  );
}
