// THEATER and FERRY_BUILDING: halls. The theatre's red curtains and balconies; the ferry building's arched windows
// over the bay with its clock tower.
import type { SceneArtProps } from "../designs.ts";

export default function HallArt({ design }: SceneArtProps) {
  return (
    <svg className="tt-scene-art" viewBox="0 0 1000 600" preserveAspectRatio="xMidYMid slice" data-scene={design}>
      <rect className="tt-scene-wall" width="1000" height="600" />
      {design === "THEATER" ? (
        <>
          <rect className="tt-scene-proscenium" x="90" y="0" width="820" height="340" />
          <rect className="tt-scene-backdrop" x="150" y="40" width="700" height="300" />
          <path className="tt-scene-curtain" d="M150 40 H420 Q330 170 300 340 H150 Z" />
          <path className="tt-scene-curtain" d="M850 40 H580 Q670 170 700 340 H850 Z" />
          <path className="tt-scene-valance" d="M150 40 H850 V80 Q500 120 150 80 Z" />
          {[0, 1].map((row) => (
            <rect key={row} className="tt-scene-balcony" x="0" y={120 + row * 110} width="80" height="36" rx="6" />
          ))}
          {[0, 1].map((row) => (
            <rect key={row} className="tt-scene-balcony" x="920" y={120 + row * 110} width="80" height="36" rx="6" />
          ))}
        </>
      ) : (
        <>
          {Array.from({ length: 6 }, (_, i) => (
            <path
              key={i}
              className="tt-scene-window"
              d={`M${40 + i * 160} 330 V150 A60 60 0 0 1 ${160 + i * 160} 150 V330 Z`}
            />
          ))}
          <path className="tt-scene-water" d="M0 250 Q125 240 250 250 T500 250 T750 250 T1000 250 V330 H0 Z" />
          <rect className="tt-scene-tower" x="470" y="20" width="60" height="120" />
          <circle className="tt-scene-clock" cx="500" cy="60" r="18" />
          <rect className="tt-scene-beam" x="0" y="140" width="1000" height="10" />
        </>
      )}
      <rect className="tt-scene-floor" y="330" width="1000" height="270" />
      {Array.from({ length: 14 }, (_, i) => (
        <line key={i} className="tt-scene-grid" x1={i * 80 - 40} y1="600" x2={200 + i * 47} y2="330" />
      ))}
    </svg>
  );
}
