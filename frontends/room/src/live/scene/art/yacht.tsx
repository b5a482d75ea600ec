// YACHT: a deck at sea at sunset, a mast with pennants, the railing along the dance floor.
import type { SceneArtProps } from "../designs.ts";

export default function YachtArt({ design }: SceneArtProps) {
  return (
    <svg className="tt-scene-art" viewBox="0 0 1000 600" preserveAspectRatio="xMidYMid slice" data-scene={design}>
      <rect className="tt-scene-sky" width="1000" height="600" />
      <circle className="tt-scene-sun" cx="760" cy="230" r="70" />
      <rect className="tt-scene-water" y="250" width="1000" height="100" />
      {Array.from({ length: 5 }, (_, i) => (
        <path
          key={i}
          className="tt-scene-line"
          d={`M${i * 210} ${270 + (i % 2) * 30} q30 -10 60 0 t60 0`}
          fill="none"
        />
      ))}
      <rect className="tt-scene-truss" x="494" y="0" width="12" height="300" />
      <path className="tt-scene-line" d="M500 20 L120 300 M500 20 L880 300" fill="none" />
      {Array.from({ length: 8 }, (_, i) => (
        <path key={i} className="tt-scene-flag" d={`M${470 - i * 42} ${45 + i * 31} l18 4 l-12 16 Z`} />
      ))}
      <rect className="tt-scene-floor" y="330" width="1000" height="270" />
      {Array.from({ length: 12 }, (_, i) => (
        <line key={i} className="tt-scene-grid" x1="0" y1={345 + i * 22} x2="1000" y2={345 + i * 22} />
      ))}
      <rect className="tt-scene-rail" x="0" y="320" width="1000" height="8" />
      {Array.from({ length: 21 }, (_, i) => (
        <rect key={i} className="tt-scene-rail" x={i * 50} y="300" width="5" height="26" />
      ))}
      <rect className="tt-scene-rail" x="0" y="298" width="1000" height="5" />
    </svg>
  );
}
