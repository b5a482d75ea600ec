// FESTIVAL, TOMORROWLAND and STADIUM: open air. A festival tent under the evening sky; Tomorrowland's fairy-tale
// stage with towers and a big arch; a stadium bowl of stands under floodlights.
import type { SceneArtProps } from "../designs.ts";

export default function OpenAirArt({ design }: SceneArtProps) {
  return (
    <svg className="tt-scene-art" viewBox="0 0 1000 600" preserveAspectRatio="xMidYMid slice" data-scene={design}>
      <rect className="tt-scene-sky" width="1000" height="600" />
      {Array.from({ length: 24 }, (_, i) => (
        <circle key={i} className="tt-scene-star" cx={(i * 397) % 1000} cy={(i * 131) % 220} r={(i % 3) + 1} />
      ))}
      {design === "STADIUM" && (
        <>
          <path className="tt-scene-stand" d="M0 120 Q500 40 1000 120 L1000 340 L0 340 Z" />
          {Array.from({ length: 7 }, (_, i) => (
            <path key={i} className="tt-scene-line" d={`M0 ${150 + i * 28} Q500 ${80 + i * 28} 1000 ${150 + i * 28}`} />
          ))}
          {[60, 940].map((x) => (
            <g key={x}>
              <rect className="tt-scene-truss" x={x - 4} y="20" width="8" height="110" />
              <rect className="tt-scene-flood" x={x - 40} y="10" width="80" height="26" rx="4" />
            </g>
          ))}
        </>
      )}
      {design === "TOMORROWLAND" && (
        <>
          <path
            className="tt-scene-arch"
            d="M180 330 V170 A320 180 0 0 1 820 170 V330 H760 V190 A260 130 0 0 0 240 190 V330 Z"
          />
          {[120, 880].map((x) => (
            <g key={x}>
              <rect className="tt-scene-tower" x={x - 30} y="120" width="60" height="210" />
              <path className="tt-scene-roof" d={`M${x - 42} 122 L${x} 40 L${x + 42} 122 Z`} />
            </g>
          ))}
          <circle className="tt-scene-moon" cx="500" cy="110" r="46" />
        </>
      )}
      {design === "FESTIVAL" && (
        <>
          <path className="tt-scene-hill" d="M0 300 Q250 220 520 290 T1000 270 V340 H0 Z" />
          <path className="tt-scene-tent" d="M150 330 L300 110 L700 110 L850 330 Z" />
          <path className="tt-scene-roof" d="M120 130 L500 40 L880 130 Z" />
          {Array.from({ length: 9 }, (_, i) => (
            <path key={i} className="tt-scene-flag" d={`M${160 + i * 85} 140 l20 0 l-10 22 Z`} />
          ))}
        </>
      )}
      <rect className="tt-scene-floor" y="330" width="1000" height="270" />
      {Array.from({ length: 6 }, (_, i) => (
        <line key={i} className="tt-scene-grid" x1="0" y1={360 + i * 45} x2="1000" y2={360 + i * 45} />
      ))}
    </svg>
  );
}
